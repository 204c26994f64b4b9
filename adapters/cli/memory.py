"""`agent memory form`: offline formation over a JSON Lines file, no Temporal and no database.

Each session in the file is formed as its own consolidation. Nothing read from the file is logged; the
stderr summary carries counts, line numbers and field names only.
"""

import json
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any
from uuid import UUID

import typer
from rich.console import Console
from rich.table import Table

from domain.candidates import MemoryCandidate
from domain.event_intake import Refusal, parse_lines
from domain.events import SourceEvent
from domain.formation.deterministic.formation7 import Formation7Candidate, form_formation7
from domain.formation.deterministic.former import fallback_candidates
from domain.policy.versions import FORMATION_7, FORMATION_9

memory_app = typer.Typer(help="Inspect and form memories.", no_args_is_help=True)

_MAX_REPORTED_LINES = 20


class FormPolicy(StrEnum):
    FORMATION_9 = FORMATION_9
    FORMATION_7 = FORMATION_7


@dataclass
class ReadReport:
    """What reading the file produced, without any of its content."""

    events: list[SourceEvent] = field(default_factory=list)
    bad_by_reason: Counter[str] = field(default_factory=Counter)
    bad_lines: list[tuple[int, str]] = field(default_factory=list)
    skipped_non_owner: Counter[str] = field(default_factory=Counter)
    duplicates: int = 0


def read_events(path: Path) -> ReadReport:
    """Validate every line into a SourceEvent (domain.event_intake); a bad line is counted by reason,
    never quoted."""
    report = ReadReport()
    seen: set[tuple[str, str, UUID, int]] = set()
    with path.open("rb") as handle:
        for item in parse_lines(handle):
            if isinstance(item, Refusal):
                reason = f"{item.field}: {item.reason}"
                report.bad_by_reason[reason] += 1
                report.bad_lines.append((item.line, reason))
                continue
            _, event = item
            key = (event.tenant_id, event.principal_id, event.session_id, event.seq)
            if key in seen:
                report.duplicates += 1
                continue
            seen.add(key)
            report.events.append(event)
            if not event.is_owner_assertion:
                report.skipped_non_owner[event.kind.value] += 1
    return report


def sessions_of(events: list[SourceEvent]) -> dict[tuple[str, str, UUID], list[SourceEvent]]:
    grouped: dict[tuple[str, str, UUID], list[SourceEvent]] = defaultdict(list)
    for event in events:
        grouped[(event.tenant_id, event.principal_id, event.session_id)].append(event)
    return {key: sorted(value, key=lambda e: e.seq) for key, value in grouped.items()}


def candidate_row(session_id: UUID, candidate: MemoryCandidate) -> dict[str, Any]:
    return {
        "session_id": str(session_id),
        "subject": candidate.subject,
        "claim_kind": candidate.claim_kind.value,
        "derivation": candidate.derivation.value,
        "longevity": candidate.longevity.value,
        "polarity": candidate.polarity.value,
        "statement": candidate.statement,
        "source_event_ids": list(candidate.source_event_ids),
        "evidence_spans": [{"seq": span.seq, "text": span.text} for span in candidate.evidence_spans],
    }


def control_row(session_id: UUID, candidate: Formation7Candidate) -> dict[str, Any]:
    # formation@7 cannot express the closed fields; they are null rather than invented.
    return {
        "session_id": str(session_id),
        "subject": None,
        "claim_kind": None,
        "derivation": None,
        "longevity": None,
        "polarity": None,
        "statement": candidate.statement,
        "source_event_ids": list(candidate.source_event_ids),
        "evidence_spans": [],
    }


def form_rows(events: list[SourceEvent], policy: FormPolicy) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for (_, _, session_id), session_events in sessions_of(events).items():
        if policy is FormPolicy.FORMATION_7:
            rows.extend(control_row(session_id, c) for c in form_formation7(session_events))
        else:
            rows.extend(candidate_row(session_id, c) for c in fallback_candidates(session_events))
    return rows


def _summary(report: ReadReport, rows: int, sessions: int, err: Console) -> None:
    err.print(
        f"read {len(report.events)} events in {sessions} session(s); formed {rows} candidate(s)",
        highlight=False,
    )
    for kind, count in sorted(report.skipped_non_owner.items()):
        err.print(f"skipped {count} {kind} event(s): not an owner assertion, forms nothing", highlight=False)
    if report.duplicates:
        err.print(f"skipped {report.duplicates} duplicate event(s): same session and seq", highlight=False)
    # The words of `agent events import`: a refused line is "refused line N: field: reason".
    for reason, count in sorted(report.bad_by_reason.items()):
        err.print(f"refused {count} line(s): {reason}", highlight=False)
    for number, reason in report.bad_lines[:_MAX_REPORTED_LINES]:
        err.print(f"refused line {number}: {reason}", highlight=False)
    if len(report.bad_lines) > _MAX_REPORTED_LINES:
        err.print(f"  ... {len(report.bad_lines) - _MAX_REPORTED_LINES} more", highlight=False)


@memory_app.command("form")
def form(
    file: Annotated[
        Path,
        typer.Argument(
            help="JSON Lines source events (tenant_id, principal_id, session_id, seq, kind, text, occurred_at).",
            exists=True,
            dir_okay=False,
            readable=True,
        ),
    ],
    policy: Annotated[
        FormPolicy,
        typer.Option(
            "--policy",
            help="formation@9 (the deterministic fallback of nemori-assisted-v1) or formation@7 (frozen control).",
        ),
    ] = FormPolicy.FORMATION_9,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object per candidate instead of a table.")
    ] = False,
) -> None:
    """Form memories offline from FILE: no Temporal, no database; each session is its own consolidation.
    Exits 1 if a line was refused (the other lines are formed)."""
    err = Console(stderr=True)
    report = read_events(file)
    rows = form_rows(report.events, policy)
    if as_json:
        for row in rows:
            sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
    else:
        table = Table(title=f"candidates ({policy.value})")
        for column in (
            "session",
            "subject",
            "kind",
            "derivation",
            "longevity",
            "polarity",
            "statement",
            "events",
        ):
            table.add_column(column)
        for row in rows:
            table.add_row(
                row["session_id"][:8],
                row["subject"] or "-",
                row["claim_kind"] or "-",
                row["derivation"] or "-",
                row["longevity"] or "-",
                row["polarity"] or "-",
                row["statement"],
                ",".join(str(seq) for seq in row["source_event_ids"]),
            )
        Console().print(table)
    _summary(report, len(rows), len(sessions_of(report.events)), err)
    # As `agent events import`: the valid lines are formed, and a refused line makes the exit 1.
    if report.bad_lines:
        raise typer.Exit(code=1)
