"""The `agent` command: operators' and developers' entry point."""

import typer

from adapters.cli.api import api_app, mcp_app
from adapters.cli.db import db_app
from adapters.cli.dev import dev_app
from adapters.cli.events import events_app
from adapters.cli.memory import memory_app
from adapters.cli.recall import schedule_app  # also adds list, show and cite to memory_app
from adapters.cli.repass import repass_app
from adapters.cli.session import session_app
from adapters.cli.worker import worker_app

app = typer.Typer(help="Durable memory consolidation for personal AI agents.", no_args_is_help=True)
app.add_typer(memory_app, name="memory")
app.add_typer(db_app, name="db")
app.add_typer(repass_app, name="repass")
app.add_typer(schedule_app, name="schedule")
app.add_typer(worker_app, name="worker")
app.add_typer(session_app, name="session")
app.add_typer(events_app, name="events")
app.add_typer(dev_app, name="dev")
app.add_typer(api_app, name="api")
app.add_typer(mcp_app, name="mcp")
