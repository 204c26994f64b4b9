"""The `agent` command: operators' and developers' entry point.

A process that used a Temporal client ends with os._exit once the command is done, after the exit
handlers ran and the streams were flushed: the SDK's Rust core keeps threads that can call into Python
while CPython finalizes, which aborts (SIGABRT) or crashes (SIGSEGV) a process whose work already
succeeded (temporalio/sdk-python#300). Skipping finalization is what stays, and the outcome is the
command's own exit code. Only the installed program exits this way; in-process callers (tests) do not.
"""

import atexit
import logging
import os
import sys
from typing import Any, NoReturn

import typer

from adapters.cli.api import api_app, mcp_app
from adapters.cli.db import db_app
from adapters.cli.dev import dev_app
from adapters.cli.embed import embed as _embed  # noqa: F401  adds embed to memory_app
from adapters.cli.eval import eval_app
from adapters.cli.events import events_app
from adapters.cli.failures import AgentGroup
from adapters.cli.formation_tuple import formation_tuple_app as _formation_tuple  # noqa: F401  adds it to memory_app
from adapters.cli.keys import keys_app
from adapters.cli.memory import memory_app
from adapters.cli.policy import policy as _policy  # noqa: F401  adds policy to memory_app
from adapters.cli.recall import schedule_app  # also adds list, show and cite to memory_app
from adapters.cli.repass import repass_app
from adapters.cli.session import session_app
from adapters.cli.worker import worker_app


class AgentTyper(typer.Typer):
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except SystemExit as ended:
            if "temporalio.client" in sys.modules:
                exit_without_finalization(ended.code)
            raise


def exit_without_finalization(code: object) -> NoReturn:
    atexit._run_exitfuncs()  # what finalization would run first: embedded servers stop, logs flush
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code if isinstance(code, int) else 0 if code is None else 1)


app = AgentTyper(
    cls=AgentGroup, help="Durable memory consolidation for personal AI agents.", no_args_is_help=True
)
app.add_typer(memory_app, name="memory")
app.add_typer(db_app, name="db")
app.add_typer(repass_app, name="repass")
app.add_typer(schedule_app, name="schedule")
app.add_typer(worker_app, name="worker")
app.add_typer(session_app, name="session")
app.add_typer(events_app, name="events")
app.add_typer(dev_app, name="dev")
app.add_typer(eval_app, name="eval")
app.add_typer(api_app, name="api")
app.add_typer(mcp_app, name="mcp")
app.add_typer(keys_app, name="keys")

if __name__ == "__main__":
    app()
