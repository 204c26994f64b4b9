"""`agent repass`: find stuck or exhausted re-passes and retry one."""

import asyncio
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from adapters.settings import Settings
from domain.policy.repass import RepassState

repass_app = typer.Typer(
    help="Inspect and retry provider re-passes (RepassWorkflow). Uses TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE.",
    no_args_is_help=True,
)


@repass_app.command("list")
def list_command(
    state: Annotated[
        RepassState | None,
        typer.Option(help="Only re-passes in this RepassState (exhausted: every attempt failed)."),
    ] = None,
    limit: Annotated[int, typer.Option(min=1, max=10_000, help="At most this many rows.")] = 100,
) -> None:
    """List re-pass workflows with their Temporal status and RepassState."""
    from adapters.temporal.client import connect
    from adapters.temporal.connection import connect_config
    from adapters.temporal.repass import list_repasses

    settings = Settings()

    async def run() -> None:
        client = await connect(connect_config(settings))
        rows = await list_repasses(client, state, limit)
        table = Table("workflow id", "status", "RepassState")
        for row in rows:
            table.add_row(row.workflow_id, row.status, row.state or "-")
        Console().print(table)

    asyncio.run(run())


@repass_app.command()
def retry(workflow_id: Annotated[str, typer.Argument(help="The re-pass workflow id (repass/...).")]) -> None:
    """Run an exhausted or abandoned re-pass again, from its recorded range, with a fresh attempt budget."""
    from adapters.temporal.client import connect
    from adapters.temporal.connection import connect_config
    from adapters.temporal.repass import RepassNotRetryable, retry_repass

    settings = Settings()

    async def run() -> str:
        client = await connect(connect_config(settings))
        return await retry_repass(client, workflow_id, settings.temporal_task_queue)

    try:
        run_id = asyncio.run(run())
    except RepassNotRetryable as refused:
        typer.echo(str(refused), err=True)
        raise typer.Exit(code=1) from None
    typer.echo(f"re-pass {workflow_id} started again (run {run_id})")
