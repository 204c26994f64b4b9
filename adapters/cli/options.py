"""Options shared by `agent` commands: the owner they name (refused at parse time with a reason code) and
the database they open (one rule everywhere: --embedded, else DATABASE_URL, else a one-line refusal)."""

from typing import Annotated

import typer
from pydantic import TypeAdapter, ValidationError

from domain.owner import BoundedId

_BOUNDED_ID: TypeAdapter[str] = TypeAdapter(Annotated[str, BoundedId])


def bounded_id(value: str) -> str:
    """The id if the domain accepts it; else a usage error naming the reason code, not the value."""
    try:
        return _BOUNDED_ID.validate_python(value)
    except ValidationError as invalid:
        reason = invalid.errors(include_input=False, include_url=False)[0]["type"]
        raise typer.BadParameter(
            f"{reason}: 1-128 characters of A-Z a-z 0-9 . _ : @ -, starting with a letter or digit"
        ) from None


def refuse_port_in_use(host: str, port: int, option: str) -> None:
    """One line and exit 2 when something already listens on host:port: checked before a server command
    starts anything, since the server's own bind error would come after it opened the database (or started
    PostgreSQL and Temporal) and exit with a code of its own."""
    from adapters.embedded.temporal import port_is_free

    if not port_is_free(port, host):
        typer.echo(f"agent: port {port} on {host} is in use; pick another with {option}", err=True)
        raise typer.Exit(2)


def command_app(help: str) -> typer.Typer:
    """A command of options alone (dev, worker, api, mcp), kept a Typer app of its own so its module owns it:
    its usage names no COMMAND, since it has none."""
    return typer.Typer(help=help, invoke_without_command=True, subcommand_metavar="")


Tenant = Annotated[str, typer.Option("--tenant", help="Tenant id.", callback=bounded_id)]
Principal = Annotated[str, typer.Option("--principal", help="Principal (user) id.", callback=bounded_id)]

Embedded = Annotated[
    bool,
    typer.Option(
        "--embedded",
        help="Use the embedded PostgreSQL in the dev data dir (DEV_DATA_DIR, default .dev/) "
        "instead of DATABASE_URL.",
    ),
]
