"""retire_expired_page: one page of the retirement sweep, one short unit of work."""

import logging

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field
from temporalio import activity

from domain.beliefs.lifecycle import SWEEP_PAGE_SIZE, WHOLE_ID_SPACE, ExpiryCursor, SweepLane, SweepPage
from domain.beliefs.sweep import sweep_page
from domain.ports import UnitOfWorkFactory
from domain.staging import STAGED_RETENTION

log = logging.getLogger(__name__)


class RetirePageInput(BaseModel):
    """Ids, instants and a cursor only: the sweep's history never holds a statement or subject."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # Fixed for a whole sweep (across continue-as-new) so every page applies the same cutoffs.
    as_of: AwareDatetime
    after: ExpiryCursor | None = None
    limit: int = Field(default=SWEEP_PAGE_SIZE, ge=1, le=10_000)
    lane: SweepLane = WHOLE_ID_SPACE


class RetirementActivities:
    def __init__(self, uow_factory: UnitOfWorkFactory) -> None:
        self._uow = uow_factory

    @activity.defn(name="retire_expired_page")
    def retire_expired_page(self, params: RetirePageInput) -> SweepPage:
        # A killed attempt rolls back whole; the retry (or the next sweep) finds the same rows still live.
        with self._uow() as uow:
            page = sweep_page(uow, params.as_of, params.after, params.limit, params.lane)
            # Each page also removes a bounded page of stage documents no commit will read: so none
            # outlives STAGED_RETENTION by more than the sweep's schedule.
            stale = uow.staged.purge_stale(params.as_of - STAGED_RETENTION, params.limit)
            uow.commit()
        log.info(
            "retirement page",
            extra={
                "lane": params.lane.index,
                "lanes": params.lane.of,
                "examined": page.examined,
                "retired": page.retired,
                "skipped_changed": page.skipped_changed,
                "done": page.done,
                "stale_staged_removed": stale,
            },
        )
        return page
