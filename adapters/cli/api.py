"""`agent api` and `agent mcp`: serve the agent-facing HTTP API and MCP server on DATABASE_URL and
TEMPORAL_ADDRESS, scoped by the bearer tokens of API_TOKENS_FILE (adapters.api.auth)."""

import os
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Final

import typer

from adapters.cli.db import database_composition

if TYPE_CHECKING:
    from fastapi import FastAPI

# How `agent api --embedded` reaches the worker processes uvicorn starts (each builds its own app).
EMBEDDED_ENV: Final = "AGENT_API_EMBEDDED"

api_app = typer.Typer(help="Serve the agent-facing HTTP API (/v1).", invoke_without_command=True)
mcp_app = typer.Typer(help="Serve the MCP server for one token's principal.", invoke_without_command=True)

Embedded = Annotated[
    bool,
    typer.Option("--embedded", help="Use the embedded PostgreSQL in the dev data dir, not DATABASE_URL."),
]


class Transport(StrEnum):
    STDIO = "stdio"
    HTTP = "http"


@api_app.callback()
def api(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8080,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            help="Server processes, each with its own pooled database engine (default: one per CPU core).",
        ),
    ] = os.cpu_count() or 1,
    embedded: Embedded = False,
) -> None:
    """Serve /v1, /healthz, /readyz and the OpenAPI document (/openapi.json, /docs) until interrupted."""
    import uvicorn

    # Checked here, once, so a missing DATABASE_URL is one clear error rather than one per worker.
    database_composition(embedded).close()
    os.environ[EMBEDDED_ENV] = "1" if embedded else ""
    # No access log: paths name belief ids, and a log line is no place for a user's anything.
    uvicorn.run(
        "adapters.cli.api:serve_app", factory=True, host=host, port=port, workers=workers, access_log=False
    )


def serve_app() -> "FastAPI":
    """The app one server process serves: recall is CPU-bound Python, so concurrent recalls use every core
    only as separate processes, each with its own composition (and pooled engine), closed at shutdown."""
    from adapters.api.http import create_app

    composition = database_composition(os.environ.get(EMBEDDED_ENV) == "1")
    app = create_app(
        composition.agent_surface,
        composition.token_registry,
        {"database": composition.database_ready, "temporal": composition.temporal_ready},
    )
    app.router.on_shutdown.append(composition.close)
    return app


@mcp_app.callback()
def mcp(
    transport: Annotated[Transport, typer.Option(help="stdio, or streamable HTTP.")] = Transport.STDIO,
    host: Annotated[str, typer.Option(help="Address to listen on (http).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on (http).")] = 8081,
    embedded: Embedded = False,
) -> None:
    """Serve the memory tools as the principal MCP_TOKEN maps to in API_TOKENS_FILE."""
    from adapters.api.mcp import build_mcp_server

    composition = database_composition(embedded)
    token = composition.settings.mcp_token
    scope = composition.token_registry.scope(token.get_secret_value()) if token else None
    if scope is None:
        typer.echo("MCP_TOKEN is unset or not a token in API_TOKENS_FILE", err=True)
        raise typer.Exit(2)
    server = build_mcp_server(composition.agent_surface, scope)
    try:
        if transport is Transport.STDIO:
            server.run("stdio")
        else:
            server.run("streamable-http", host=host, port=port)
    finally:
        composition.close()
