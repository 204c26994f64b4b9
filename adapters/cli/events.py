"""`agent events import FILE.jsonl`: append source events, idempotently, refusing bad lines by reason code.

Every line is validated (domain.event_intake) before anything is written, so a bad line costs only
itself: the valid lines are stored, each refused line is reported by number, field and reason code
(an EventRefusalReason, pydantic's error type or event_conflict), never by content. An event below its
session's watermark (it arrived after consolidation passed its sequence gap) is stored as late, with a
content-free late_event audit, and the session's next round consolidates it; a store that accepts no late
events (a database before the late-events revision) refuses it as below_watermark instead.
"""

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Final
from uuid import UUID, uuid4

import typer
from rich.console import Console
from rich.progress import Progress

from adapters.cli.db import database_composition
from domain.errors import EventConflict
from domain.event_intake import Refusal, parse_lines
from domain.events import SourceEvent
from domain.owner import Owner
from domain.ports import UnitOfWork, UnitOfWorkFactory
from domain.telemetry import AuditKind, FormationAudit

events_app = typer.Typer(help="Append source events to the store.", no_args_is_help=True)

BATCH: Final = 500


@dataclass
class ImportReport:
    appended: int = 0
    # Of appended: below the session's watermark, consolidated by its next round.
    late: int = 0
    already_present: int = 0
    refusals: list[Refusal] = field(default_factory=list)
    sessions: set[tuple[str, str, UUID]] = field(default_factory=set)

    @property
    def refused(self) -> int:
        return len(self.refusals)


def import_events(
    store: UnitOfWorkFactory,
    lines: Iterable[bytes | str],
    on_batch: Callable[[int, int], None] | None = None,
) -> ImportReport:
    """`on_batch(done, total)` after each committed batch: valid events handled so far, of all valid."""
    report = ImportReport()
    valid: list[tuple[int, SourceEvent]] = []
    for item in parse_lines(lines):
        if isinstance(item, Refusal):
            report.refusals.append(item)
        else:
            valid.append(item)
    for start in range(0, len(valid), BATCH):
        append_numbered(store, valid[start : start + BATCH], report)
        if on_batch is not None:
            on_batch(min(start + BATCH, len(valid)), len(valid))
    report.refusals.sort(key=lambda refusal: refusal.line)
    return report


def append_numbered(
    store: UnitOfWorkFactory, batch: list[tuple[int, SourceEvent]], report: ImportReport
) -> None:
    """Append numbered events in one unit of work, adding each refusal (event_conflict, below_watermark) to
    report by its number."""
    with store() as uow:
        watermarks: dict[tuple[str, str, UUID], int] = {}
        for line, event in batch:
            key = (event.tenant_id, event.principal_id, event.session_id)
            if key not in watermarks:
                owner = Owner(tenant_id=event.tenant_id, principal_id=event.principal_id)
                watermarks[key] = uow.watermarks.get(owner, event.session_id)
            # Consolidation already passed this position: stored flagged, the next round plans it.
            late = event.seq <= watermarks[key]
            if late and not uow.events.accepts_late:
                _compare_below_watermark(uow, line, event, report)
                continue
            try:
                result = uow.events.append([event], late=late)
            except EventConflict:
                report.refusals.append(Refusal(line, "seq", EventConflict.reason_code))
                continue
            report.appended += result.appended
            report.already_present += result.already_present
            report.sessions.add(key)
            if late and result.appended:
                report.late += 1
                _audit_late(uow, event, watermarks[key])
        uow.commit()


def _compare_below_watermark(uow: UnitOfWork, line: int, event: SourceEvent, report: ImportReport) -> None:
    """Without late events, only the event already stored at the position is accepted (already present):
    appended now, it would never be consolidated."""
    stored = uow.events.read_range(event.owner, event.session_id, event.seq - 1, 1)
    if not stored or stored[0].seq != event.seq:
        report.refusals.append(Refusal(line, "seq", "below_watermark"))
    elif stored[0].text != event.text or stored[0].kind != event.kind:
        report.refusals.append(Refusal(line, "seq", EventConflict.reason_code))
    else:
        report.already_present += 1


def _audit_late(uow: UnitOfWork, event: SourceEvent, watermark: int) -> None:
    """Content-free: the position and the watermark it arrived below, once per event."""
    uow.audits.record(
        FormationAudit(
            id=uuid4(),
            tenant_id=event.tenant_id,
            principal_id=event.principal_id,
            session_id=event.session_id,
            kind=AuditKind.LATE_EVENT,
            dedupe_key=f"{AuditKind.LATE_EVENT.value}/{event.session_id}/{event.seq}",
            details={"seq": event.seq, "watermark": watermark},
            created_at=datetime.now(UTC),
        )
    )


@events_app.command("import")
def import_command(
    file: Annotated[
        Path,
        typer.Argument(
            exists=True, dir_okay=False, readable=True, help="JSON Lines, one source event a line."
        ),
    ],
    embedded: Annotated[
        bool,
        typer.Option("--embedded", help="Use the embedded PostgreSQL in the dev data dir, not DATABASE_URL."),
    ] = False,
) -> None:
    """Append the file's events; re-importing the same file changes nothing. Exits 1 if a line was refused."""
    composition = database_composition(embedded)
    console = Console(stderr=True)
    # A bar only on a terminal: a pipe or a log gets the summary line alone.
    with Progress(console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task("importing events", total=None)
        try:
            # Bytes, decoded line by line: a byte that is not UTF-8 refuses its own line only.
            with file.open("rb") as lines:
                report = import_events(
                    composition.unit_of_work_factory,
                    lines,
                    lambda done, total: progress.update(task, completed=done, total=total),
                )
        finally:
            composition.close()
    for refusal in report.refusals:
        typer.echo(f"refused {refusal}", err=True)
    reasons = Counter(r.reason for r in report.refusals)
    summary = ", ".join(f"{reason} {count}" for reason, count in sorted(reasons.items()))
    late = f" ({report.late} late)" if report.late else ""
    typer.echo(
        f"appended {report.appended}{late}, already present {report.already_present}, "
        f"refused {report.refused}" + (f" ({summary})" if summary else "")
    )
    if report.refusals:
        raise typer.Exit(1)
