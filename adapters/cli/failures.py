"""How an `agent` command fails when a service it needs is away: one line on stderr, an exit code.

Every command runs inside AgentGroup, so a database or Temporal server that does not answer ends any of
them the same way: a line saying what failed and what to do, and EX_UNAVAILABLE (69, sysexits.h), never
a traceback; so does a setting missing or malformed (no database chosen, a DATABASE_URL that is no URL). Driver messages are cut to their first line: SQLAlchemy renders the statement and its
parameters after it, and parameters can be a user's text.
"""

import sys
from typing import Any, Final, NoReturn

import typer
from pydantic import ValidationError
from typer.core import TyperGroup

from adapters.settings import ConfigurationError, Settings
from domain.errors import DomainError

EX_UNAVAILABLE: Final = 69
EXIT_REFUSED: Final = 1
EXIT_USAGE: Final = 2  # click's, for a bad option value
# The database is at a schema revision this release cannot work with (`agent worker`, `agent db`).
EXIT_WRONG_REVISION: Final = 3


class AgentGroup(TyperGroup):
    """The root command group: turns an unreachable service or a refusal into one line."""

    def invoke(self, ctx: Any) -> Any:  # typer vendors click; its Context type is private
        try:
            return super().invoke(ctx)
        except typer.BadParameter as refused:
            # A value the domain refuses (an id with a slash) is one line, like any other refusal.
            _fail(refused.format_message(), EXIT_USAGE)
        except ConfigurationError as misconfigured:
            _fail(str(misconfigured), EXIT_USAGE)
        except ValidationError as invalid:
            # An environment variable Settings refuses; any other validation error is a bug to show.
            if invalid.title != Settings.__name__:
                raise
            _fail(str(ConfigurationError.of(invalid)), EXIT_USAGE)
        except DomainError as refused:
            # Domain errors carry a reason code and never quote user content.
            _fail(f"refused ({refused.reason_code}): {_first_line(refused)}", EXIT_REFUSED)
        except Exception as failure:
            if (known := service_failure(failure)) is None:
                raise
            _fail(*known)


def service_failure(failure: BaseException) -> tuple[str, int] | None:
    """The line and exit code for a failure of a service the command called, or None for any other."""
    # Each check runs only if the command imported that library: most commands never import either.
    client = sys.modules.get("adapters.temporal.client")
    if client is not None and isinstance(failure, client.TemporalUnavailable):
        if failure.tls:
            return (
                f"{failure}: check that the server at TEMPORAL_ADDRESS runs and serves TLS (TEMPORAL_API_KEY "
                "or the profile's tls turns TLS on)",
                EX_UNAVAILABLE,
            )
        return (
            f"{failure}: start it (`agent dev` runs one) or set TEMPORAL_ADDRESS to a running server",
            EX_UNAVAILABLE,
        )
    service = sys.modules.get("temporalio.service")
    if service is not None and isinstance(failure, service.RPCError):
        if failure.status in (service.RPCStatusCode.UNAVAILABLE, service.RPCStatusCode.DEADLINE_EXCEEDED):
            return (
                f"Temporal did not answer ({failure.status.name}): check the server at TEMPORAL_ADDRESS "
                "and retry",
                EX_UNAVAILABLE,
            )
        return (
            f"Temporal refused the call ({failure.status.name}): {_first_line(failure)}; check "
            "TEMPORAL_NAMESPACE and the server's search attributes",
            EXIT_REFUSED,
        )
    database = sys.modules.get("sqlalchemy.exc")
    if database is not None and isinstance(failure, database.OperationalError | database.InterfaceError):
        return (
            f"the database failed ({_first_line(failure.orig or failure)}): check that PostgreSQL is "
            "running and DATABASE_URL points at it, then retry",
            EX_UNAVAILABLE,
        )
    return None


def _first_line(failure: BaseException) -> str:
    return (str(failure).strip().splitlines() or [type(failure).__name__])[0]


def _fail(line: str, code: int) -> NoReturn:
    typer.echo(f"agent: {line}", err=True)
    raise typer.Exit(code)
