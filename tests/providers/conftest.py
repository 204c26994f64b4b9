"""A fresh wire server per test, so one test's script never answers another's request."""

from collections.abc import Iterator

import pytest

from tests.providers.wire_server import WireServer


@pytest.fixture
def wire() -> Iterator[WireServer]:
    server = WireServer().start()
    try:
        yield server
    finally:
        server.stop()
