"""Consolidation benchmark: old and new code back to back, on one Temporal dev server and one PostgreSQL.

Each variant's workers are separate processes (this file run with --serve, the variant's tree first on
PYTHONPATH), so their CPU is their own: neither the client nor seeding is counted as worker CPU. The baseline
is a `git archive` of --baseline (a commit before the change measured) in a temporary directory; the new code
is this tree. Both load the same way: bytecode cached (PYTHONPYCACHEPREFIX), as from an installed package.
Sessions are seeded before the CPU is sampled and started by this process through this tree's client.

Stage latency L is injected by the scripted provider, so every segment costs exactly three provider waits.
For each worker count and variant it reports:
  * one session end to end / (3 L)                                   goal <= 1.10
  * CPU ms per consolidation of the workers, the Temporal dev server and PostgreSQL, from /proc (other work on
    the machine barely moves these)                                  goal: total <= 100, worker <= 40
  * throughput at --sessions concurrent sessions, as a share of the CPU-bound ceiling (cores / CPU per
    consolidation)                                                   goal >= 0.9
  * history events, workflow tasks, activity tasks and local activities per consolidation

    .venv/bin/python -m benchmarks.consolidation_benchmark --baseline e0db602   # an earlier tree
    .venv/bin/python -m benchmarks.consolidation_benchmark --floor floor floor-no-child floor-bare

--floor SHAPE... adds, after the real code, workers running benchmarks/floor_workflows.py: the same workflow
shape (with "floor", the same history events, workflow tasks, activity tasks and local activities) with
constant activities and no store, so the line reads what the shape alone costs the worker, Temporal and
PostgreSQL; the other shapes each drop one element of the design to price it. Each line also prints the
history's bytes and the 1-minute load average before and after the load run.

Last reading (2 cores, load average 0.9, 320 workflow task slots), CPU ms per consolidation worker / Temporal /
PostgreSQL, e0db602 -> now: 1 worker 77/79/10 = 165 -> 60/70/10 = 140 (0.85), 2 workers 83/80/10 = 173 ->
63/66/10 = 140 (0.81); events 53 -> 42, workflow tasks 9 -> 7, activity tasks 5 -> 3, local activities 1 -> 3;
one session 1.08 -> 1.07 x 3L; throughput share 0.63 -> 0.73 (1 worker), 0.81 -> 0.78 (2 workers), which the
neighbours' load moves more than the code does. With eager activity execution on the dev server (both
variants get it; load average 0.3-0.6): 1 worker 90/88/12 = 190 -> 70/69/12 = 150 (0.79), 2 workers
80/77/10 = 167 -> 61/62/9 = 133 (0.80); one session 1.06 -> 1.05 x 3L. Goals not met: worker and total CPU
are about 0.8 of before, against 0.5 and 0.6 asked.

With --floor (five runs, L = 1 s, 1 and 2 workers, load average 0.3-4.6), CPU ms per consolidation: real code
110-172 (worker 48-76, Temporal 54-84, PostgreSQL 8-13); floor 71-120 (worker 21-37, Temporal 50-83), 0.59-0.85
of the real code beside it; floor-no-child 43-72; floor-bare 44-61. The shape alone costs about the 100 ms
goal; docs/evaluation/capacity.md, "The floor".
"""

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from functools import partial
from io import BytesIO
from pathlib import Path
from typing import Any

from temporalio.api.enums.v1 import EventType
from temporalio.client import Client, WorkflowHandle
from temporalio.common import SearchAttributePair, TypedSearchAttributes
from temporalio.worker import Worker

from activities.contracts import SessionKey
from adapters.embedded.postgres import start_embedded_postgres
from adapters.embedded.temporal import start_dev_server
from adapters.postgres.engine import create_store_engine
from adapters.postgres.schema import upgrade
from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.temporal.client import DEFAULT_FORMATION_POLICY, TemporalUnavailable, connect, session_idle
from adapters.temporal.worker import WorkerPorts, build_worker, run_until_signalled
from domain.events import SourceEvent, SourceEventKind
from domain.ports import UnitOfWorkFactory
from domain.providers import ProviderRequest
from domain.telemetry import Stage
from workflows.consolidate_session import IDLE_SIGNAL, ConsolidateSessionInput, session_workflow_id
from workflows.search_attributes import FORMATION_POLICY

