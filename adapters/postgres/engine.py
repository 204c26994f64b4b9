"""Engines for the psycopg 3 dialect, whatever form of PostgreSQL URL an operator hands over."""

import time
from typing import Any, Final

from sqlalchemy import Engine, create_engine, event, exc
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection

from adapters.settings import ConfigurationError

_EXPECTED = "postgresql://user:password@host:5432/database"
# A pooled connection returned longer ago than this is pinged before it is handed out again. A unit of work
# follows the one before it within milliseconds while a session is consolidated (seven a segment), and a
# database restart takes seconds: a hot connection is not pinged, one that sat through an outage is.
PING_AFTER_IDLE_S: Final = 1.0
_RETURNED_AT: Final = "returned_at"


def sqlalchemy_url(url: str) -> str:
    """postgres://, postgresql:// and postgresql+<driver>:// all become postgresql+psycopg://; anything
    else is a ConfigurationError that does not quote the URL."""
    try:
        parsed = make_url(
            url.replace("postgres://", "postgresql://", 1) if url.startswith("postgres://") else url
        )
    except (ArgumentError, ValueError):  # ValueError: a port that is not a number
        raise ConfigurationError(f"DATABASE_URL is not a database URL; expected {_EXPECTED}") from None
    if parsed.get_backend_name() != "postgresql":
        raise ConfigurationError(f"DATABASE_URL must name a PostgreSQL database; expected {_EXPECTED}")
    return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)


def with_database(url: str, database: str) -> str:
    return make_url(sqlalchemy_url(url)).set(database=database).render_as_string(hide_password=False)


def create_store_engine(
    url: str, *, pool_size: int = 5, ping_after_idle_s: float = PING_AFTER_IDLE_S
) -> Engine:
    # hide_parameters: a failed statement's bound values (statements, subjects, source text) stay out of the
    # exception message, which an activity failure carries into workflow history and worker logs.
    # lifo: the connections in use stay the same few, so the others idle and are pinged when next used.
    engine = create_engine(sqlalchemy_url(url), pool_size=pool_size, pool_use_lifo=True, hide_parameters=True)
    _ping_after_idle(engine, ping_after_idle_s)
    return engine


def _ping_after_idle(engine: Engine, idle_s: float) -> None:
    """SQLAlchemy's pool_pre_ping, only for a connection that idled in the pool longer than idle_s.

    A database restart then costs one failed checkout of an idle connection (the whole pool is invalidated,
    as pre_ping does), not a failed unit of work. The restart that falls within idle_s of a connection's last
    use (or between a ping and the statement after it, which pre_ping leaves open as well) fails that unit of
    work's first statement as a disconnect: SQLAlchemy invalidates the pool, nothing was committed, and the
    activity is retried."""

    @event.listens_for(engine, "checkin")
    def returned(dbapi_connection: Any, entry: ConnectionPoolEntry) -> None:
        entry.info[_RETURNED_AT] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def handed_out(dbapi_connection: Any, entry: ConnectionPoolEntry, proxy: PoolProxiedConnection) -> None:
        # A new connection (nothing recorded: info lives as long as the driver's connection) is not pinged.
        returned_at = entry.info.get(_RETURNED_AT)
        if returned_at is None or time.monotonic() - returned_at < idle_s:
            return
        dialect = engine.dialect
        try:
            dialect.do_ping(dbapi_connection)
        except dialect.loaded_dbapi.Error as error:
            if not dialect.is_disconnect(error, dbapi_connection, None):
                raise
            # The pool retries the checkout on a new connection, and drops every connection made before.
            raise exc.InvalidatePoolError() from error
