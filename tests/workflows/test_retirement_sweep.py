"""The retirement sweep on real Temporal and real PostgreSQL: 30 and 90 days driven by the time-skipping
server, continue-as-new, concurrency with itself, a killed page, and the schedule on the dev server."""

import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from types import TracebackType
from typing import Any, Self

import pytest
from temporalio.api.enums.v1 import EventType
from temporalio.client import ScheduleActionStartWorkflow, ScheduleIntervalSpec, WorkflowFailureError
from temporalio.contrib.pydantic import pydantic_data_converter

from adapters.postgres.uow import PostgresStore
from adapters.temporal.schedules import SCHEDULE_ID, Installed, install_retirement_schedule
from adapters.temporal.worker import WorkerPorts
from domain.beliefs.lifecycle import HYPOTHESIS_HORIZON, ONGOING_HORIZON, SWEEP_LANES
from domain.beliefs.recall import recall
from domain.beliefs.records import ClosedReason, MemoryRecord
from domain.beliefs.usage import complete_run
from domain.candidates import ClaimKind, Derivation, Longevity
from domain.owner import Owner
from domain.telemetry import AuditKind
from tests.builders import OWNER, belief
from tests.workflows.conftest import time_skipping_harness
from tests.workflows.harness import Harness
from workflows.retirement_sweep import RetirementSweepWorkflow, SweepInput, SweepSummary

pytestmark = [pytest.mark.postgres, pytest.mark.temporal]

SECOND = timedelta(seconds=1)


@pytest.fixture(scope="module")
def skipping() -> Iterator[Harness]:
    with time_skipping_harness() as h:
        yield h


def _now(h: Harness) -> datetime:
    assert h.env is not None
    return h.run(h.env.get_current_time()).astimezone(UTC)


def _skip_to(h: Harness, instant: datetime) -> None:
    assert h.env is not None
    gap = instant - _now(h)
    if gap > timedelta(0):
        h.run(h.env.sleep(gap))
    assert _now(h) >= instant


def _sweep(h: Harness, tq: str, params: SweepInput | None = None, wf_id: str | None = None) -> SweepSummary:
    assert h.env is not None
    # The sweep has no timers; time moves only by _skip_to. Auto-skipping while waiting for a result
    # would jump the server's clock years ahead once the workflow has completed.
    with h.env.auto_time_skipping_disabled():
        return h.run(
            h.client.execute_workflow(
                RetirementSweepWorkflow.run,
                params or SweepInput(),
                id=wf_id or f"retirement-sweep-test-{uuid.uuid4().hex[:8]}",
                task_queue=tq,
            )
        )


def _hypothesis(at: datetime, **overrides: Any) -> MemoryRecord:
    values: dict[str, Any] = {
        "subject": "experience:software",
        "statement": "User likely has software-development experience.",
        "belief_type": "skill",
        "claim_kind": ClaimKind.SKILL,
        "derivation": Derivation.HYPOTHESIS,
        "longevity": Longevity.TENTATIVE,
        "confidence": 0.35,
        "valid_from": at,
        "last_evidence_at": at,
        "updated_at": at,
    }
    values.update(overrides)
    return belief(**values)


def _ongoing(at: datetime, **overrides: Any) -> MemoryRecord:
    return belief(**{"valid_from": at, "last_evidence_at": at, "updated_at": at, **overrides})


def _put(store: PostgresStore, *records: MemoryRecord) -> None:
    with store() as uow:
        for record in records:
            uow.beliefs.upsert(record)
        uow.commit()


def _get(store: PostgresStore, record: MemoryRecord, owner: Owner = OWNER) -> MemoryRecord:
    with store() as uow:
        found = uow.beliefs.get(owner, record.id)
    assert found is not None
    return found


def _use(store: PostgresStore, record: MemoryRecord, now: datetime) -> None:
    """The agent recalls the belief, answers, and cites it: usage that must not extend its life."""
    with store() as uow:
        recalled = recall(uow, OWNER, now)
        assert record.id in recalled.returned_ids
        report = complete_run(uow, OWNER, uuid.uuid4(), recalled.returned_ids, [record.id], now)
        uow.commit()
    assert report.cited == 1


