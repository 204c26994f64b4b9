"""Liveness and readiness over HTTP: GET /livez and /readyz, 200 when every check passes, else 503.

A check is a named coroutine answering True or False; the body lists the checks by name with `ok` or
`failing`, never an exception's message (a driver message can quote a statement). A check that raises
or takes longer than `CHECK_TIMEOUT_S` is failing. Served on the process's own event loop with asyncio
streams, so it needs no web framework and answers only while that loop runs.
"""

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Final

log = logging.getLogger(__name__)

Check = Callable[[], Awaitable[bool]]
CHECK_TIMEOUT_S: Final = 5.0
LIVENESS_PATH: Final = "/livez"
READINESS_PATH: Final = "/readyz"


async def run_checks(checks: Mapping[str, Check]) -> dict[str, bool]:
    async def one(check: Check) -> bool:
        try:
            return await asyncio.wait_for(check(), CHECK_TIMEOUT_S)
        except Exception:  # any failure of the dependency is "not ready", whatever its kind
            return False

    outcomes = await asyncio.gather(*(one(check) for check in checks.values()))
    return dict(zip(checks, outcomes, strict=True))


@asynccontextmanager
async def health_endpoint(
    host: str, port: int, *, live: Mapping[str, Check], ready: Mapping[str, Check]
) -> AsyncIterator[int]:
    """Serve the probes while the block runs; yields the bound port (port 0 picks a free one)."""
    routes = {LIVENESS_PATH: live, READINESS_PATH: ready}

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request = await asyncio.wait_for(reader.readline(), CHECK_TIMEOUT_S)
            parts = request.decode("latin-1").split()
            checks = routes.get(parts[1]) if len(parts) >= 2 and parts[0] == "GET" else None
            if checks is None:
                status, body = "404 Not Found", b"{}"
            else:
                outcomes = await run_checks(checks)
                status = "200 OK" if all(outcomes.values()) else "503 Service Unavailable"
                body = json.dumps({name: "ok" if ok else "failing" for name, ok in outcomes.items()}).encode()
            writer.write(
                f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                "Connection: close\r\n\r\n".encode()
                + body
            )
            await writer.drain()
        except (TimeoutError, ConnectionError):
            pass  # a probe that hung up or never sent a request line
        finally:
            writer.close()

    server = await asyncio.start_server(answer, host, port)
    bound = server.sockets[0].getsockname()[1]
    log.info("health endpoint listening", extra={"port": bound})
    try:
        yield bound
    finally:
        server.close()
        await server.wait_closed()
