"""One `agent dev` per data directory. Two would run two Temporal servers on one SQLite file and two
PostgreSQL supervisors on one cluster, and the second would revoke the first's development key: the second is
refused before it starts anything.

The guard is an OS lock (flock) on a file in the data directory, held by an open descriptor for the process's
life: the kernel releases it when the process exits, however it exits, so a crash never leaves a stale lock.
"""

import fcntl
import os
from pathlib import Path
from types import TracebackType
from typing import Final, Self

LOCK_FILE: Final = "agent-dev.lock"


class DataDirInUse(RuntimeError):
    def __init__(self, data_dir: Path, holder: str) -> None:
        by = f" by process {holder}" if holder.isdigit() else ""
        super().__init__(
            f"the data dir {data_dir} is in use{by} (another `agent dev`): stop it, or pass another --data-dir"
        )


class DataDirLock:
    """Held from construction until exit or close; DataDirInUse when another process holds it."""

    def __init__(self, data_dir: Path) -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        # os.open's descriptor is not inherited: the servers this process starts never hold the lock.
        self._fd: int | None = os.open(data_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(self._fd, 32, 0).decode("ascii", "replace").strip()
            self.close()
            raise DataDirInUse(data_dir.resolve(), holder) from None
        # The holder's pid, for the refusal's message only: the lock, not the file's content, decides.
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, f"{os.getpid()}\n".encode("ascii"), 0)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the lock
            self._fd = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
