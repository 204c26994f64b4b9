"""Large-event benchmark: time to consolidate ONE event of 1k / 10k / 100k clauses (capped at the 1 MB event
limit), through the real activities (load_batch, the three stages on the deterministic fallback, commit,
advance_watermark), round after round until the watermark passes the event.

    .venv/bin/python -m benchmarks.large_event                         # in-memory store
    .venv/bin/python -m benchmarks.large_event --clauses 1000 10000    # a subset
    .venv/bin/python -m benchmarks.large_event --postgres              # embedded PostgreSQL (or DATABASE_URL)
    .venv/bin/python -m benchmarks.large_event --temporal --clauses 100000   # a worker on a dev server

With --temporal (PostgreSQL as with --postgres) the event is consolidated by ConsolidateSessionWorkflow on a
Temporal dev server (ports 18333/18334) with one real worker in this process (the worker's defaults, the
deterministic fallback), and while it runs another principal's session of three turns is consolidated every
--probe-every seconds. Reported besides the time: for those other sessions' workflows and their segments'
children, the workflow tasks' schedule-to-start and schedule-to-close and the activity tasks'
schedule-to-start (max and p95, from their histories), against the workflow task timeout.

The event is a user message of short first-person sentences (one in ten states a preference the
deterministic former keeps, the rest are chatter), the largest cut to fit 1 MB. An event past a segment's
bounds is planned as clause-range pieces of at most 90 clauses; each piece is its own segment (three stage
calls, one commit). Reported: clauses, bytes, segments, rounds, seconds, and microseconds per clause (flat
when the work is linear). Goal: linear; 1 MB in under a minute.
"""

import argparse
import asyncio
import json
import math
import os
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any
from uuid import uuid4

from temporalio.api.enums.v1 import EventType
from temporalio.client import Client, WorkflowHandle

from activities.batch import BatchActivities
from activities.commit import CommitActivities
from activities.contracts import AdvanceWatermarkInput, CommitInput, LoadBatchInput, SessionKey, StageInput
from activities.stages import StageActivities
from adapters.embedded.temporal import start_dev_server
from adapters.memory.store import InMemoryStore
from adapters.settings import DEFAULT_MAX_ACTIVITIES
from adapters.temporal.client import connect, session_idle
from adapters.temporal.worker import WorkerPorts, build_worker
from domain.events import MAX_EVENT_TEXT_BYTES
from domain.formation.clauses import split_clauses
from domain.owner import Owner
from domain.policy.versions import FORMATION_9
from domain.ports import UnitOfWorkFactory
from tests.builders import OWNER, T0, event

RESULTS_DIR = Path(__file__).parent / "results"
FOODS = ["sushi", "ramen", "falafel", "paella", "curry", "tacos", "pho", "dal", "kimchi", "gnocchi"]
CHATTER = ["Ok.", "Sure thing.", "Hm, right.", "Got it.", "Yes.", "No way!", "Fine.", "Cool.", "Ha.", "Hmm."]
MAX_ROUNDS = 100
TEMPORAL_PORT, TEMPORAL_UI_PORT = 18333, 18334
# Another principal: its commits do not wait on the large event's principal lock.
PROBE_OWNER = Owner(tenant_id=OWNER.tenant_id, principal_id="probe")
PROBE_TURNS = ("I like green tea.", "Ok.", "I am learning Portuguese.")


def message(clauses: int) -> str:
    """clauses short sentences, cut to the whole sentences that fit the event limit."""
    parts: list[str] = []
    size = 0
    for i in range(clauses):
        sentence = f"I like {FOODS[i // 10 % len(FOODS)]}." if i % 10 == 0 else CHATTER[i % len(CHATTER)]
        grown = len(sentence.encode("utf-8")) + (1 if parts else 0)
        if size + grown > MAX_EVENT_TEXT_BYTES:
            break
        parts.append(sentence)
        size += grown
    return " ".join(parts)


