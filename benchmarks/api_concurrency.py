"""API concurrency benchmark: recall throughput of `agent api` under 20 concurrent connections, against what
the machine's cores allow (cores / CPU-seconds per recall), for one worker process and for --workers.

    .venv/bin/python -m benchmarks.api_concurrency                       # embedded PostgreSQL, 10k beliefs
    .venv/bin/python -m benchmarks.api_concurrency --requests 600 --workers 1 2
    .venv/bin/python -m benchmarks.api_concurrency --source ../baseline .   # two checkouts, one run
    DATABASE_URL=postgresql://... .venv/bin/python -m benchmarks.api_concurrency

A scratch database is migrated to head, seeded with the recall benchmark's beliefs (one principal holding
--beliefs of them among filler principals), every belief embedded and the HNSW index built. For each worker
count and each --source checkout, that checkout's `agent api --workers N` is started on a loopback port as
a real process. CPU-seconds per recall is the CPU the API processes and the PostgreSQL server (with the
children they have reaped) used over --sequential recalls made one at a time; throughput is --requests
recalls over 20 connections. While those run, the machine's busy CPU (/proc/stat) is split into the
servers', the load generator's and every other process's; the ceilings reported:

    ceiling            cores / CPU per recall (both servers have every core)
    ceiling_available  (cores - the load generator's and other processes' busy cores) / CPU per recall
    ceiling_given      the servers' busy cores / CPU per recall (1.0 of it: concurrency wasted no CPU)

Loopback only, a bounded number of requests; nothing leaves the machine.
"""

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx2

from adapters.api.auth import token_digest
from adapters.embeddings.wordllama_embedder import WordLlamaEmbedder
from adapters.postgres import schema
from adapters.postgres.engine import create_store_engine, sqlalchemy_url
from benchmarks.recall_benchmark import NOUN_COUNT, TENANT, VERBS, backfill, seed
from benchmarks.scratch_database import scratch_database

RESULTS_DIR = Path(__file__).parent / "results"
CONNECTIONS = 20
TOKEN = "api-concurrency-bench-token"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _children(pid: int) -> list[int]:
    """pid and every process below it, from /proc (no extra dependency)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    tree, frontier = [pid], [pid]
    while frontier:
        frontier = [child for child, parent in parents.items() if parent in frontier]
        tree += frontier
    return tree


def _cpu_seconds(roots: list[int]) -> float:
    """CPU seconds used so far by the processes under roots, listed afresh at each call.

    The pool opens connections under load, each a new PostgreSQL backend: a list taken once before the load
    would leave them out, and their CPU would be counted as other processes'. A backend that exits moves its
    CPU into its parent's cutime, so the difference of two calls counts every process of the window once."""
    total = 0
    for pid in (pid for root in roots for pid in _children(root)):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # utime, stime, and cutime, cstime: what its children that have exited used (a connection the
        # pool opened and closed, a worker restarted), counted once their parent has reaped them
        total += sum(int(field) for field in fields[11:15])
    return total / CLOCK_TICKS


def _postmaster(database_url: str) -> int | None:
    """The PostgreSQL server's pid when it runs on this machine from a data dir we can read."""
    host = httpx2.URL(database_url.replace("postgresql+psycopg", "postgresql")).params.get("host")
    if not host:
        return None
    pidfile = Path(host) / "postmaster.pid"
    return int(pidfile.read_text().split()[0]) if pidfile.exists() else None


def _queries(count: int, rng: random.Random) -> list[str]:
    return [
        f"do I {rng.choice(VERBS)} n{rng.randrange(NOUN_COUNT)} or n{rng.randrange(NOUN_COUNT)}?"
        for _ in range(count)
    ]


def _recall(http: httpx2.Client, query: str, *, reconnect: bool = False) -> None:
    headers = {"Authorization": f"Bearer {TOKEN}", **({"Connection": "close"} if reconnect else {})}
    response = http.post("/v1/recall", json={"query": query, "k": 10}, headers=headers)
    response.raise_for_status()


