"""Alembic environment: runs against the connection handed over in code, or DATABASE_URL for plain alembic."""

import os
from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection, create_engine, pool

from adapters.postgres.tables import metadata

config = context.config

# Only the plain `alembic` command configures logging; `agent db` and tests keep their own logging.
if config.config_file_name is not None and not config.attributes.get("connection"):
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        # One transaction per revision, so the data revision can commit its pages on its own.
        transaction_per_migration=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url") or os.environ["DATABASE_URL"],
        target_metadata=metadata,
        literal_binds=True,
        transaction_per_migration=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    handed_over: Connection | None = config.attributes.get("connection")
    if handed_over is not None:
        _run(handed_over)
        return
    url = config.get_main_option("sqlalchemy.url") or os.environ.get("DATABASE_URL")
    if not url:
        raise SystemExit("DATABASE_URL is not set")
    # hide_parameters: a failed backfill statement must not print the rows' content it was bound with.
    engine = create_engine(url, poolclass=pool.NullPool, hide_parameters=True)
    try:
        with engine.connect() as connection:
            _run(connection)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