def _boundary_gate(
    skipping: Harness, store: PostgresStore, record: MemoryRecord, horizon: timedelta, reason: ClosedReason
) -> None:
    boundary = record.last_evidence_at + horizon
    tq = f"tq-{uuid.uuid4().hex[:8]}"
    with skipping.worker(WorkerPorts(uow_factory=store, provider=None), task_queue=tq):
        for share in (0.25, 0.5, 0.9):
            _skip_to(skipping, record.last_evidence_at + horizon * share)
            _use(store, record, _now(skipping))
        _skip_to(skipping, boundary - SECOND)
        _use(store, record, _now(skipping))
        before = _sweep(skipping, tq)
        assert boundary - SECOND <= before.as_of < boundary
        live = _get(store, record)
        assert live.is_live and live.last_used_at is not None and live.last_used_at > record.last_evidence_at
        assert live.last_evidence_at == record.last_evidence_at
        assert live.evidence_count == record.evidence_count and live.confidence == record.confidence

        _skip_to(skipping, boundary)
        at = _sweep(skipping, tq)
        assert at.as_of >= boundary
        gone = _get(store, record)
        assert gone.closed_reason is reason and gone.valid_to == boundary
        assert at.by_reason.get(reason, 0) >= 1
        with store() as uow:
            assert record.id not in recall(uow, OWNER, at.as_of).returned_ids
        again = _sweep(skipping, tq)
        assert again.retired == 0
    with store() as uow:
        audits = [
            a
            for a in uow.audits.for_owner(OWNER, AuditKind.MEMORY_RETIRED)
            if a.details["belief_id"] == str(record.id)
        ]
    assert len(audits) == 1 and audits[0].details["reason"] == reason.value
    assert record.statement not in repr(audits[0].model_dump())


def test_gate_memory_hypothesis_retirement_exact_boundary_whatever_citation_happened(
    skipping: Harness, store: PostgresStore
) -> None:
    t0 = _now(skipping).replace(microsecond=0)
    hypothesis = _hypothesis(t0)
    ongoing = _ongoing(t0)
    # A skewed client clock dated this evidence ten days ahead: it must not retire before its own boundary.
    skewed = _hypothesis(t0 + timedelta(days=10), valid_from=t0)
    _put(store, hypothesis, ongoing, skewed)
    _boundary_gate(skipping, store, hypothesis, HYPOTHESIS_HORIZON, ClosedReason.RETIRED_HYPOTHESIS)
    assert _get(store, ongoing).is_live
    assert _get(store, skewed).is_live
    tq = f"tq-{uuid.uuid4().hex[:8]}"
    with skipping.worker(WorkerPorts(uow_factory=store, provider=None), task_queue=tq):
        _skip_to(skipping, t0 + timedelta(days=40))
        _sweep(skipping, tq)
    assert _get(store, skewed).closed_reason is ClosedReason.RETIRED_HYPOTHESIS


def test_gate_memory_ongoing_retirement_exact_boundary_and_self_use_cannot_extend_it(
    skipping: Harness, store: PostgresStore
) -> None:
    t0 = _now(skipping).replace(microsecond=0)
    ongoing = _ongoing(t0)
    remembered = _ongoing(t0, authority="explicit_remember", confidence=0.95)
    durable_role = _ongoing(t0, claim_kind=ClaimKind.ROLE, belief_type="role", longevity=Longevity.DURABLE)
    _put(store, ongoing, remembered, durable_role)
    _boundary_gate(skipping, store, ongoing, ONGOING_HORIZON, ClosedReason.RETIRED_ONGOING)
    assert _get(store, remembered).is_live
    assert _get(store, durable_role).is_live


def test_sweep_pages_continue_as_new_and_keep_history_small(skipping: Harness, store: PostgresStore) -> None:
    t0 = _now(skipping) - timedelta(days=31)
    records = [_hypothesis(t0 + timedelta(seconds=i)) for i in range(9)]
    _put(store, *records)
    tq = f"tq-{uuid.uuid4().hex[:8]}"
    wf_id = f"retirement-sweep-can-{uuid.uuid4().hex[:8]}"
    with skipping.worker(WorkerPorts(uow_factory=store, provider=None), task_queue=tq):
        summary = _sweep(skipping, tq, SweepInput(page_size=2, pages_per_run=2), wf_id)
        histories = []
        for run_id in _run_ids(skipping, wf_id):
            history = skipping.run(skipping.client.get_workflow_handle(wf_id, run_id=run_id).fetch_history())
            histories.append(history)
    assert (summary.retired, summary.pages, summary.runs) == (9, 5, 3)
    assert len(histories) == 3
    assert max(len(h.events) for h in histories) < 40
    continued = [
        h
        for h in histories
        if h.events[-1].event_type == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW
    ]
    assert len(continued) == 2
    for history in histories:
        # Content-free: nothing of any belief's statement or subject enters the history.
        raw = history.to_json()
        assert records[0].statement not in raw and records[0].subject not in raw
    for record in records:
        assert _get(store, record).closed_reason is ClosedReason.RETIRED_HYPOTHESIS


