"""The retirement sweep's page: lifecycle@2's decisions applied to the store one bounded page at a time."""

from collections.abc import Callable
from datetime import datetime
from uuid import UUID, uuid4

from domain.beliefs.lifecycle import (
    SWEEP_PAGE_SIZE,
    WHOLE_ID_SPACE,
    ExpiryCursor,
    SweepLane,
    SweepPage,
    cutoffs,
    decide,
    retirement_audit,
)
from domain.beliefs.records import ClosedReason
from domain.ports import UnitOfWork


def sweep_page(
    uow: UnitOfWork,
    now: datetime,
    after: ExpiryCursor | None,
    limit: int = SWEEP_PAGE_SIZE,
    lane: SweepLane = WHOLE_ID_SPACE,
) -> SweepPage:
    """Retire one page of expired beliefs in the caller's unit of work (the caller commits).

    The store runs the page (``UnitOfWork.retire_expired_page``): a store may do it set-based in one
    statement, and must give the answers ``sweep_page_by_facts`` gives (the contract suite holds both stores
    to them). Only rows of ``lane`` are examined, so the lanes of one sweep run side by side. Safe to run
    concurrently with itself and with consolidation: a row is retired only if it is still live and expired
    on its current facts, and only retired rows get an audit.
    """
    return uow.retire_expired_page(now, after, limit, lane)


def sweep_page_by_facts(
    uow: UnitOfWork,
    now: datetime,
    after: ExpiryCursor | None,
    limit: int = SWEEP_PAGE_SIZE,
    lane: SweepLane = WHOLE_ID_SPACE,
    *,
    new_id: Callable[[], UUID] = uuid4,
) -> SweepPage:
    """The reference page: read the expiry facts, decide each here, retire conditionally, audit the retired.

    Safe to run concurrently with itself and with consolidation: the store retires a row only if it is still
    live and its deciding facts are unchanged, and only retired rows get an audit.
    """
    if after is not None and after.expires_at is not None:
        # A cursor in another store's (expires_at, id) order means nothing here: start over (idempotent).
        after = None
    policy = cutoffs(now)
    candidates = uow.beliefs.expiry_candidates(policy, after, limit, lane)
    decided = [r for r in (decide(facts, now) for facts in candidates) if r is not None]
    retired = uow.beliefs.retire(decided) if decided else []
    if retired:
        uow.audits.record_many([retirement_audit(r, now, new_id()) for r in retired])
    by_reason: dict[ClosedReason, int] = {}
    for r in retired:
        by_reason[r.reason] = by_reason.get(r.reason, 0) + 1
    return SweepPage(
        examined=len(candidates),
        retired=len(retired),
        skipped_changed=len(decided) - len(retired),
        by_reason=by_reason,
        next_cursor=candidates[-1].cursor if candidates else after,
        done=len(candidates) < limit,
    )
