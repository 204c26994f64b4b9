"""RetirementSweepWorkflow: started by the Temporal Schedule "memory-retirement-sweep".

    as_of = workflow.now() of the first run (carried across continue-as-new)
    loop:
      retire_expired_page(as_of, cursor, 5,000) ──▶ SweepPage (counts and a cursor, no content)
      done?            ──▶ return the totals
      many pages run?  ──▶ continue-as-new with the cursor and the totals

Every decision (which beliefs are expired, what reason code, when validity ends) is domain.lifecycle's; the
workflow only walks the expiry index page by page. Running it twice at once, or beside consolidation, is
safe: the store retires a row only while it is live and unchanged.
"""

from datetime import datetime, timedelta

from pydantic import AwareDatetime, BaseModel, ConfigDict, NonNegativeInt
from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from activities.retirement import RetirementActivities, RetirePageInput
    from domain.beliefs import ClosedReason
    from domain.lifecycle import SWEEP_PAGE_SIZE, ExpiryCursor
    from workflows.policies import INFRASTRUCTURE_RETRY

# A page is one transaction of at most 5,000 rows: well under a minute even on a busy database.
PAGE_START_TO_CLOSE = timedelta(minutes=2)
# Each page adds about 6 history events (activity scheduled/started/completed, workflow task triple), so
# 250 pages stay near 1,500 events: far below Temporal's 10,240-event warning.
MAX_PAGES_PER_RUN = 250


class SweepInput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    as_of: AwareDatetime | None = None
    after: ExpiryCursor | None = None
    page_size: NonNegativeInt = SWEEP_PAGE_SIZE
    pages_per_run: NonNegativeInt = MAX_PAGES_PER_RUN
    pages_before: NonNegativeInt = 0
    retired_before: NonNegativeInt = 0
    examined_before: NonNegativeInt = 0
    skipped_before: NonNegativeInt = 0
    by_reason_before: dict[ClosedReason, NonNegativeInt] = {}
    runs_before: NonNegativeInt = 0


class SweepSummary(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    as_of: datetime
    pages: NonNegativeInt
    examined: NonNegativeInt
    retired: NonNegativeInt
    skipped_changed: NonNegativeInt
    by_reason: dict[ClosedReason, NonNegativeInt]
    runs: NonNegativeInt


@workflow.defn(name="RetirementSweep")
class RetirementSweepWorkflow:
    @workflow.run
    async def run(self, params: SweepInput) -> SweepSummary:
        as_of = params.as_of or workflow.now()
        after = params.after
        pages, retired = params.pages_before, params.retired_before
        examined, skipped = params.examined_before, params.skipped_before
        by_reason = dict(params.by_reason_before)
        pages_this_run = 0
        while True:
            page = await workflow.execute_activity_method(
                RetirementActivities.retire_expired_page,
                RetirePageInput(as_of=as_of, after=after, limit=params.page_size or SWEEP_PAGE_SIZE),
                start_to_close_timeout=PAGE_START_TO_CLOSE,
                retry_policy=INFRASTRUCTURE_RETRY,
            )
            pages, pages_this_run = pages + 1, pages_this_run + 1
            retired, examined = retired + page.retired, examined + page.examined
            skipped += page.skipped_changed
            for reason, count in page.by_reason.items():
                by_reason[reason] = by_reason.get(reason, 0) + count
            after = page.next_cursor
            if page.done:
                workflow.logger.info("retirement sweep finished", extra={"pages": pages, "retired": retired})
                return SweepSummary(
                    as_of=as_of,
                    pages=pages,
                    examined=examined,
                    retired=retired,
                    skipped_changed=skipped,
                    by_reason=by_reason,
                    runs=params.runs_before + 1,
                )
            if (
                pages_this_run >= (params.pages_per_run or MAX_PAGES_PER_RUN)
                or workflow.info().is_continue_as_new_suggested()
            ):
                workflow.continue_as_new(
                    SweepInput(
                        as_of=as_of,
                        after=after,
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


__all__ = ["MAX_PAGES_PER_RUN", "RetirementSweepWorkflow", "SweepInput", "SweepSummary"]
