"""`agent api` and `agent mcp`: serve the agent-facing HTTP API (with its Prometheus metrics) and the MCP
server on DATABASE_URL (or --embedded) and TEMPORAL_ADDRESS, scoped by bearer keys: those `agent keys issue`
stores and API_TOKENS_FILE's (adapters.api.auth). Neither starts with no key to accept."""

import contextlib
import functools
import json
import os
import secrets
import signal
import tempfile
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Final

import typer

from adapters.cli.db import database_composition
from adapters.cli.options import Embedded, command_app, refuse_port_in_use
from adapters.composition import Composition

if TYPE_CHECKING:
    from fastapi import FastAPI

# How `agent api`'s options reach the worker processes uvicorn starts (each builds its own app).
EMBEDDED_ENV: Final = "AGENT_API_EMBEDDED"
SERVE_ENV: Final = "AGENT_API_SERVE"
# Settings.memory_page_secret's variable: unset, `agent api` sets one for its workers.
PAGE_SECRET_ENV: Final = "MEMORY_PAGE_SECRET"
WORKER_HEALTHCHECK_SECONDS: Final = 30

api_app = command_app("Serve the agent-facing HTTP API (/v1).")
mcp_app = command_app("Serve the MCP server (stdio for one key, or streamable HTTP for bearer keys).")


def keyed_composition(embedded: bool) -> Composition:
    """The composition of a server that authenticates by key: refused, in one line, with no key to accept."""
    composition = database_composition(embedded)
    if not composition.authenticator.configured():
        composition.close()
        typer.echo(
            "no API key configured: issue one with `agent keys issue` or set API_TOKENS_FILE", err=True
        )
        raise typer.Exit(2)
    return composition


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
    metrics_port: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=65535,
            help="Serve Prometheus /metrics on this port (on --host); default API_METRICS_PORT. With "
            "several workers, one endpoint sums them all (recorded in PROMETHEUS_MULTIPROC_DIR, or a "
            "temporary directory).",
        ),
    ] = None,
    embedded: Embedded = False,
) -> None:
    """Serve /v1, /healthz, /readyz, the OpenAPI document (/openapi.json, /docs) and the memory page
    (/memory) until interrupted."""
    import uvicorn

    refuse_port_in_use(host, port, "--port")
    if embedded:
        # uvicorn re-raises the SIGTERM it stopped on once it has shut down; by default that ends the process
        # without its exit handlers, and one of them stops the embedded PostgreSQL this process started.
        signal.signal(signal.SIGTERM, _exit_on_sigterm)
    # Checked here, once, so a missing database or key is one clear error rather than one per worker.
    composition = keyed_composition(embedded)
    settings = composition.settings
    composition.close()
    os.environ[EMBEDDED_ENV] = "1" if embedded else ""
    # The workers seal the memory page's sessions alike, so a sign-in holds whichever worker serves next.
    configured = settings.memory_page_secret
    os.environ[PAGE_SECRET_ENV] = configured.get_secret_value() if configured else secrets.token_urlsafe(32)
    metrics_at = metrics_port or settings.api_metrics_port
    with contextlib.ExitStack() as stack:
        if metrics_at and workers > 1:
            stack.enter_context(_workers_metrics(host, metrics_at))
            metrics_at = None  # the workers record, this process serves
        os.environ[SERVE_ENV] = json.dumps({"host": host, "metrics_port": metrics_at})
        # No access log: paths name belief ids, and a log line is no place for a user's anything. A worker
        # busy past uvicorn's 5 s health check (start-up imports on loaded cores) would be killed and
        # restarted, its requests lost: it is given WORKER_HEALTHCHECK_SECONDS.
        uvicorn.run(
            "adapters.cli.api:serve_app",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            access_log=False,
            timeout_worker_healthcheck=WORKER_HEALTHCHECK_SECONDS,
        )


def _exit_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


