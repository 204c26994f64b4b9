"""The consolidation benchmark's floor (benchmarks/floor_workflows.py) prices the real consolidation's shape
only while it keeps that shape: the same history events in the same order, session and child."""

import asyncio
import uuid
from argparse import Namespace
from concurrent.futures import ThreadPoolExecutor

import pytest
from temporalio.api.enums.v1 import EventType
from temporalio.worker import Worker

from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.temporal.worker import WorkerPorts
from benchmarks.consolidation_benchmark import consolidate_floor, floor_worker
from tests.workflows.conversations import conversation, plausible_answer
from tests.workflows.harness import Harness
from tests.workflows.support import OWNER, append, consolidate
from workflows.consolidate_session import session_workflow_id

pytestmark = [pytest.mark.temporal, pytest.mark.postgres]

# docs/design.md: exactly three provider calls per planned segment, one activity each.
STAGES = ["integrate_episodes", "anticipate", "distill"]


def event_types(harness: Harness, workflow_id: str) -> list[list[str]]:
    """The event types of the workflow's history, then of each child it started, in start order."""

    async def collect() -> list[list[str]]:
        shapes, pending = [], [workflow_id]
        while pending:
            history = await harness.client.get_workflow_handle(pending.pop(0)).fetch_history()
            shapes.append([EventType.Name(event.event_type) for event in history.events])
            pending += [
                event.child_workflow_execution_started_event_attributes.workflow_execution.workflow_id
                for event in history.events
                if event.event_type == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED
            ]
        return shapes

    return harness.run(collect())


def test_the_floor_records_the_real_consolidations_events_in_order(harness: Harness, store: PostgresStore) -> None:
    session = uuid.uuid4()
    append(store, conversation(OWNER, session, 3, seed=20))
    with harness.worker(WorkerPorts(store, ScriptedProvider(plausible_answer))) as worker:
        consolidate(harness, worker.task_queue, session)
    real = event_types(harness, session_workflow_id(OWNER.tenant_id, OWNER.principal_id, session))

    args = Namespace(task_queue=f"floor-{uuid.uuid4().hex[:8]}", latency=0.0, threads=4, workflow_tasks=4)
    with ThreadPoolExecutor(max_workers=args.threads) as executor:

        async def make() -> Worker:
            # A worker belongs to the loop it is built on: the harness's.
            return floor_worker(harness.client, executor, args)

        worker = harness.run(make())
        running = asyncio.run_coroutine_threadsafe(worker.run(), harness.loop)
        try:
            [floor_id] = harness.run(
                consolidate_floor(harness.client, args.task_queue, "floor", OWNER.tenant_id, [uuid.uuid4()])
            )
        finally:
            harness.run(worker.shutdown(), timeout=60)
            running.result(timeout=60)
    floor = event_types(harness, floor_id)

    assert floor == real
    # One session and one segment child, whose three scheduled activities are the three stages.
    assert len(floor) == 2
    assert floor[1].count("EVENT_TYPE_ACTIVITY_TASK_SCHEDULED") == len(STAGES)
