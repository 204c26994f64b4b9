"""Engines for the psycopg 3 dialect, whatever form of PostgreSQL URL an operator hands over."""

from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from adapters.settings import ConfigurationError

_EXPECTED = "postgresql://user:password@host:5432/database"


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


def create_store_engine(url: str, *, pool_size: int = 5) -> Engine:
    # pre_ping: a database restart costs one failed checkout, not a failed unit of work.
    # hide_parameters: a failed statement's bound values (statements, subjects, source text) stay out of the
    # exception message, which an activity failure carries into workflow history and worker logs.
    return create_engine(sqlalchemy_url(url), pool_size=pool_size, pool_pre_ping=True, hide_parameters=True)
