"""Shared fixtures: the stores every contract test runs against."""

from collections.abc import Iterator

import pytest

from adapters.memory.store import InMemoryStore
from domain.ports import UnitOfWorkFactory

STORES = ["memory"]


@pytest.fixture(params=STORES)
def uow_factory(request: pytest.FixtureRequest) -> Iterator[UnitOfWorkFactory]:
    if request.param == "memory":
        yield InMemoryStore()