def consolidate(store: UnitOfWorkFactory, clauses: int) -> dict[str, Any]:
    session = uuid4()
    text = message(clauses)
    with store() as uow:
        uow.events.append([event(1, text, session_id=session)])
        uow.commit()
    key = SessionKey(tenant_id=OWNER.tenant_id, principal_id=OWNER.principal_id, session_id=session)
    now = T0 + timedelta(days=1)
    batch = BatchActivities(store, lambda: now)
    stages = StageActivities(store, None, lambda: now)
    commit = CommitActivities(store, lambda: now)
    segments = rounds = 0
    resume = None
    started = time.perf_counter()
    for rounds in range(1, MAX_ROUNDS + 1):  # noqa: B007 (reported after the loop)
        plan = batch.load_batch(LoadBatchInput(session=key, formation_policy=FORMATION_9, resume=resume))
        resume = plan.resume
        run_id = uuid4()
        for ref in plan.segments:
            stage_input = StageInput(ref=ref, run_id=run_id)
            for stage in (stages.integrate_episodes, stages.anticipate, stages.distill):
                stage(stage_input)
            commit.commit_segment(CommitInput(ref=ref, run_id=run_id))
        segments += len(plan.segments)
        advance = batch.advance_watermark(
            AdvanceWatermarkInput(session=key, expected=plan.watermark, new=plan.last_seq)
        )
        if advance.current >= 1:
            break
    elapsed = time.perf_counter() - started
    counted = len(split_clauses(1, text))
    return {
        "clauses_asked": clauses,
        "clauses": counted,
        "bytes": len(text.encode("utf-8")),
        "segments": segments,
        "rounds": rounds,
        "seconds": round(elapsed, 2),
        "us_per_clause": round(1e6 * elapsed / counted, 1),
    }


async def consolidate_on_temporal(
    store: UnitOfWorkFactory, clauses: int, probe_every_s: float
) -> dict[str, Any]:
    """The event consolidated by its session workflow on a dev server with one real worker, while another
    principal's short session starts every probe_every_s seconds; the time, and the latencies of those
    sessions' workflow and activity tasks."""
    session = uuid4()
    text = message(clauses)
    with store() as uow:
        uow.events.append([event(1, text, session_id=session)])
        uow.commit()
    server = start_dev_server(
        Path(tempfile.mkdtemp(prefix="large-event-temporal-")),
        port=TEMPORAL_PORT,
        ui_port=TEMPORAL_UI_PORT,
        headless=True,
    )
    try:
        client = await connect(server.address)
        with ThreadPoolExecutor(max_workers=DEFAULT_MAX_ACTIVITIES) as executor:
            worker = build_worker(client, WorkerPorts(store, None), executor)
            async with worker:
                started = time.perf_counter()
                large = await session_idle(client, OWNER.tenant_id, OWNER.principal_id, session)
                done = asyncio.ensure_future(large.result())
                probes: list[WorkflowHandle[Any, Any]] = []
                while not done.done():
                    probes.append(await _probe(client, store))
                    await asyncio.wait([done], timeout=probe_every_s)
                summary = done.result()
                elapsed = time.perf_counter() - started
                for probe in probes:
                    await probe.result()
                latencies = [await _task_latencies(client, probe) for probe in probes]
                timeout = await _task_timeout(probes[0]) if probes else None
    finally:
        server.stop()
    merged = {
        key: [v for one in latencies for v in one[key]] for key in ("wft_start", "wft_close", "act_start")
    }
    return {
        "clauses": len(split_clauses(1, text)),
        "bytes": len(text.encode("utf-8")),
        "rounds": summary.rounds,
        "seconds": round(elapsed, 1),
        "probe_sessions": len(probes),
        "probe_workflow_tasks": len(merged["wft_start"]),
        "probe_activity_tasks": len(merged["act_start"]),
        "workflow_task_timeout_s": timeout,
        **{
            f"{key}_{stat}_s": value
            for key, values in merged.items()
            for stat, value in _stats(values).items()
        },
    }


