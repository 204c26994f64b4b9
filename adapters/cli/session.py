"""`agent session idle`: report a session idle, which consolidates it (signal-with-start)."""

import asyncio
from typing import Annotated
from uuid import UUID

import typer
from rich.console import Console

from adapters.cli.options import Principal, Tenant
from adapters.settings import Settings

session_app = typer.Typer(help="Trigger and follow session consolidations.", no_args_is_help=True)


@session_app.command("idle")
def idle(
    tenant: Tenant,
    principal: Principal,
    session: Annotated[UUID, typer.Option("--session", help="Session id (a UUID).")],
    wait: Annotated[
        bool,
        typer.Option("--wait/--no-wait", help="Wait for the consolidation to finish and print its outcome."),
    ] = False,
) -> None:
    """Signal-with-start the session's consolidation; idles during a running round coalesce into one more."""
    from adapters.observability.tracing import configure_tracing, tracing_interceptors
    from adapters.temporal.client import connect, session_idle
    from adapters.temporal.connection import connect_config

    settings = Settings()
    console = Console(stderr=True, highlight=False)
    # The consolidation's trace starts here when tracing is on (flushed by the provider's exit handler).
    tracer_provider = configure_tracing(settings, "agent-cli")

    async def run() -> None:
        client = await connect(connect_config(settings), interceptors=tracing_interceptors(tracer_provider))
        handle = await session_idle(
            client, tenant, principal, session, task_queue=settings.temporal_task_queue
        )
        typer.echo(f"idle sent to {handle.id}")
        if wait:
            with console.status("consolidating…"):
                summary = await handle.result()
            last = summary.last_round
            if last is None:
                typer.echo(f"{summary.rounds} round(s), nothing to do")
            else:
                typer.echo(
                    f"{summary.rounds} round(s); last: {last.outcome.value}, events {last.from_seq + 1}-"
                    f"{last.to_seq}, {last.segment_count} segment(s)"
                )

    asyncio.run(run())
