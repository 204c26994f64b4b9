"""The Temporal Schedules `agent schedule install` creates or updates in place: the retirement sweep and the
embedding backfill."""

from datetime import timedelta
from enum import StrEnum
from typing import Final

from temporalio.client import (
    Client,
    Schedule,
    ScheduleActionStartWorkflow,
    ScheduleAlreadyRunningError,
    ScheduleIntervalSpec,
    ScheduleOverlapPolicy,
    SchedulePolicy,
    ScheduleSpec,
    ScheduleState,
    ScheduleUpdate,
    ScheduleUpdateInput,
)

from adapters.settings import DEFAULT_TASK_QUEUE
from domain.beliefs.lifecycle import SWEEP_LANES
from workflows.embedding_backfill import BackfillInput, EmbeddingBackfillWorkflow
from workflows.retirement_sweep import RetirementSweepWorkflow, SweepInput

SCHEDULE_ID: Final = "memory-retirement-sweep"
# Temporal appends the scheduled time, so each run has its own id and an operator can find them by prefix.
SWEEP_WORKFLOW_ID: Final = "retirement-sweep"
DEFAULT_INTERVAL: Final = timedelta(hours=1)
EMBEDDING_SCHEDULE_ID: Final = "memory-embedding-backfill"
EMBEDDING_WORKFLOW_ID: Final = "embedding-backfill"
# How long a committed belief may wait for its vector (it is recallable by its words meanwhile).
EMBEDDING_INTERVAL: Final = timedelta(minutes=1)


class Installed(StrEnum):
    CREATED = "created"
    UPDATED = "updated"


def retirement_schedule(
    interval: timedelta, task_queue: str = DEFAULT_TASK_QUEUE, lanes: int = SWEEP_LANES
) -> Schedule:
    if interval <= timedelta(0):
        raise ValueError("the sweep interval must be positive")
    return Schedule(
        action=ScheduleActionStartWorkflow(
            RetirementSweepWorkflow.run,
            SweepInput(lanes=lanes),
            id=SWEEP_WORKFLOW_ID,
            task_queue=task_queue,
        ),
        spec=ScheduleSpec(intervals=[ScheduleIntervalSpec(every=interval)]),
        # A sweep still running when the next is due makes the next one redundant, not concurrent.
        policy=SchedulePolicy(overlap=ScheduleOverlapPolicy.SKIP),
        state=ScheduleState(note="lifecycle@2 retirement sweep; installed by `agent schedule install`"),
    )


async def install_retirement_schedule(
    client: Client,
    *,
    interval: timedelta = DEFAULT_INTERVAL,
    task_queue: str = DEFAULT_TASK_QUEUE,
    lanes: int = SWEEP_LANES,
) -> Installed:
    """Idempotent: creates the schedule, or replaces its action, spec and policy when it exists."""
    return await _install(client, SCHEDULE_ID, retirement_schedule(interval, task_queue, lanes))


def embedding_schedule(
    interval: timedelta = EMBEDDING_INTERVAL, task_queue: str = DEFAULT_TASK_QUEUE
) -> Schedule:
    return Schedule(
        action=ScheduleActionStartWorkflow(
            EmbeddingBackfillWorkflow.run, BackfillInput(), id=EMBEDDING_WORKFLOW_ID, task_queue=task_queue
        ),
        spec=ScheduleSpec(intervals=[ScheduleIntervalSpec(every=interval)]),
        policy=SchedulePolicy(overlap=ScheduleOverlapPolicy.SKIP),
        state=ScheduleState(note="embeds committed beliefs for recall by meaning; `agent schedule install`"),
    )


async def install_embedding_schedule(client: Client, *, task_queue: str = DEFAULT_TASK_QUEUE) -> Installed:
    """Idempotent, like install_retirement_schedule."""
    return await _install(client, EMBEDDING_SCHEDULE_ID, embedding_schedule(task_queue=task_queue))


async def _install(client: Client, schedule_id: str, schedule: Schedule) -> Installed:
    try:
        await client.create_schedule(schedule_id, schedule)
        return Installed.CREATED
    except ScheduleAlreadyRunningError:
        pass

    def replace(_: ScheduleUpdateInput) -> ScheduleUpdate:
        return ScheduleUpdate(schedule=schedule)

    await client.get_schedule_handle(schedule_id).update(replace)
    return Installed.UPDATED
