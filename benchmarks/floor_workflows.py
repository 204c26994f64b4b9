"""Floor workflows: the shape of one consolidation with nothing inside it, for the consolidation benchmark.

What a consolidation of a one-segment session costs Temporal and the worker is set by its shape, not only by
the code inside it. These workflows keep the real shape (docs/design.md: a session workflow started by
signal-with-start "idle", one FormSegment child per planned segment, exactly three provider activities per
segment, the store steps as local activities, the search attributes set at start and the outcome upserted)
with the same names, timeouts and retry policies, but no store, no provider and no domain code: every
activity returns a constant, the three stages after sleeping the injected latency L inside the same
heartbeat guard. Workflow and activity inputs and results are a few bytes instead of the real ids, refs and
reports. Their CPU per consolidation is therefore the floor of that shape on this worker and server: no
change inside the real activities and workflow bodies can take the real consolidation below it.

The shapes (FloorShape): "floor" is the real one (same history events, workflow tasks, activity tasks and
local activities); the others each drop one design element to price it:

    floor            session + child per segment; 3 stage activities; 3 local activities; outcome upsert
    floor-no-child   the three stages and the commit in the session workflow itself (no child)
    floor-no-local   no local activities (no load_batch, commit or advance_watermark markers)
    floor-no-upsert  no ConsolidationOutcome upsert at the end of the round
    floor-bare       one workflow of three activities, started plainly: nothing else

Not sandboxed, like the real workflows (workflows/consolidate_session.py says why).
"""

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from temporalio import activity, workflow
from temporalio.common import SearchAttributePair, TypedSearchAttributes

with workflow.unsafe.imports_passed_through():
    from activities.heartbeat import heartbeating
    from workflows.policies import (
        HEARTBEAT_TIMEOUT,
        INFRASTRUCTURE_RETRY,
        LOCAL_RETRY_THRESHOLD,
        LOCAL_STORE_START_TO_CLOSE,
        PROVIDER_STAGE_START_TO_CLOSE,
    )
    from workflows.search_attributes import CONSOLIDATION_OUTCOME, FORMATION_POLICY

# What the real session shows in its search attributes: the policy it runs and the round's outcome.
POLICY: Final = "formation@9"
OUTCOME: Final = "completed"


@dataclass(frozen=True)
class FloorShape:
    child: bool = True
    local: bool = True
    upsert: bool = True


SHAPES: Final[dict[str, FloorShape | None]] = {
    "floor": FloorShape(),
    "floor-no-child": FloorShape(child=False),
    "floor-no-local": FloorShape(local=False),
    "floor-no-upsert": FloorShape(upsert=False),
    # None: FloorBareWorkflow, not a session.
    "floor-bare": None,
}


class FloorActivities:
    """The real activities' names and kinds, constant results. Sync on the worker's thread pool, like the
    real ones."""

    def __init__(self, latency_s: float) -> None:
        self._latency_s = latency_s

    def _stage(self) -> int:
        with heartbeating():
            time.sleep(self._latency_s)
        return 1

    @activity.defn(name="integrate_episodes")
    def integrate_episodes(self) -> int:
        return self._stage()

    @activity.defn(name="anticipate")
    def anticipate(self) -> int:
        return self._stage()

    @activity.defn(name="distill")
    def distill(self) -> int:
        return self._stage()

    @activity.defn(name="load_batch")
    def load_batch(self) -> int:
        return 1

    @activity.defn(name="commit_segment")
    def commit_segment(self) -> int:
        return 1

    @activity.defn(name="advance_watermark")
    def advance_watermark(self) -> int:
        return 1

    def all(self) -> list[Callable[[], int]]:
        return [
            self.integrate_episodes,
            self.anticipate,
            self.distill,
            self.load_batch,
            self.commit_segment,
            self.advance_watermark,
        ]


async def _local(name: str) -> None:
    """A store step as the real workflows run it (workflows/poison.py store_local)."""
    await workflow.execute_local_activity(
        name,
        start_to_close_timeout=LOCAL_STORE_START_TO_CLOSE,
        local_retry_threshold=LOCAL_RETRY_THRESHOLD,
        retry_policy=INFRASTRUCTURE_RETRY,
    )


async def _stages() -> None:
    """The three provider stages, one after the other (workflows/stages.py)."""
    for name in ("integrate_episodes", "anticipate", "distill"):
        await workflow.execute_activity(
            name,
            start_to_close_timeout=PROVIDER_STAGE_START_TO_CLOSE,
            heartbeat_timeout=HEARTBEAT_TIMEOUT,
            retry_policy=INFRASTRUCTURE_RETRY,
        )


async def _segment(local: bool) -> None:
    await _stages()
    if local:
        await _local("commit_segment")


@workflow.defn(name="FloorSegment", sandboxed=False)
class FloorSegmentWorkflow:
    @workflow.run
    async def run(self, local: bool) -> int:
        await _segment(local)
        return 1


@workflow.defn(name="FloorSession", sandboxed=False)
class FloorSessionWorkflow:
    """One round per idle, like ConsolidateSession: plan, the segment, advance, show the outcome."""

    def __init__(self) -> None:
        self._idle_pending = False

    @workflow.signal(name="idle")
    def idle(self) -> None:
        self._idle_pending = True

    @workflow.run
    async def run(self, shape: FloorShape) -> int:
        rounds = 0
        while self._idle_pending:
            self._idle_pending = False
            if shape.local:
                await _local("load_batch")
            if shape.child:
                await workflow.execute_child_workflow(
                    FloorSegmentWorkflow.run,
                    shape.local,
                    id=f"segment/{workflow.uuid4()}/0",
                    search_attributes=TypedSearchAttributes([SearchAttributePair(FORMATION_POLICY, POLICY)]),
                )
            else:
                await _segment(shape.local)
            if shape.local:
                await _local("advance_watermark")
            if shape.upsert:
                workflow.upsert_search_attributes([CONSOLIDATION_OUTCOME.value_set(OUTCOME)])
            rounds += 1
        return rounds


@workflow.defn(name="FloorBare", sandboxed=False)
class FloorBareWorkflow:
    @workflow.run
    async def run(self) -> int:
        await _stages()
        return 1


WORKFLOWS: Final = (FloorSessionWorkflow, FloorSegmentWorkflow, FloorBareWorkflow)

__all__ = ["SHAPES", "WORKFLOWS", "FloorActivities", "FloorShape"]