def _serve(
    database_url: str, tokens: Path, workers: int, port: int, log: Path, source: Path
) -> subprocess.Popen[bytes]:
    """`agent api` of the checkout at source on a loopback port, its output (errors and their classes, never
    a request's content: the server logs no request) in `log`, kept for diagnosis."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "API_TOKENS_FILE": str(tokens),
        "PYTHONPATH": str(source),
    }
    agent = [sys.executable, "-c", "from adapters.cli.main import app; app()"]
    with log.open("wb") as output:
        server = subprocess.Popen(
            [*agent, "api", "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers)],
            env=env,
            cwd=source,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 60
    with httpx2.Client(base_url=f"http://127.0.0.1:{port}", timeout=5) as http:
        while time.monotonic() < deadline:
            try:
                if http.get("/healthz").status_code == 200:
                    # Warm every worker's engine before recalls are timed: a connection stays with the
                    # worker that accepted it, so each warming recall comes on a new one.
                    for query in _queries(8 * workers, random.Random(1)):
                        _recall(http, query, reconnect=True)
                    return server
            except httpx2.TransportError:
                time.sleep(0.2)
    server.terminate()
    raise RuntimeError("agent api did not start")


def _busy_cpu_seconds() -> float:
    """CPU seconds every process on the machine has used (all cores, /proc/stat: all but idle and iowait)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / CLOCK_TICKS


