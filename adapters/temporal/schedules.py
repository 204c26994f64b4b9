"""The retirement sweep's Temporal Schedule: `agent schedule install` creates it or updates it in place."""

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
from workflows.retirement_sweep import RetirementSweepWorkflow, SweepInput

SCHEDULE_ID: Final = "memory-retirement-sweep"
# Temporal appends the scheduled time, so each run has its own id and an operator can find them by prefix.
SWEEP_WORKFLOW_ID: Final = "retirement-sweep"
DEFAULT_INTERVAL: Final = timedelta(hours=1)


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
    schedule = retirement_schedule(interval, task_queue, lanes)
    try:
        await client.create_schedule(SCHEDULE_ID, schedule)
        return Installed.CREATED
    except ScheduleAlreadyRunningError:
        pass

    def replace(_: ScheduleUpdateInput) -> ScheduleUpdate:
        return ScheduleUpdate(schedule=schedule)

    await client.get_schedule_handle(SCHEDULE_ID).update(replace)
    return Installed.UPDATED
