"""Recall before and after a change, in one run: fused recall in process (the query's embedding included) for
one principal of a store the recall benchmark kept (`recall_benchmark --reuse`), by two or more checkouts.

    .venv/bin/python -m benchmarks.recall_compare --database URL --size 100000 --source ../baseline .
    .venv/bin/python -m benchmarks.recall_compare --database URL --size 100000 --http --source ../baseline .

Each checkout runs in a process of its own (its code on PYTHONPATH) against the same database; every query
goes to each in turn, the order alternating query by query, so a drift in the machine's speed falls on all
alike. With --http each process serves the /v1 API on uvicorn (a real socket on 127.0.0.1) and times a
POST /v1/recall to it instead of calling recall. Reported per checkout: p50 / p99 wall ms per recall, and the
mean CPU ms of the recalling process (with --http, the server's and the client's).
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

from benchmarks.recall_benchmark import NOW, _free_port, _principal, _queries
from domain.owner import Owner

WARM_UP = 30


def serve(url: str, size: int, http: bool) -> None:
    """One checkout's side: a recall per query line on stdin, its wall and CPU seconds as a JSON line."""
    from adapters.embeddings.wordllama_embedder import WordLlamaEmbedder
    from adapters.postgres.engine import create_store_engine
    from adapters.postgres.uow import PostgresStore
    from domain.beliefs.recall import recall

    store = PostgresStore(create_store_engine(url, pool_size=2))
    embedder = WordLlamaEmbedder()
    owner = _principal(size)

    def in_process(query: str) -> None:
        with store() as uow:
            recall(uow, owner, NOW, 10, query=query, embedder=embedder)

    ask = _over_http(store, embedder, owner) if http else in_process
    print("ready", flush=True)
    for line in sys.stdin:
        cpu, wall = time.process_time(), time.perf_counter()
        ask(line.rstrip("\n"))
        print(json.dumps([time.perf_counter() - wall, time.process_time() - cpu]), flush=True)


def serve_api(store: Any, embedder: Any, tokens: Mapping[str, Owner]) -> tuple[str, Any, threading.Thread]:
    """The /v1 API over store on uvicorn in a thread (a real socket on 127.0.0.1), each token an owner's: its
    base URL, server and thread. Here, not in recall_benchmark, because a checkout compared may predate it."""
    import uvicorn

    from adapters.api.auth import Authenticator, TokenEntry, TokenRegistry, token_digest
    from adapters.api.http import create_app
    from adapters.api.surface import AgentSurface

    registry = TokenRegistry(
        tuple(
            TokenEntry(sha256=token_digest(token), tenant_id=owner.tenant_id, principal_id=owner.principal_id)
            for token, owner in tokens.items()
        )
    )

    async def idle(*_: Any) -> str:
        raise NotImplementedError

    app = create_app(
        AgentSurface(store=store, idle_signal=idle, clock=lambda: NOW, embedder=embedder),
        Authenticator(None, registry),
        {},
    )
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, access_log=False, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server, thread


def _over_http(store: Any, embedder: Any, owner: Owner) -> Callable[[str], None]:
    """POST /v1/recall to the API served from this process."""
    import httpx2

    token = "compare-token"
    url, _, _ = serve_api(store, embedder, {token: owner})
    client = httpx2.Client(base_url=url, timeout=30)

    def ask(query: str) -> None:
        response = client.post(
            "/v1/recall", json={"query": query, "k": 10}, headers={"Authorization": f"Bearer {token}"}
        )
        response.raise_for_status()

    return ask


def _ask(worker: subprocess.Popen[str], query: str) -> list[float]:
    stdin, stdout = worker.stdin, worker.stdout
    assert stdin is not None and stdout is not None
    stdin.write(query + "\n")
    stdin.flush()
    return list(json.loads(stdout.readline()))


def _start(source: Path, url: str, size: int, http: bool) -> subprocess.Popen[str]:
    worker = subprocess.Popen(
        # this file, with the checkout's own code first on the path (a checkout older than this file has
        # no copy of it)
        [sys.executable, __file__, "--serve", "--database", url, "--size", str(size)]
        + (["--http"] if http else []),
        cwd=source,
        env={**os.environ, "PYTHONPATH": str(source)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    output: IO[str] | None = worker.stdout
    if output is None or output.readline().strip() != "ready":
        raise SystemExit(f"the checkout at {source} did not start")
    return worker


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", required=True, help="SQLAlchemy URL of the kept store's database")
    parser.add_argument("--size", type=int, default=100_000, help="live beliefs of the principal recalled")
    parser.add_argument("--queries", type=int, default=80, help="timed queries per checkout")
    parser.add_argument("--source", type=Path, nargs="+", default=[Path(".")], help="checkouts compared")
    parser.add_argument("--http", action="store_true", help="recall over the /v1 API on a real socket")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.database, args.size, args.http)
        return
    sources = [source.resolve() for source in args.source]
    workers = {source: _start(source, args.database, args.size, args.http) for source in sources}
    try:
        for query in _queries(WARM_UP, random.Random(5)):
            for worker in workers.values():
                _ask(worker, query)
        samples: dict[Path, list[list[float]]] = {source: [] for source in sources}
        for i, query in enumerate(_queries(args.queries, random.Random(18))):
            for source in sources if i % 2 == 0 else sources[::-1]:
                samples[source].append(_ask(workers[source], query))
    finally:
        for worker in workers.values():
            if worker.stdin is not None:
                worker.stdin.close()
            worker.wait(timeout=30)
    for source, taken in samples.items():
        wall = sorted(sample[0] for sample in taken)
        p99 = wall[min(len(wall) - 1, int(len(wall) * 0.99))]
        cpu = statistics.mean(sample[1] for sample in taken)
        print(
            f"{source}: owner {args.size:,}{' over HTTP' if args.http else ''}, p50 {statistics.median(wall) * 1000:.1f} ms,"
            f" p99 {p99 * 1000:.1f} ms, CPU {cpu * 1000:.1f} ms a recall"
        )


if __name__ == "__main__":
    main()
