"""RetirementSweepWorkflow: started by the Temporal Schedule "memory-retirement-sweep".

    as_of = workflow.now() of the first run (carried across continue-as-new)
    loop:
      for each lane not done, side by side:
        retire_expired_page(as_of, lane, lane's cursor, 10,000) ──▶ SweepPage (counts and a cursor, no content)
      every lane done? ──▶ return the totals
      many pages run?  ──▶ continue-as-new with each lane's cursor and the totals

Every decision (which beliefs are expired, what reason code, when validity ends) is
domain.beliefs.lifecycle's; the workflow only walks the expiry index page by page, one cursor per lane.
Lanes hold disjoint id ranges, so they never touch the same row. Running it twice at once, or beside
consolidation, is safe: the store retires a row only while it is live and unchanged.
"""

import asyncio
from datetime import datetime

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, NonNegativeInt, PositiveInt
from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from activities.retirement import RetirementActivities, RetirePageInput
    from domain.beliefs.lifecycle import (
        MAX_SWEEP_LANES,
        SWEEP_PAGE_SIZE,
        ExpiryCursor,
        SweepLane,
        SweepPage,
        sweep_lanes,
    )
    from domain.beliefs.records import ClosedReason
    from workflows.policies import INFRASTRUCTURE_RETRY, SWEEP_PAGE_START_TO_CLOSE

# Each page adds 3 activity events and each round of pages a workflow task triple, so 250 pages stay below
# 1,500 events at any lane count: far below Temporal's 10,240-event warning.
MAX_PAGES_PER_RUN = 250


class LaneProgress(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    lane: SweepLane
    after: ExpiryCursor | None = None
    done: bool = False

    def advanced(self, page: SweepPage) -> "LaneProgress":
        return LaneProgress(lane=self.lane, after=page.next_cursor, done=page.done)


class SweepInput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    as_of: AwareDatetime | None = None
    # One lane unless asked: a run started (or continued as new) before lanes existed replays as one lane.
    # The schedule asks for domain.beliefs.lifecycle.SWEEP_LANES.
    lanes: PositiveInt = Field(default=1, le=MAX_SWEEP_LANES)
    # The cursor of a one-lane run continued as new before lanes existed; ``progress`` supersedes it.
    after: ExpiryCursor | None = None
    progress: tuple[LaneProgress, ...] = ()
    page_size: NonNegativeInt = SWEEP_PAGE_SIZE
    pages_per_run: NonNegativeInt = MAX_PAGES_PER_RUN
    pages_before: NonNegativeInt = 0
    retired_before: NonNegativeInt = 0
    examined_before: NonNegativeInt = 0
    skipped_before: NonNegativeInt = 0
    by_reason_before: dict[ClosedReason, NonNegativeInt] = {}
    runs_before: NonNegativeInt = 0

    def lane_progress(self) -> list[LaneProgress]:
        if self.progress:
            return list(self.progress)
        return [
            LaneProgress(lane=lane, after=self.after if self.lanes == 1 else None)
            for lane in sweep_lanes(self.lanes)
        ]


class SweepSummary(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    as_of: datetime
    pages: NonNegativeInt
    examined: NonNegativeInt
    retired: NonNegativeInt
    skipped_changed: NonNegativeInt
    by_reason: dict[ClosedReason, NonNegativeInt]
    runs: NonNegativeInt
    lanes: PositiveInt = 1


@workflow.defn(name="RetirementSweep")
class RetirementSweepWorkflow:
    @workflow.run
    async def run(self, params: SweepInput) -> SweepSummary:
        as_of = params.as_of or workflow.now()
        progress = params.lane_progress()
        pages, retired = params.pages_before, params.retired_before
        examined, skipped = params.examined_before, params.skipped_before
        by_reason = dict(params.by_reason_before)
        pages_this_run = 0
        while True:
            running = [lane for lane in progress if not lane.done]
            results = await asyncio.gather(
                *(
                    workflow.execute_activity_method(
                        RetirementActivities.retire_expired_page,
                        RetirePageInput(
                            as_of=as_of,
                            after=lane.after,
                            limit=params.page_size or SWEEP_PAGE_SIZE,
                            lane=lane.lane,
                        ),
                        start_to_close_timeout=SWEEP_PAGE_START_TO_CLOSE,
                        retry_policy=INFRASTRUCTURE_RETRY,
                    )
                    for lane in running
                )
            )
            advanced = {lane.lane: lane.advanced(page) for lane, page in zip(running, results, strict=True)}
            progress = [advanced.get(lane.lane, lane) for lane in progress]
            for page in results:
                pages, pages_this_run = pages + 1, pages_this_run + 1
                retired, examined = retired + page.retired, examined + page.examined
                skipped += page.skipped_changed
                for reason, count in page.by_reason.items():
                    by_reason[reason] = by_reason.get(reason, 0) + count
            if all(lane.done for lane in progress):
                workflow.logger.info("retirement sweep finished", extra={"pages": pages, "retired": retired})
                return SweepSummary(
                    as_of=as_of,
                    pages=pages,
                    examined=examined,
                    retired=retired,
                    skipped_changed=skipped,
                    by_reason=by_reason,
                    runs=params.runs_before + 1,
                    lanes=len(progress),
                )
            if (
                pages_this_run >= (params.pages_per_run or MAX_PAGES_PER_RUN)
                or workflow.info().is_continue_as_new_suggested()
            ):
                workflow.continue_as_new(
                    SweepInput(
                        as_of=as_of,
                        lanes=len(progress),
                        progress=tuple(progress),
                        page_size=params.page_size,
                        pages_per_run=params.pages_per_run,
                        pages_before=pages,
                        retired_before=retired,
                        examined_before=examined,
                        skipped_before=skipped,
                        by_reason_before=by_reason,
                        runs_before=params.runs_before + 1,
                    )
                )


__all__ = ["MAX_PAGES_PER_RUN", "LaneProgress", "RetirementSweepWorkflow", "SweepInput", "SweepSummary"]
