"""`agent session idle|quarantined|release`: report a session idle, which consolidates it
(signal-with-start); list sessions held before a poisoned segment, and release one."""

import asyncio
from datetime import timedelta
from typing import TYPE_CHECKING, Annotated, Final
from uuid import UUID

import typer
from rich.console import Console
from rich.table import Table

from adapters.cli.options import Principal, Tenant
from adapters.settings import Settings
from domain.messages import MAX_CLIENT_SESSION_CHARS, session_uuid
from domain.owner import Owner

if TYPE_CHECKING:
    from rich.status import Status

    from activities.contracts import Quarantine
    from adapters.temporal.client import SessionHandle
    from workflows.session_contracts import ConsolidationProgress, RoundResult

session_app = typer.Typer(help="Trigger and follow session consolidations.", no_args_is_help=True)

ClientSession = Annotated[
    str,
    typer.Option(
        "--session",
        help="Session id, as the agent sent it to the API (a UUID is used as given; any other string names "
        "the same stored session the API and MCP map it to for this tenant and principal).",
    ),
]


# How long a progress query may go unanswered before the status line says no worker answered (the server's
# own limit is 30 s).
QUERY_PATIENCE: Final = timedelta(seconds=5)


def stored_session(tenant: str, principal: str, session: str) -> UUID:
    """The stored session a client's session id names for the owner, as the HTTP API and MCP resolve it."""
    try:
        return session_uuid(Owner(tenant_id=tenant, principal_id=principal), session)
    except ValueError:
        raise typer.BadParameter(
            f"session_id_invalid: a UUID, or 1-{MAX_CLIENT_SESSION_CHARS} characters without control characters",
            param_hint="'--session'",
        ) from None


@session_app.command("idle")
def idle(
    tenant: Tenant,
    principal: Principal,
    session: ClientSession,
    wait: Annotated[
        bool,
        typer.Option("--wait/--no-wait", help="Wait for the consolidation to finish and print its outcome."),
    ] = False,
) -> None:
    """Signal-with-start the session's consolidation; idles during a running round coalesce into one more."""
    from adapters.observability.tracing import configure_tracing, tracing_interceptors
    from adapters.temporal.client import connect, session_idle
    from adapters.temporal.connection import connect_config

    stored = stored_session(tenant, principal, session)
    settings = Settings()
    console = Console(stderr=True, highlight=False)
    # The consolidation's trace starts here when tracing is on (flushed by the provider's exit handler).
    tracer_provider = configure_tracing(settings, "agent-cli")

    sent: list[str] = []  # the workflow the idle reached, once it did

    async def run() -> None:
        client = await connect(connect_config(settings), interceptors=tracing_interceptors(tracer_provider))
        handle = await session_idle(
            client, tenant, principal, stored, task_queue=settings.temporal_task_queue
        )
        sent.append(handle.id)
        typer.echo(f"idle sent to {handle.id}")
        if wait:
            with console.status("consolidating…") as status:
                shown = asyncio.create_task(show_progress(handle, status, settings.temporal_task_queue))
                try:
                    summary = await handle.result()
                finally:
                    shown.cancel()
            last = summary.last_round
            if last is None:
                typer.echo(f"{summary.rounds} round(s), nothing to do")
            else:
                typer.echo(
                    f"{summary.rounds} round(s); last: {last.outcome.value}, {round_events(last)}, "
                    f"{last.segment_count} segment(s)"
                )

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        # Ctrl-C stops this process's wait, not the durable workflow: say so, or it reads as cancelled.
        if sent:
            typer.echo(f"agent: stopped waiting; {sent[0]} goes on", err=True)
        raise typer.Exit(130) from None


async def show_progress(handle: "SessionHandle", status: "Status", task_queue: str) -> None:
    """Show the consolidation's progress query on the status line, about once a second, until cancelled."""
    from temporalio.client import WorkflowQueryFailedError
    from temporalio.service import RPCError

    from workflows.consolidate_session import ConsolidateSessionWorkflow

    while True:
        await asyncio.sleep(1)
        try:
            progress = await handle.query(ConsolidateSessionWorkflow.progress, rpc_timeout=QUERY_PATIENCE)
        except WorkflowQueryFailedError:
            return  # a worker from before the query: the spinner alone stays
        except RPCError:
            # Not answered in time: no worker polls the queue (or every one is busy). Say where one should be.
            status.update(f"consolidating… waiting for a worker on task queue {task_queue}")
            continue
        status.update(progress_line(progress))


def progress_line(progress: "ConsolidationProgress") -> str:
    running = f"consolidating… round {progress.rounds + 1}"
    if progress.segments_planned is None:
        return running
    return f"{running}: {progress.segments_committed} of {progress.segments_planned} segment(s) committed"


@session_app.command("quarantined")
def quarantined(
    limit: Annotated[int, typer.Option(min=1, max=10_000, help="At most this many rows.")] = 100,
) -> None:
    """List sessions held before a segment that fails deterministically (ConsolidationOutcome=poisoned)."""
    from adapters.temporal.client import connect
    from adapters.temporal.connection import connect_config
    from adapters.temporal.quarantine import list_quarantined

    settings = Settings()

    async def run() -> None:
        client = await connect(connect_config(settings))
        table = Table("workflow id", "consolidated to", "held range", "activity", "error class")
        for row in await list_quarantined(client, limit):
            held = row.quarantine
            if held is None:
                table.add_row(row.workflow_id, "-", "released", "-", "-")
                continue
            table.add_row(
                row.workflow_id,
                str(held.watermark),
                _held_range(held),
                held.poison.activity,
                held.poison.failure_type,
            )
        Console().print(table)

    asyncio.run(run())


@session_app.command("release")
def release(
    tenant: Tenant,
    principal: Principal,
    session: ClientSession,
    skip: Annotated[
        bool,
        typer.Option(
            "--skip/--retry",
            help="--retry (default): consolidate the held range again (after a fix). --skip: move the "
            "watermark past it (audited; its events are never consolidated) so later events go on.",
        ),
    ] = False,
) -> None:
    """Release a quarantined session: its held range is retried or skipped, then later events consolidate."""
    from adapters.temporal.client import connect
    from adapters.temporal.connection import connect_config
    from adapters.temporal.quarantine import NotQuarantined, release_session

    stored = stored_session(tenant, principal, session)
    settings = Settings()

    async def run() -> None:
        client = await connect(connect_config(settings))
        held = await release_session(client, tenant, principal, stored, skip=skip)
        typer.echo(f"{'skipping' if skip else 'retrying'} events {_held_range(held)}")

    try:
        asyncio.run(run())
    except NotQuarantined as refused:
        typer.echo(str(refused), err=True)
        raise typer.Exit(code=1) from None


def _held_range(held: "Quarantine") -> str:
    """The sequence range a quarantine holds; its end is unplanned until the poisoned segment is planned."""
    end = "unplanned" if held.last_seq is None else str(held.last_seq)
    return f"{held.watermark + 1}-{end}"


def round_events(last: "RoundResult") -> str:
    """What a round consolidated, named correctly when it took only late events (below its start): the
    range above the watermark when it moved, then the late ranges."""
    named = [f"events {last.from_seq + 1}-{last.to_seq}"] if last.to_seq > last.from_seq else []
    named += [f"late event{'s' if a != b else ''} {a}{'' if a == b else f'-{b}'}" for a, b in last.late]
    return ", ".join(named) or "no events"