TREE = Path(__file__).resolve().parent.parent
TURNS = (
    "I am building a personal AI agent for my family.",
    "I am training for a half marathon in October.",
    "I prefer running early in the morning before work.",
)


def answer(request: ProviderRequest) -> dict[str, object]:
    if request.stage is Stage.ANTICIPATION:
        return {"predictions": []}
    if request.stage is Stage.DISTILLATION:
        return {"coverage": [], "candidates": []}
    sentences = [
        {"text": line.split("] ", 1)[1], "source_event_ids": [int(line[1 : line.index("]")])]}
        for line in request.content.splitlines()
        if line.startswith("[")
    ]
    return {"episodes": [{"subjects": ["project:personal-ai-agent"], "sentences": sentences}]}


def floor_worker(client: Client, executor: ThreadPoolExecutor, args: argparse.Namespace) -> Worker:
    """The floor workflows (benchmarks/floor_workflows.py) with the real worker's slots and sticky timeout,
    and nothing else: no store, no provider, no interceptors."""
    # Imported here: a baseline's workers import this file's imports from the baseline tree, which may
    # predate both.
    from adapters.temporal.worker import STICKY_SCHEDULE_TO_START
    from benchmarks.floor_workflows import WORKFLOWS, FloorActivities

    return Worker(
        client,
        task_queue=args.task_queue,
        workflows=list(WORKFLOWS),
        activities=FloorActivities(args.latency).all(),
        activity_executor=executor,
        max_concurrent_activities=args.threads,
        max_concurrent_workflow_tasks=args.workflow_tasks,
        graceful_shutdown_timeout=timedelta(seconds=2),
        sticky_queue_schedule_to_start_timeout=STICKY_SCHEDULE_TO_START,
    )


async def serve(args: argparse.Namespace) -> None:
    """One worker process until SIGTERM: the variant's worker code with the scripted provider, or with
    --shape the floor workflows."""
    client = await connect(args.address)
    engine = None if args.shape else create_store_engine(args.database_url, pool_size=args.pool)
    with ThreadPoolExecutor(max_workers=args.threads) as executor:
        worker = (
            floor_worker(client, executor, args)
            if engine is None
            else build_worker(
                client,
                WorkerPorts(PostgresStore(engine), ScriptedProvider(answer, latency_s=args.latency)),
                executor,
                task_queue=args.task_queue,
                max_activities=args.threads,
                max_workflow_tasks=args.workflow_tasks,
                graceful_shutdown_s=2,
            )
        )
        await run_until_signalled(worker)
    if engine is not None:
        engine.dispose()


def export_tree(ref: str, into: Path) -> Path:
    """The tree at ref, as files (git archive): imported by the baseline's workers instead of this tree."""
    archive = subprocess.run(["git", "-C", str(TREE), "archive", ref], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


@contextmanager
def workers(
    tree: Path,
    count: int,
    task_queue: str,
    address: str,
    database_url: str,
    args: argparse.Namespace,
    shape: str = "",
) -> Iterator[list[int]]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env |= {"PYTHONPATH": str(tree), "PYTHONPYCACHEPREFIX": str(Path(tempfile.gettempdir()) / "bench-pyc")}
    command = [sys.executable, str(Path(__file__).resolve()), "--serve", "--address", address,
               "--database-url", database_url, "--task-queue", task_queue, "--latency", str(args.latency),
               "--threads", str(args.threads), "--workflow-tasks", str(args.workflow_tasks),
               "--pool", str(args.pool), "--shape", shape]  # fmt: skip
    processes = [subprocess.Popen(command, env=env, cwd=tree) for _ in range(count)]
    try:
        yield [p.pid for p in processes]
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            process.wait(timeout=60)


def seed_sessions(store: UnitOfWorkFactory, count: int, tenant: str) -> list[uuid.UUID]:
    sessions = [uuid.uuid4() for _ in range(count)]
    now = datetime.now(UTC) - timedelta(hours=1)
    with store() as uow:
        for session in sessions:
            uow.events.append(
                [
                    SourceEvent(
                        tenant_id=tenant,
                        principal_id=f"p-{session.hex[:8]}",
                        session_id=session,
                        seq=seq,
                        kind=SourceEventKind.USER_MESSAGE,
                        text=text,
                        occurred_at=now + timedelta(seconds=seq),
                    )
                    for seq, text in enumerate(TURNS, start=1)
                ]
            )
        uow.commit()
    return sessions


def input_fields(tree: Path) -> frozenset[str]:
    """The fields the tree's ConsolidateSessionInput knows (a baseline may predate some of this tree's)."""
    probe = "from workflows.consolidate_session import ConsolidateSessionInput as I; print(*I.model_fields)"
    env = os.environ | {"PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-c", probe], env=env, cwd=tree, check=True, capture_output=True)
    return frozenset(out.stdout.decode().split())


