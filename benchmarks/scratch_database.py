"""A database of a benchmark's own on a PostgreSQL server, created empty and dropped on the way out."""

import os
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine

from adapters.postgres import schema
from adapters.postgres.engine import sqlalchemy_url, with_database


def _admin(server_url: str, statement: str, *, template: str | None = None) -> None:
    """One statement outside a transaction (CREATE and DROP DATABASE refuse to run inside one), on an
    engine that holds no connection once it is done. With a template, the statement creates a copy of it."""
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            if template is not None:
                version = int(connection.exec_driver_sql("SHOW server_version_num").scalar_one())
                # FILE_COPY (15+) copies the files and checkpoints, instead of WAL-logging every page.
                statement += f' TEMPLATE "{template}"' + (
                    " STRATEGY = FILE_COPY" if version >= 150000 else ""
                )
            connection.exec_driver_sql(statement)
    finally:
        admin.dispose()


@contextmanager
def scratch_database(server_url: str, prefix: str, *, template: str | None = None) -> Iterator[str]:
    """The URL of a new database named `prefix` and a random suffix, empty or a copy of `template` (which
    must have no open connection); dropped, with any connection still open on it, when the block ends."""
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    _admin(server_url, f'CREATE DATABASE "{name}"', template=template)
    try:
        yield with_database(server_url, name)
    finally:
        drop_database(server_url, name)


def benchmark_server(prefix: str) -> str:
    """The server a benchmark runs on: DATABASE_URL's, else an embedded one in a new temporary directory."""
    if configured := os.environ.get("DATABASE_URL"):
        return sqlalchemy_url(configured)
    from adapters.embedded.postgres import start_embedded_postgres

    return start_embedded_postgres(Path(tempfile.mkdtemp(prefix=f"{prefix}-pg-")))


@contextmanager
def migrated_scratch(prefix: str, *, pool_size: int = 5) -> Iterator[Engine]:
    """An engine on a scratch database of benchmark_server(prefix), migrated to head; disposed and dropped
    when the block ends."""
    with scratch_database(benchmark_server(prefix), prefix) as url:
        engine = create_engine(url, pool_size=pool_size)
        try:
            schema.upgrade(engine, "head")
            yield engine
        finally:
            engine.dispose()


def kept_database(server_url: str, name: str) -> tuple[str, bool]:
    """The URL of database `name`, created empty when absent and never dropped here (a store a benchmark
    builds once and measures again), and whether it was there already."""
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            there = connection.exec_driver_sql(
                "SELECT 1 FROM pg_database WHERE datname = %(name)s", {"name": name}
            ).first()
    finally:
        admin.dispose()
    if there is None:
        _admin(server_url, f'CREATE DATABASE "{name}"')
    return with_database(server_url, name), there is not None


def drop_database(server_url: str, name: str) -> None:
    """Drops database `name` if it is there, with any connection still open on it."""
    _admin(server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
