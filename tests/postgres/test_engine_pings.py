"""The store engine pings a pooled connection only after it idled: a connection whose server process went
away while it sat in the pool is replaced before a unit of work uses it, and one in steady use is handed
out without a round trip of its own."""

import time
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import OperationalError

from adapters.postgres.engine import create_store_engine, sqlalchemy_url

IDLE_S = 0.3


@pytest.fixture
def database(create_database: Callable[[], str]) -> Iterator[tuple[str, Engine]]:
    url = create_database()
    admin = create_engine(sqlalchemy_url(url))
    yield url, admin
    admin.dispose()


def _pooled_pid(engine: Engine) -> int:
    with engine.connect() as connection:
        return int(connection.execute(text("SELECT pg_backend_pid()")).scalar_one())


def _terminate(admin: Engine, pid: int) -> None:
    with admin.connect() as connection:
        assert connection.execute(text("SELECT pg_terminate_backend(:pid, 5000)"), {"pid": pid}).scalar_one()


def test_a_connection_that_idled_is_pinged_and_replaced_when_its_server_process_is_gone(
    database: tuple[str, Engine],
) -> None:
    url, admin = database
    engine = create_store_engine(url, pool_size=1, ping_after_idle_s=IDLE_S)
    try:
        gone = _pooled_pid(engine)
        _terminate(admin, gone)
        time.sleep(IDLE_S * 2)
        # The unit of work after the outage runs whole, on a new connection.
        assert _pooled_pid(engine) != gone
    finally:
        engine.dispose()


def test_a_connection_in_steady_use_is_not_pinged(database: tuple[str, Engine]) -> None:
    url, admin = database
    engine = create_store_engine(url, pool_size=1, ping_after_idle_s=60.0)
    try:
        gone = _pooled_pid(engine)
        _terminate(admin, gone)
        # No ping on checkout: the first statement meets the closed connection, as a disconnect ...
        with pytest.raises(OperationalError) as failed, engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        assert failed.value.connection_invalidated
        # ... which drops the pool's connections: the next unit of work runs on a new one.
        assert _pooled_pid(engine) != gone
    finally:
        engine.dispose()
