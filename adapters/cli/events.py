"""`agent events import FILE.jsonl`: append source events, idempotently, refusing bad lines by reason code.

Every line is validated (domain.event_intake) before anything is written, so a bad line costs only
itself: the valid lines are stored, each refused line is reported by number, field and reason code
(an EventRefusalReason, pydantic's error type or event_conflict), never by content. Late events and
below_watermark refusals are adapters.event_append's, shared with the API.
"""

from collections import Counter
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Final

import typer
from rich.console import Console
from rich.progress import Progress

from adapters.cli.db import database_composition
from adapters.cli.options import Embedded
from adapters.event_append import ImportReport, append_numbered
from domain.event_intake import Refusal, parse_lines
from domain.events import SourceEvent
from domain.ports import UnitOfWorkFactory

events_app = typer.Typer(help="Append source events to the store.", no_args_is_help=True)

BATCH: Final = 500


def import_events(
    store: UnitOfWorkFactory,
    lines: Iterable[bytes | str],
    on_batch: Callable[[int, int], None] | None = None,
) -> ImportReport:
    """`on_batch(done, total)` after each committed batch: valid events handled so far, of all valid."""
    report = ImportReport()
    valid: list[tuple[int, SourceEvent]] = []
    # The server's clock at import: an event dated more than a day after it is refused.
    for item in parse_lines(lines, now=datetime.now(UTC)):
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


@events_app.command("import")
def import_command(
    file: Annotated[
        Path,
        typer.Argument(
            exists=True, dir_okay=False, readable=True, help="JSON Lines, one source event a line."
        ),
    ],
    embedded: Embedded = False,
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
