"""Fixtures of the unit tests: a guard that fails a test using the network."""

import socket
from collections.abc import Iterator
from typing import Any

import pytest


class NetworkUsed(AssertionError):
    pass


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Any socket made, or name looked up, fails the test."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise NetworkUsed(f"network used: {args[:2]}")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    yield
