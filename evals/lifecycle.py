"""The lifecycle facts a case pins, checked on the store after its sessions consolidated.

Citations and timed checks run in time order: a citation is a faithful model citation through the usage
clock (domain.beliefs.usage.complete_run), and a timed check first runs the retirement sweep as of its
instant, so "live at" and "retired at" test the real sweep against the real evidence clock. The belief an
expectation formed is the first automatic belief that matched it after a session (its id survives a
promotion); a check whose expectation formed nothing fails.
"""

from collections.abc import Callable
from datetime import datetime
from uuid import UUID, uuid4

from domain.beliefs.records import Authority, ClosedReason, MemoryRecord
from domain.beliefs.sweep import sweep_page
from domain.beliefs.usage import complete_run
from domain.candidates import Derivation
from domain.ports import UnitOfWorkFactory
from domain.telemetry import ConsolidationRun, ReasonCategory
from evals.corpus import CASE_OWNER, Case, CheckKind, Citation, LifecycleCheck

_RETIRED = frozenset(
    {ClosedReason.RETIRED_HYPOTHESIS, ClosedReason.RETIRED_ONGOING, ClosedReason.RETIRED_DURABLE}
)
_USER_CLOSED = frozenset({ClosedReason.RETRACTED, ClosedReason.SUPERSEDED})
# Bounds the sweep of one check: a case holds a few dozen beliefs.
_SWEEP_PAGES = 64


def automatic_beliefs(uow_factory: UnitOfWorkFactory) -> list[MemoryRecord]:
    """Every automatic belief of the case owner, live or closed, paged by id."""
    found: list[MemoryRecord] = []
    after: UUID | None = None
    with uow_factory() as uow:
        while True:
            page = uow.beliefs.page(CASE_OWNER, after, 256, live_only=False)
            found += [b for b in page if b.authority is Authority.AUTOMATIC]
            if len(page) < 256:
                return found
            after = page[-1].id


def failed_checks(
    uow_factory: UnitOfWorkFactory,
    case: Case,
    runs: list[ConsolidationRun],
    formed_by: Callable[[int], UUID | None],
) -> int:
    """How many of the case's checks do not hold; `formed_by(i)` names expectation i's belief."""
    # A citation and a check at one instant: the citation first, as it happened before the look.
    timeline: list[tuple[datetime, int, Citation | LifecycleCheck]] = [(c.at, 0, c) for c in case.citations]
    timeline += [(check.at, 1, check) for check in case.checks if check.at is not None]
    failed = 0
    for at, _, item in sorted(timeline, key=lambda entry: (entry[0], entry[1])):
        belief_id = formed_by(item.expectation)
        if isinstance(item, LifecycleCheck):
            failed += not _timed_holds(uow_factory, item, belief_id, at)
        elif belief_id is not None:
            with uow_factory() as uow:
                complete_run(uow, CASE_OWNER, uuid4(), [belief_id], [belief_id], at)
                uow.commit()
    promoted = sum(run.categories.get(ReasonCategory.PROMOTED, 0) for run in runs)
    for check in (c for c in case.checks if c.at is None):
        belief = _belief(uow_factory, formed_by(check.expectation))
        failed += not _untimed_holds(check, belief, promoted)
    return failed


def _belief(uow_factory: UnitOfWorkFactory, belief_id: UUID | None) -> MemoryRecord | None:
    if belief_id is None:
        return None
    with uow_factory() as uow:
        return uow.beliefs.get(CASE_OWNER, belief_id)


def _timed_holds(
    uow_factory: UnitOfWorkFactory, check: LifecycleCheck, belief_id: UUID | None, at: datetime
) -> bool:
    after = None
    for _ in range(_SWEEP_PAGES):
        with uow_factory() as uow:
            page = sweep_page(uow, at, after)
            uow.commit()
        if page.done:
            break
        after = page.next_cursor
    belief = _belief(uow_factory, belief_id)
    if belief is None:
        return False
    if check.check is CheckKind.LIVE:
        return belief.is_live
    return belief.closed_reason in _RETIRED


def _untimed_holds(check: LifecycleCheck, belief: MemoryRecord | None, promoted: int) -> bool:
    if belief is None:
        return False
    if check.check is CheckKind.PROMOTED:
        return promoted > 0 and belief.is_live and belief.derivation is Derivation.DIRECT
    if check.check is CheckKind.SUPERSEDED:
        return belief.closed_reason in _USER_CLOSED
    return belief.corroboration_count >= (check.sessions or 0)