async def start_session(
    client: Client, tenant: str, session: uuid.UUID, task_queue: str, fields: frozenset[str] | None
) -> WorkflowHandle[Any, Any]:
    """Through session_idle, as in production; a baseline that predates a field of the input gets the same
    start without it (its workers would refuse a field they do not know)."""
    principal = f"p-{session.hex[:8]}"
    if fields is None or fields >= frozenset(ConsolidateSessionInput.model_fields):
        return await session_idle(client, tenant, principal, session, task_queue=task_queue)
    key = SessionKey(tenant_id=tenant, principal_id=principal, session_id=session)
    params = ConsolidateSessionInput(session=key, formation_policy=DEFAULT_FORMATION_POLICY)
    return await client.start_workflow(
        "ConsolidateSession",
        {name: value for name, value in params.model_dump(mode="json").items() if name in fields},
        id=session_workflow_id(tenant, principal, session),
        task_queue=task_queue,
        start_signal=IDLE_SIGNAL,
        search_attributes=TypedSearchAttributes(
            [SearchAttributePair(FORMATION_POLICY, DEFAULT_FORMATION_POLICY)]
        ),
    )


async def consolidate(
    client: Client,
    task_queue: str,
    tenant: str,
    sessions: list[uuid.UUID],
    fields: frozenset[str] | None = None,
) -> list[str]:
    """Start every session and wait for each consolidation; `fields`: those the workers' input knows (None:
    this tree's)."""

    async def one(session: uuid.UUID) -> str:
        handle = await start_session(client, tenant, session, task_queue, fields)
        await handle.result()
        return handle.id

    return list(await asyncio.gather(*(one(s) for s in sessions)))


def fresh_sessions(count: int, tenant: str) -> list[uuid.UUID]:
    """A floor shape's sessions: ids only, nothing stored."""
    return [uuid.uuid4() for _ in range(count)]


async def consolidate_floor(
    client: Client, task_queue: str, shape: str, tenant: str, sessions: list[uuid.UUID]
) -> list[str]:
    """consolidate() for a floor shape: the same start (signal-with-start, the policy's search attribute) and
    the same workflow ids, of the floor workflows; floor-bare a plain start."""
    from benchmarks.floor_workflows import POLICY, SHAPES, FloorBareWorkflow, FloorSessionWorkflow

    session_shape = SHAPES[shape]

    async def one(session: uuid.UUID) -> str:
        workflow_id = session_workflow_id(tenant, f"p-{session.hex[:8]}", session)
        handle: WorkflowHandle[Any, int]
        if session_shape is None:
            handle = await client.start_workflow(FloorBareWorkflow.run, id=workflow_id, task_queue=task_queue)
        else:
            handle = await client.start_workflow(
                FloorSessionWorkflow.run,
                session_shape,
                id=workflow_id,
                task_queue=task_queue,
                start_signal=IDLE_SIGNAL,
                search_attributes=TypedSearchAttributes([SearchAttributePair(FORMATION_POLICY, POLICY)]),
            )
        await handle.result()
        return handle.id

    return list(await asyncio.gather(*(one(s) for s in sessions)))


