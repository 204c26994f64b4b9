"""`agent api` and `agent mcp`: serve the agent-facing HTTP API and MCP server on DATABASE_URL and
TEMPORAL_ADDRESS, scoped by bearer keys: those `agent keys issue` stores and API_TOKENS_FILE's (adapters.api.auth)."""

from enum import StrEnum
from typing import Annotated

import typer

from adapters.cli.db import database_composition
from domain.keys import KeyRefused

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
    embedded: Embedded = False,
) -> None:
    """Serve /v1, /healthz, /readyz and the OpenAPI document (/openapi.json, /docs) until interrupted."""
    import uvicorn

    from adapters.api.http import create_app

    composition = database_composition(embedded)
    if not composition.authenticator.configured():
        composition.close()
        typer.echo(
            "no API key configured: issue one with `agent keys issue` or set API_TOKENS_FILE", err=True
        )
        raise typer.Exit(2)
    app = create_app(
        composition.agent_surface,
        composition.authenticator,
        {"database": composition.database_ready, "temporal": composition.temporal_ready},
    )
    try:
        # No access log: paths name belief ids, and a log line is no place for a user's anything.
        uvicorn.run(app, host=host, port=port, access_log=False)
    finally:
        composition.close()


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
    try:
        scope = composition.authenticator.resolve(token.get_secret_value() if token else None)
    except KeyRefused:
        typer.echo(
            "MCP_TOKEN is unset, not a personal key, or not a key of API_TOKENS_FILE or the store", err=True
        )
        raise typer.Exit(2) from None
    server = build_mcp_server(composition.agent_surface, scope)
    try:
        if transport is Transport.STDIO:
            server.run("stdio")
        else:
            server.run("streamable-http", host=host, port=port)
    finally:
        composition.close()
