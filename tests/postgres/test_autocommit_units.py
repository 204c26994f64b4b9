"""An autocommit unit of work on PostgreSQL opens no transaction, and the pooled connection it ran on
runs the next ordinary unit of work as one transaction again."""

from collections.abc import Callable, Iterator

import pytest
from psycopg.pq import TransactionStatus
from sqlalchemy import Engine

from adapters.postgres.engine import create_store_engine
from adapters.postgres.schema import upgrade
from adapters.postgres.uow import PostgresStore, PostgresUnitOfWork
from domain.staging import StagedKind
from tests.builders import OWNER, staged_output


@pytest.fixture
def one_connection(create_database: Callable[[], str]) -> Iterator[Engine]:
    engine = create_store_engine(create_database(), pool_size=1)
    upgrade(engine, "head")
    yield engine
    engine.dispose()


def _status(uow: PostgresUnitOfWork) -> TransactionStatus:
    connection = uow._c.connection.driver_connection
    assert connection is not None
    return connection.info.transaction_status


def test_an_autocommit_unit_of_work_reads_and_writes_outside_a_transaction(one_connection: Engine) -> None:
    store = PostgresStore(one_connection)
    with store.autocommit() as uow:
        uow.staged.get_all(OWNER, "a" * 64)
        assert _status(uow) is TransactionStatus.IDLE
        uow.staged.put(staged_output(OWNER, "a" * 64, StagedKind.INTEGRATION, {"episodes": []}))
        assert _status(uow) is TransactionStatus.IDLE
    with store() as uow:
        uow.staged.get_all(OWNER, "a" * 64)
        assert _status(uow) is TransactionStatus.INTRANS


def test_the_connection_an_autocommit_unit_ran_on_runs_the_next_unit_as_one_transaction(
    one_connection: Engine,
) -> None:
    store = PostgresStore(one_connection)
    with store.autocommit() as uow:
        uow.staged.put(staged_output(OWNER, "b" * 64, StagedKind.INTEGRATION, {"episodes": []}))
    # The pool's one connection again: a write left uncommitted is discarded with its unit of work.
    with store() as uow:
        uow.staged.put(staged_output(OWNER, "c" * 64, StagedKind.INTEGRATION, {"episodes": []}))
    with store() as uow:
        assert uow.staged.get_all(OWNER, "b" * 64)
        assert uow.staged.get_all(OWNER, "c" * 64) == {}
