"""The HTTP API served on an event loop that already runs (`agent dev`'s): its signals stay the caller's."""

import contextlib
from collections.abc import Iterator
from typing import Any

import uvicorn


class InLoopServer(uvicorn.Server):
    """uvicorn without its own signal handling: the caller stops it (should_exit) on its own Ctrl-C."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def in_loop_server(app: Any, host: str, port: int) -> InLoopServer:
    # No access log: paths name belief ids, and a log line is no place for a user's anything.
    return InLoopServer(
        uvicorn.Config(app, host=host, port=port, access_log=False, log_level="warning", lifespan="off")
    )