async def _probe(client: Client, store: UnitOfWorkFactory) -> WorkflowHandle[Any, Any]:
    session = uuid4()
    with store() as uow:
        uow.events.append(
            [
                event(seq, turn, owner=PROBE_OWNER, session_id=session)
                for seq, turn in enumerate(PROBE_TURNS, 1)
            ]
        )
        uow.commit()
    return await session_idle(client, PROBE_OWNER.tenant_id, PROBE_OWNER.principal_id, session)


async def _task_latencies(client: Client, handle: WorkflowHandle[Any, Any]) -> dict[str, list[float]]:
    """Workflow tasks' schedule-to-start and schedule-to-close, activity tasks' schedule-to-start, in the
    workflow's history and its children's."""
    found: dict[str, list[float]] = {"wft_start": [], "wft_close": [], "act_start": []}
    scheduled: dict[int, float] = {}
    children: list[str] = []
    async for item in handle.fetch_history_events():
        at = item.event_time.ToDatetime().timestamp()
        if item.event_type in (
            EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
            EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
        ):
            scheduled[item.event_id] = at
        elif item.event_type == EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED:
            found["wft_start"].append(
                at - scheduled[item.workflow_task_started_event_attributes.scheduled_event_id]
            )
        elif item.event_type == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
            found["wft_close"].append(
                at - scheduled[item.workflow_task_completed_event_attributes.scheduled_event_id]
            )
        elif item.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
            found["act_start"].append(
                at - scheduled[item.activity_task_started_event_attributes.scheduled_event_id]
            )
        elif item.event_type == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED:
            children.append(
                item.child_workflow_execution_started_event_attributes.workflow_execution.workflow_id
            )
    for child in children:
        for key, values in (await _task_latencies(client, client.get_workflow_handle(child))).items():
            found[key] += values
    return found


async def _task_timeout(handle: WorkflowHandle[Any, Any]) -> float:
    return (
        (await handle.describe())
        .raw_description.execution_config.default_workflow_task_timeout.ToTimedelta()
        .total_seconds()
    )


def _stats(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)
    return {"max": round(ordered[-1], 3), "p95": round(ordered[math.ceil(0.95 * len(ordered)) - 1], 3)}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clauses", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL (DATABASE_URL or embedded)")
    parser.add_argument(
        "--temporal",
        action="store_true",
        help="consolidate on a Temporal dev server with a real worker (PostgreSQL as --postgres), timing "
        "another session's workflow tasks meanwhile",
    )
    parser.add_argument(
        "--probe-every", type=float, default=5.0, help="seconds between the other sessions (--temporal)"
    )
    args = parser.parse_args()
    if args.postgres or args.temporal:
        from adapters.postgres import schema
        from adapters.postgres.engine import create_store_engine, sqlalchemy_url
        from adapters.postgres.uow import PostgresStore
        from benchmarks.scratch_database import scratch_database

        configured = os.environ.get("DATABASE_URL")
        if configured:
            server_url = sqlalchemy_url(configured)
        else:
            from adapters.embedded.postgres import start_embedded_postgres

            server_url = start_embedded_postgres(Path(tempfile.mkdtemp(prefix="large-event-pg-")))
        with scratch_database(server_url, "large_event") as url:
            # The workers' engine: its pool and liveness checks are part of each unit of work's cost.
            engine = create_store_engine(url)
            try:
                schema.upgrade(engine, "head")
                store = PostgresStore(engine)
                if args.temporal:
                    rows = [
                        asyncio.run(consolidate_on_temporal(store, n, args.probe_every)) for n in args.clauses
                    ]
                else:
                    rows = [consolidate(store, n) for n in args.clauses]
            finally:
                engine.dispose()
    else:
        rows = [consolidate(InMemoryStore(), n) for n in args.clauses]
    result = {
        "store": "temporal" if args.temporal else "postgres" if args.postgres else "memory",
        "runs": rows,
    }
    print(json.dumps(result, indent=2))
    RESULTS_DIR.mkdir(exist_ok=True)
    (RESULTS_DIR / f"large_event_{result['store']}.json").write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