@contextlib.contextmanager
def _workers_metrics(host: str, port: int) -> Iterator[None]:
    """The workers' one /metrics: they record into PROMETHEUS_MULTIPROC_DIR (a temporary directory when it
    is unset), emptied first so a previous run's counts do not carry over; this process serves the sum."""
    from adapters.observability.api_metrics import MULTIPROC_ENV, serve_workers

    with contextlib.ExitStack() as stack:
        given = os.environ.get(MULTIPROC_ENV)
        directory = Path(given) if given else Path(stack.enter_context(tempfile.TemporaryDirectory()))
        directory.mkdir(parents=True, exist_ok=True)
        for stale in directory.glob("*.db"):
            stale.unlink()
        os.environ[MULTIPROC_ENV] = str(directory)
        server = serve_workers(host, port, directory)
        try:
            yield
        finally:
            server.shutdown()
            server.server_close()


def serve_app() -> "FastAPI":
    """The app one server process serves: recall is CPU-bound Python, so concurrent recalls use every core
    only as separate processes, each with its own composition (and pooled engine), closed at shutdown."""
    from adapters.api.http import create_app
    from adapters.observability.api_metrics import ApiMetrics, RequestMetrics

    served = json.loads(os.environ.get(SERVE_ENV) or "{}")
    composition = keyed_composition(os.environ.get(EMBEDDED_ENV) == "1")
    app = create_app(
        composition.agent_surface,
        composition.authenticator,
        {"database": composition.database_ready, "temporal": composition.temporal_ready},
        composition.alternatives.evidence,
        page_secret.get_secret_value() if (page_secret := composition.settings.memory_page_secret) else None,
    )
    metrics = ApiMetrics()
    app.add_middleware(RequestMetrics, metrics=metrics)
    if served_at := served.get("metrics_port"):
        metrics.serve(served.get("host", "127.0.0.1"), served_at)
    app.router.on_startup.append(functools.partial(_size_threadpool, composition.settings.database_pool_size))
    app.router.on_startup.append(_read_recall_tables)
    app.router.on_shutdown.append(composition.close)
    return app


async def _read_recall_tables() -> None:
    """Read the tables a recall's words use (WordNet's relatives, the lemmatizer's and the spelling
    dictionaries) before the worker accepts a connection: read on a worker's first recall instead, they
    held it and every request queued behind it for over a second, several under concurrent load."""
    from domain.beliefs.relevance import query_terms, searched_terms, specificity

    terms = query_terms("wat hobbies does my sister have?")
    searched_terms(terms)
    specificity(terms, [])


async def _size_threadpool(threads: int) -> None:
    """As many request threads as pooled connections: a thread more would wait for a connection, or open
    and close one of the pool's overflow on every request, and add to the threads contending for the
    interpreter lock; a request waiting for a thread waits on the event loop instead, at no cost."""
    import anyio.to_thread

    anyio.to_thread.current_default_thread_limiter().total_tokens = threads


@mcp_app.callback()
def mcp(
    transport: Annotated[Transport, typer.Option(help="stdio, or streamable HTTP.")] = Transport.STDIO,
    host: Annotated[str, typer.Option(help="Address to listen on (http).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on (http).")] = 8081,
    embedded: Embedded = False,
) -> None:
    """Serve the memory tools: over stdio as the key MCP_TOKEN names; over streamable HTTP (at /mcp) as the
    bearer key of each request, refusing a request without one (401)."""
    from adapters.api.mcp import http_server, key_is_valid, key_resolver, stdio_server

    if transport is Transport.HTTP:
        refuse_port_in_use(host, port, "--port")
    composition = keyed_composition(embedded)
    resolve = key_resolver(composition.authenticator)
    try:
        if transport is Transport.STDIO:
            token = composition.settings.mcp_token
            if token is None or not key_is_valid(resolve, token.get_secret_value()):
                typer.echo("MCP_TOKEN is unset or not a known key", err=True)
                raise typer.Exit(2)
            stdio_server(composition.agent_surface, resolve, token.get_secret_value()).run("stdio")
        else:
            server = http_server(composition.agent_surface, resolve, f"http://{host}:{port}")
            server.run("streamable-http", host=host, port=port)
    finally:
        composition.close()