_TICKS = os.sysconf("SC_CLK_TCK")


def _process_table() -> dict[int, tuple[int, float]]:
    """pid -> (parent pid, CPU seconds of the process and its reaped children)."""
    table: dict[int, tuple[int, float]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # after "(comm)": state ppid ... utime(12) stime(13) cutime(14) cstime(15)
        table[int(entry)] = (int(fields[1]), sum(int(f) for f in fields[11:15]) / _TICKS)
    return table


def _tree_cpu(table: dict[int, tuple[int, float]], roots: list[int]) -> float:
    children: dict[int, list[int]] = defaultdict(list)
    for pid, (ppid, _) in table.items():
        children[ppid].append(pid)
    total, todo = 0.0, list(roots)
    while todo:
        pid = todo.pop()
        if pid in table:
            total += table[pid][1]
        todo.extend(children.get(pid, ()))
    return total


def cpu_sample(processes: dict[str, list[int]]) -> dict[str, float]:
    table = _process_table()
    return {name: _tree_cpu(table, pids) for name, pids in processes.items()}


async def history_shape(client: Client, workflow_id: str) -> Counter[str]:
    """History events and their bytes, workflow tasks, activity tasks and local activities of one
    consolidation (the session's workflow and its children)."""
    shape: Counter[str] = Counter()
    pending = [workflow_id]
    while pending:
        history = await client.get_workflow_handle(pending.pop()).fetch_history()
        shape["history events"] += len(history.events)
        shape["history bytes"] += sum(event.ByteSize() for event in history.events)
        for event in history.events:
            if event.event_type == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED:
                pending.append(
                    event.child_workflow_execution_started_event_attributes.workflow_execution.workflow_id
                )
            elif event.event_type == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
                shape["workflow tasks"] += 1
            elif event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
                shape["activity tasks"] += 1
            elif (
                event.event_type == EventType.EVENT_TYPE_MARKER_RECORDED
                and event.marker_recorded_event_attributes.marker_name == "core_local_activity"
            ):
                shape["local activities"] += 1
    return shape


Prepare = Callable[[int, str], list[uuid.UUID]]
Run = Callable[[str, list[uuid.UUID]], Awaitable[list[str]]]


async def measure(
    client: Client, processes: dict[str, list[int]], prepare: Prepare, run: Run, args: argparse.Namespace
) -> str:
    """prepare(count, tenant): sessions made ready before anything is timed (seeded); run(tenant, sessions):
    consolidate them all at once, their workflow ids."""
    ideal = 3 * args.latency
    await run("warmup", prepare(4, "warmup"))
    singles = []
    for _ in range(3):
        sessions = prepare(1, "single")
        started = time.monotonic()
        ids = await run("single", sessions)
        singles.append(time.monotonic() - started)
    shape = await history_shape(client, ids[0])
    sessions = prepare(args.sessions, "load")
    load_before = os.getloadavg()[0]
    before = cpu_sample(processes)
    started = time.monotonic()
    await run("load", sessions)
    elapsed = time.monotonic() - started
    after = cpu_sample(processes)
    load_after = os.getloadavg()[0]
    spent = {name: 1000 * (after[name] - before[name]) / args.sessions for name in processes}
    total = sum(spent.values())
    cores = os.cpu_count() or 1
    ceiling = 1000 * cores / total
    rate = args.sessions / elapsed
    return (
        f"one session {statistics.median(singles) / ideal:.3f} x 3L | "
        f"CPU/consolidation {total:.0f} ms ("
        + ", ".join(f"{name} {ms:.0f}" for name, ms in spent.items())
        + f") | load {load_before:.1f}-{load_after:.1f} | "
        + f"{args.sessions} sessions: {rate:.2f}/s of ceiling {ceiling:.1f}/s = {rate / ceiling:.2f} | "
        + ", ".join(f"{count} {name}" for name, count in shape.items())
    )


async def connect_when_healthy(address: str, patience_s: float = 60.0) -> Client:
    """The dev server opens its port before its frontend is healthy; on a busy machine that takes a while."""
    deadline = time.monotonic() + patience_s
    while True:
        try:
            return await connect(address)
        except TemporalUnavailable:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(1)


async def main(args: argparse.Namespace) -> None:
    from benchmarks.floor_workflows import SHAPES

    if unknown := set(args.floor) - set(SHAPES):
        raise SystemExit(f"unknown floor shapes {sorted(unknown)}; known: {', '.join(SHAPES)}")
    root = Path(tempfile.mkdtemp(prefix="consolidation-bench-"))
    # name -> (tree, floor shape or "" for the tree's own consolidation)
    variants = {"new": (TREE, "")}
    if args.baseline:
        variants = {f"old ({args.baseline})": (export_tree(args.baseline, root / "baseline"), "")} | variants
    variants |= {shape: (TREE, shape) for shape in args.floor}
    database_url = start_embedded_postgres(root / "postgres")
    engine = create_store_engine(database_url, pool_size=4)
    upgrade(engine, "head")
    store = PostgresStore(engine)
    server = start_dev_server(root / "temporal", port=args.port, ui_port=args.port + 1000, headless=True)
    postmaster = int(next((root / "postgres").rglob("postmaster.pid")).read_text().split()[0])
    print(f"L = {args.latency:.2f} s, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    try:
        client = await connect_when_healthy(server.address)
        order = list(variants.items())
        if args.abba:
            order += order[::-1]
        for count in args.workers:
            for name, (tree, shape) in order:
                task_queue = f"bench-{uuid.uuid4().hex[:6]}"
                prepare: Prepare
                run: Run
                if shape:
                    prepare = fresh_sessions
                    run = partial(consolidate_floor, client, task_queue, shape)
                else:
                    prepare = partial(seed_sessions, store)
                    run = partial(consolidate, client, task_queue, fields=input_fields(tree))
                with workers(tree, count, task_queue, server.address, database_url, args, shape) as pids:
                    processes = {"worker": pids, "temporal": [server.process.pid], "postgres": [postmaster]}
                    line = await measure(client, processes, prepare, run, args)
                print(f"{count} worker(s), {name:>15}: {line}", flush=True)
    finally:
        server.stop()
        engine.dispose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--baseline", default="", help="git ref of the old code (none: the new code only)")
    parser.add_argument("--latency", type=float, default=1.0, help="injected stage latency L in seconds")
    parser.add_argument("--sessions", type=int, default=100, help="concurrent sessions of the load run")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker process counts")
    parser.add_argument("--threads", type=int, default=320, help="activity threads per worker")
    # Local activities (load_batch, advance_watermark, the commit) hold their workflow task's slot while they
    # run: with fewer workflow task slots than activity slots, sessions queue for slots with CPU to spare.
    parser.add_argument(
        "--workflow-tasks", type=int, default=320, help="workflow task slots per worker (as many as threads)"
    )
    parser.add_argument("--pool", type=int, default=20, help="PostgreSQL connection pool per worker")
    parser.add_argument(
        "--floor",
        nargs="*",
        default=[],
        metavar="SHAPE",
        help="floor shapes to run after the real code (benchmarks/floor_workflows.py: floor, floor-no-child, "
        "floor-no-local, floor-no-upsert, floor-bare)",
    )
    parser.add_argument(
        "--abba",
        action="store_true",
        help="run the variants again in reverse order: every process's CPU per consolidation drifts over a run "
        "(the neighbours' load; the same code read 110 ms first and 155 ms last in one run), so compare the "
        "mean of a variant's two lines",
    )
    parser.add_argument("--port", type=int, default=27233)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--address", help=argparse.SUPPRESS)
    parser.add_argument("--database-url", help=argparse.SUPPRESS)
    parser.add_argument("--task-queue", help=argparse.SUPPRESS)
    parser.add_argument("--shape", default="", help=argparse.SUPPRESS)
    parsed = parser.parse_args()
    asyncio.run(serve(parsed) if parsed.serve else main(parsed))