def test_sweep_lanes_page_side_by_side_and_continue_as_new_with_every_lane_cursor(
    skipping: Harness, store: PostgresStore
) -> None:
    # Twelve ids spread evenly over the id space: four in each of three lanes, so each lane needs three
    # two-row pages (2, 2, then an empty one that says done).
    t0 = _now(skipping) - timedelta(days=31)
    records = [
        _hypothesis(t0 + timedelta(seconds=k), id=uuid.UUID(int=k * (1 << 128) // 12 + 7)) for k in range(12)
    ]
    _put(store, *records)
    tq = f"tq-{uuid.uuid4().hex[:8]}"
    wf_id = f"retirement-sweep-lanes-{uuid.uuid4().hex[:8]}"
    with skipping.worker(WorkerPorts(uow_factory=store, provider=None), task_queue=tq, max_activities=4):
        summary = _sweep(skipping, tq, SweepInput(lanes=3, page_size=2, pages_per_run=4), wf_id)
        histories = [
            skipping.run(skipping.client.get_workflow_handle(wf_id, run_id=run_id).fetch_history())
            for run_id in _run_ids(skipping, wf_id)
        ]
    assert (summary.retired, summary.pages, summary.lanes) == (12, 9, 3)
    # Rounds of 3 pages; the fourth page ends a run, so runs hold 6, then 3 pages.
    assert summary.runs == len(histories) == 2
    # Side by side: the first workflow task schedules one page per lane before any completes.
    kinds = [item.event_type for item in histories[0].events]
    after_first_task = kinds[kinds.index(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) + 1 :]
    assert after_first_task[:4] == [EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED] * 3 + [
        EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED
    ]
    with store() as uow:
        audits = uow.audits.for_owner(OWNER, AuditKind.MEMORY_RETIRED)
    assert sorted(str(a.details["belief_id"]) for a in audits) == sorted(str(r.id) for r in records)
    for history in histories:
        raw = history.to_json()
        assert records[0].statement not in raw and records[0].subject not in raw


def _run_ids(h: Harness, wf_id: str) -> list[str]:
    """Every run of a continue-as-new chain, first to last, walking back from the latest."""
    latest = h.run(h.client.get_workflow_handle(wf_id).describe()).run_id
    ids: list[str] = [latest]
    while True:
        history = h.run(h.client.get_workflow_handle(wf_id, run_id=ids[-1]).fetch_history())
        previous = history.events[0].workflow_execution_started_event_attributes.continued_execution_run_id
        if not previous:
            return list(reversed(ids))
        ids.append(previous)


def test_two_sweeps_at_once_never_retire_a_belief_twice(skipping: Harness, store: PostgresStore) -> None:
    t0 = _now(skipping) - timedelta(days=100)
    records = [_ongoing(t0 + timedelta(seconds=i % 7)) for i in range(60)]
    _put(store, *records)
    tq = f"tq-{uuid.uuid4().hex[:8]}"

    async def both() -> list[SweepSummary]:
        handles = [
            await skipping.client.start_workflow(
                RetirementSweepWorkflow.run,
                SweepInput(page_size=5),
                id=f"retirement-sweep-race-{i}-{uuid.uuid4().hex[:6]}",
                task_queue=tq,
            )
            for i in range(2)
        ]
        return [await handle.result() for handle in handles]

    assert skipping.env is not None
    with (
        skipping.env.auto_time_skipping_disabled(),
        skipping.worker(WorkerPorts(uow_factory=store, provider=None), task_queue=tq, max_activities=4),
    ):
        summaries = skipping.run(both())
    assert sum(s.retired for s in summaries) == 60
    with store() as uow:
        audits = uow.audits.for_owner(OWNER, AuditKind.MEMORY_RETIRED)
    assert sorted(str(a.details["belief_id"]) for a in audits) == sorted(str(r.id) for r in records)


class _FailSecondCommit:
    """A store whose second page never commits: the worker is killed mid-page, every attempt."""

    def __init__(self, inner: PostgresStore) -> None:
        self.inner = inner
        self.commits = 0
        self.failures = 0

    def __call__(self) -> "_Uow":
        return _Uow(self, self.inner())

    def autocommit(self) -> Any:
        return self.inner.autocommit()


class _Uow:
    def __init__(self, owner: _FailSecondCommit, inner: Any) -> None:
        self._owner, self._inner = owner, inner

    def __enter__(self) -> Self:
        self._inner.__enter__()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._inner.__exit__(exc_type, exc, tb)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def commit(self) -> None:
        if self._owner.commits >= 1:
            self._owner.failures += 1
            raise ConnectionError("worker killed before commit")
        self._owner.commits += 1
        self._inner.commit()


def test_sweep_killed_mid_page_retires_nothing_of_that_page_and_the_next_run_resumes(
    skipping: Harness, store: PostgresStore
) -> None:
    t0 = _now(skipping) - timedelta(days=31)
    records = [_hypothesis(t0 + timedelta(seconds=i)) for i in range(5)]
    _put(store, *records)
    flaky = _FailSecondCommit(store)
    tq = f"tq-{uuid.uuid4().hex[:8]}"
    wf_id = f"retirement-sweep-killed-{uuid.uuid4().hex[:8]}"
    assert skipping.env is not None
    with (
        skipping.env.auto_time_skipping_disabled(),
        skipping.worker(WorkerPorts(uow_factory=flaky, provider=None), task_queue=tq),
    ):
        skipping.run(
            skipping.client.start_workflow(
                RetirementSweepWorkflow.run, SweepInput(page_size=2), id=wf_id, task_queue=tq
            )
        )
        deadline = time.monotonic() + 30
        while flaky.failures < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        skipping.run(skipping.client.get_workflow_handle(wf_id).terminate(reason="test: killed sweep"))
        with pytest.raises(WorkflowFailureError):
            skipping.run(skipping.client.get_workflow_handle(wf_id).result())
    assert flaky.failures >= 2
    closed = [r for r in records if not _get(store, r).is_live]
    assert [r.id for r in closed] == [r.id for r in records[:2]]
    with skipping.worker(WorkerPorts(uow_factory=store, provider=None), task_queue=tq):
        resumed = _sweep(skipping, tq, SweepInput(page_size=2))
    assert resumed.retired == 3
    with store() as uow:
        audits = uow.audits.for_owner(OWNER, AuditKind.MEMORY_RETIRED)
    assert sorted(str(a.details["belief_id"]) for a in audits) == sorted(str(r.id) for r in records)


def test_schedule_install_is_idempotent_and_its_run_retires(harness: Harness, store: PostgresStore) -> None:
    stale = _hypothesis(datetime.now(UTC) - timedelta(days=31))
    _put(store, stale)
    tq = f"tq-{uuid.uuid4().hex[:8]}"
    client = harness.client
    handle = client.get_schedule_handle(SCHEDULE_ID)
    try:
        first = harness.run(install_retirement_schedule(client, interval=timedelta(hours=1), task_queue=tq))
        second = harness.run(install_retirement_schedule(client, interval=timedelta(hours=2), task_queue=tq))
        if first is Installed.UPDATED:  # left over by an interrupted earlier session
            assert second is Installed.UPDATED
        else:
            assert (first, second) == (Installed.CREATED, Installed.UPDATED)
        described = harness.run(handle.describe())
        intervals = described.schedule.spec.intervals
        assert intervals == [ScheduleIntervalSpec(every=timedelta(hours=2))]
        action = described.schedule.action
        assert isinstance(action, ScheduleActionStartWorkflow)
        (installed,) = pydantic_data_converter.payload_converter.from_payloads(
            list(action.args), [SweepInput]
        )
        assert installed == SweepInput(lanes=SWEEP_LANES)
        with harness.worker(WorkerPorts(uow_factory=store, provider=None), task_queue=tq):
            harness.run(handle.trigger())
            deadline = time.monotonic() + 60
            while _get(store, stale).is_live and time.monotonic() < deadline:
                time.sleep(0.3)
        assert _get(store, stale).closed_reason is ClosedReason.RETIRED_HYPOTHESIS
    finally:
        harness.run(handle.delete())