def measure_workers(
    database_url: str, tokens: Path, workers: int, sequential: int, requests: int, source: Path
) -> dict[str, Any]:
    port = _free_port()
    RESULTS_DIR.mkdir(exist_ok=True)
    log = RESULTS_DIR / f"api_concurrency_server_{source.name}_{workers}.log"
    server = _serve(database_url, tokens, workers, port, log, source)
    postmaster = _postmaster(database_url)
    rng = random.Random(workers)
    try:
        base = f"http://127.0.0.1:{port}"
        pids = [server.pid] + ([postmaster] if postmaster else [])
        before, client_before = _cpu_seconds(pids), time.process_time()
        started = time.perf_counter()
        with httpx2.Client(base_url=base, timeout=30) as http:
            for query in _queries(sequential, rng):
                _recall(http, query)
        one_at_a_time = time.perf_counter() - started
        cpu_per_recall = (_cpu_seconds(pids) - before) / sequential
        # The client shares the cores: its CPU per recall bounds what the servers can be given.
        client_per_recall = (time.process_time() - client_before) / sequential

        queries = _queries(requests, rng)
        lock = threading.Lock()
        latencies: list[float] = []
        failed: list[int] = []

        def connection(share: list[str]) -> None:
            with httpx2.Client(base_url=base, timeout=30) as http:
                for query in share:
                    began = time.perf_counter()
                    try:
                        _recall(http, query)
                    except httpx2.HTTPError:
                        with lock:
                            failed.append(1)
                        continue
                    with lock:
                        latencies.append(time.perf_counter() - began)

        threads = [
            threading.Thread(target=connection, args=(queries[i::CONNECTIONS],)) for i in range(CONNECTIONS)
        ]
        servers_before, client_before = _cpu_seconds(pids), time.process_time()
        machine_before = _busy_cpu_seconds()
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
        servers_busy = _cpu_seconds(pids) - servers_before
        client_busy = time.process_time() - client_before
        others_busy = max(_busy_cpu_seconds() - machine_before - servers_busy - client_busy, 0.0)
    finally:
        server.terminate()
        server.wait(timeout=30)
    latencies.sort()
    cores = os.cpu_count() or 1
    ceiling = cores / cpu_per_recall
    shared_ceiling = cores / (cpu_per_recall + client_per_recall)
    throughput = len(latencies) / elapsed
    # The cores the servers could have had while under load: all of them, less what the load generator and
    # every other process on the machine used in that time.
    cores_left = cores - (client_busy + others_busy) / elapsed
    available_ceiling = cores_left / cpu_per_recall
    # What the servers made of the CPU they were given: recalls/s against their busy cores / CPU per recall.
    given_ceiling = servers_busy / elapsed / cpu_per_recall
    return {
        "source": str(source),
        "workers": workers,
        "one_at_a_time_ms": round(1000 * one_at_a_time / sequential, 1),
        "cpu_ms_per_recall": round(1000 * cpu_per_recall, 1),
        "throughput_per_s": round(throughput, 1),
        "ceiling_per_s": round(ceiling, 1),
        "of_ceiling": round(throughput / ceiling, 2),
        "client_cpu_ms_per_recall": round(1000 * client_per_recall, 1),
        "ceiling_with_client_per_s": round(shared_ceiling, 1),
        "of_ceiling_with_client": round(throughput / shared_ceiling, 2),
        "servers_cpu_ms_per_recall_under_load": round(1000 * servers_busy / max(len(latencies), 1), 1),
        "servers_cores_busy": round(servers_busy / elapsed, 2),
        "client_cores_busy": round(client_busy / elapsed, 2),
        "other_processes_cores_busy": round(others_busy / elapsed, 2),
        "idle_cores": round(max(cores - (servers_busy + client_busy + others_busy) / elapsed, 0.0), 2),
        "ceiling_available_per_s": round(available_ceiling, 1),
        "of_ceiling_available": round(throughput / available_ceiling, 2),
        "ceiling_given_per_s": round(given_ceiling, 1),
        "of_ceiling_given": round(throughput / given_ceiling, 2),
        "failed": len(failed),
        "p50_ms": round(1000 * latencies[len(latencies) // 2], 1),
        "p99_ms": round(1000 * latencies[int(len(latencies) * 0.99)], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--beliefs", type=int, default=10_000, help="beliefs the recalling principal holds")
    parser.add_argument("--sequential", type=int, default=200, help="recalls timed one at a time")
    parser.add_argument("--requests", type=int, default=1_000, help="recalls over 20 connections")
    parser.add_argument(
        "--workers", type=int, nargs="+", default=sorted({1, os.cpu_count() or 1}), help="worker counts"
    )
    parser.add_argument(
        "--source",
        type=Path,
        nargs="+",
        default=[Path(__file__).resolve().parent.parent],
        help="checkouts whose `agent api` is measured, each in turn on the same database (default: this one)",
    )
    args = parser.parse_args()
    configured = os.environ.get("DATABASE_URL")
    if configured:
        server_url = sqlalchemy_url(configured)
    else:
        from adapters.embedded.postgres import start_embedded_postgres

        server_url = start_embedded_postgres(Path(tempfile.mkdtemp(prefix="api-bench-pg-")))
    with (
        scratch_database(server_url, "api_concurrency") as database_url,
        tempfile.TemporaryDirectory() as scratch,
    ):
        engine = create_store_engine(database_url, pool_size=1)
        try:
            schema.upgrade(engine, "head")
            seed(engine, args.beliefs, [args.beliefs])
            backfill(engine, WordLlamaEmbedder())
        finally:
            engine.dispose()
        tokens = Path(scratch) / "tokens.json"
        entry = {"sha256": token_digest(TOKEN), "tenant_id": TENANT, "principal_id": f"p-{args.beliefs}"}
        tokens.write_text(json.dumps({"tokens": [entry]}))
        rows = [
            measure_workers(database_url, tokens, w, args.sequential, args.requests, source.resolve())
            for w in args.workers
            for source in args.source
        ]
    result = {"cores": os.cpu_count(), "beliefs": args.beliefs, "connections": CONNECTIONS, "runs": rows}
    print(json.dumps(result, indent=2))
    RESULTS_DIR.mkdir(exist_ok=True)
    (RESULTS_DIR / "api_concurrency.json").write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
