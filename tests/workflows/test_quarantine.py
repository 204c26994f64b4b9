"""Poison on real Temporal and PostgreSQL: a segment that fails deterministically is quarantined (the
watermark stops before it, a content-free audit, ConsolidationOutcome=poisoned), an operator's release
retries or skips it and the session's later events consolidate; a transient failure keeps its retries."""

import asyncio
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import insert
from temporalio import activity
from temporalio.worker import ActivityInboundInterceptor, ExecuteActivityInput, Interceptor

from activities.contracts import Quarantine
from adapters.postgres.tables import source_events
from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.temporal.client import SessionHandle, session_idle
from adapters.temporal.quarantine import list_quarantined, release_session
from adapters.temporal.worker import WorkerPorts
from domain.telemetry import AuditKind, RunOutcome
from tests.workflows.conversations import conversation, plausible_answer
from tests.workflows.harness import Harness
from tests.workflows.support import OWNER, append, store_counts
from tests.workflows.test_session_rounds import wait_for
from workflows import stages as stages_workflow
from workflows.consolidate_session import ConsolidateSessionWorkflow, session_workflow_id

pytestmark = [pytest.mark.temporal, pytest.mark.postgres]


def held(harness: Harness, session: uuid.UUID) -> Quarantine | None:
    handle = harness.client.get_workflow_handle_for(
        ConsolidateSessionWorkflow.run, session_workflow_id(OWNER.tenant_id, OWNER.principal_id, session)
    )
    return harness.run(handle.query(ConsolidateSessionWorkflow.quarantine))


def idle_until_held(
    harness: Harness, task_queue: str, session: uuid.UUID
) -> tuple[SessionHandle, Quarantine]:
    """Report the session idle and wait until its round holds a quarantined segment."""
    handle = harness.run(session_idle(harness.client, "t1", "p1", session, task_queue=task_queue))
    wait_for(lambda: held(harness, session) is not None)
    quarantine = held(harness, session)
    assert quarantine is not None
    return handle, quarantine


def listed(harness: Harness, session: uuid.UUID) -> bool:
    wanted = session_workflow_id(OWNER.tenant_id, OWNER.principal_id, session)
    return any(row.workflow_id == wanted for row in harness.run(list_quarantined(harness.client, 1_000)))


class _Failing(ActivityInboundInterceptor):
    def __init__(self, next: ActivityInboundInterceptor, plan: "FailurePlan") -> None:
        super().__init__(next)
        self._plan = plan

    async def execute_activity(self, input: ExecuteActivityInput) -> Any:
        name = activity.info().activity_type
        self._plan.attempts[name] += 1
        if name == self._plan.activity and self._plan.errors:
            raise self._plan.errors.pop(0)
        return await super().execute_activity(input)


class FailurePlan(Interceptor):
    """Raises the listed errors, one per attempt, from the named activity."""

    def __init__(self, activity_name: str, errors: list[Exception]) -> None:
        self.activity = activity_name
        self.errors = errors
        self.attempts: Counter[str] = Counter()

    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        return _Failing(next, self)


def test_a_stored_event_that_no_longer_validates_is_quarantined_and_skipped_on_release(
    harness: Harness, store: PostgresStore
) -> None:
    session = uuid.uuid4()
    before = conversation(OWNER, session, 3)
    append(store, before)
    poison_seq = len(before) + 1
    # Stored before the occurred_at window existed: the import refuses it today, the table still holds it.
    with store.engine.begin() as connection:
        connection.execute(
            insert(source_events).values(
                tenant_id=OWNER.tenant_id,
                principal_id=OWNER.principal_id,
                session_id=session,
                seq=poison_seq,
                kind="user_message",
                text="I am building a personal AI agent called Zelmora.",
                occurred_at=datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC),
            )
        )
    after = conversation(OWNER, session, 2, seed=7, first_seq=poison_seq + 1)
    append(store, after)

    with harness.worker(WorkerPorts(store, ScriptedProvider(plausible_answer))) as worker:
        handle, quarantine = idle_until_held(harness, worker.task_queue, session)
        assert (quarantine.watermark, quarantine.last_seq) == (len(before), poison_seq)
        assert (quarantine.poison.activity, quarantine.poison.failure_type) == (
            "load_batch",
            "UnreadableEvent",
        )
        counts = store_counts(store, session)
        assert counts.watermark == len(before), "the events before the poison consolidated, not past it"
        assert counts.audits[AuditKind.SEGMENT_QUARANTINED.value] == 1
        assert counts.runs[-1].outcome is RunOutcome.POISONED
        wait_for(lambda: listed(harness, session))

        harness.run(release_session(harness.client, "t1", "p1", session, skip=True))
        harness.run(session_idle(harness.client, "t1", "p1", session, task_queue=worker.task_queue))
        summary = harness.run(handle.result())

    assert summary.last_round is not None and summary.last_round.quarantine is None
    counts = store_counts(store, session)
    assert counts.watermark == poison_seq + len(after), "later events consolidated once released"
    assert counts.audits[AuditKind.QUARANTINE_RELEASED.value] == 1
    with store() as uow:
        (released,) = uow.audits.for_owner(OWNER, AuditKind.QUARANTINE_RELEASED)
    assert released.details["action"] == "skip"
    assert "Zelmora" not in str(released.details)


def test_a_deterministic_commit_failure_is_not_retried_and_a_release_retries_it(
    harness: Harness, store: PostgresStore
) -> None:
    session = uuid.uuid4()
    events = conversation(OWNER, session, 4)
    append(store, events)
    plan = FailurePlan("commit_segment", [OverflowError("date value out of range: Zelmora")])

    with harness.worker(
        WorkerPorts(store, ScriptedProvider(plausible_answer)), interceptors=[plan]
    ) as worker:
        handle, quarantine = idle_until_held(harness, worker.task_queue, session)
        assert quarantine.last_seq is not None
        assert (quarantine.poison.activity, quarantine.poison.failure_type) == (
            "commit_segment",
            "OverflowError",
        )
        assert plan.attempts["commit_segment"] == 1, "a deterministic failure is not retried"
        assert store_counts(store, session).watermark == quarantine.watermark < quarantine.last_seq

        harness.run(release_session(harness.client, "t1", "p1", session, skip=False))
        harness.run(session_idle(harness.client, "t1", "p1", session, task_queue=worker.task_queue))
        summary = harness.run(handle.result())

    assert summary.last_round is not None
    counts = store_counts(store, session)
    assert counts.watermark == len(events), "the retried range consolidated"
    with store() as uow:
        (released,) = uow.audits.for_owner(OWNER, AuditKind.QUARANTINE_RELEASED)
        (quarantined,) = uow.audits.for_owner(OWNER, AuditKind.SEGMENT_QUARANTINED)
    assert released.details["action"] == "retry"
    assert "Zelmora" not in str(quarantined.details)


def test_a_deterministic_load_batch_failure_quarantines_the_session_and_a_release_retries_it(
    harness: Harness, store: PostgresStore
) -> None:
    """load_batch is a local activity, whose failure reaches the workflow without an ActivityError: seen
    failing the session's workflow instead of quarantining it before _store_local named the failure."""
    session = uuid.uuid4()
    events = conversation(OWNER, session, 3)
    append(store, events)
    plan = FailurePlan("load_batch", [OverflowError("date value out of range: Zelmora")])

    with harness.worker(
        WorkerPorts(store, ScriptedProvider(plausible_answer)), interceptors=[plan]
    ) as worker:
        handle, quarantine = idle_until_held(harness, worker.task_queue, session)
        assert (quarantine.poison.activity, quarantine.poison.failure_type) == ("load_batch", "OverflowError")
        assert plan.attempts["load_batch"] == 1, "a deterministic failure is not retried"
        assert store_counts(store, session).watermark == 0

        harness.run(release_session(harness.client, "t1", "p1", session, skip=False))
        summary = harness.run(handle.result())

    assert summary.last_round is not None and summary.last_round.quarantine is None
    assert store_counts(store, session).watermark == len(events), "the retried round consolidated"


def test_a_skip_passes_the_poisoned_events_only_and_a_gap_filled_while_held_consolidates_next(
    harness: Harness, store: PostgresStore
) -> None:
    session = uuid.uuid4()
    events = conversation(OWNER, session, 4)
    # Seq 3 missing, its grace long over: the round plans past it, then the segment is poisoned.
    append(store, [e for e in events if e.seq != 3])
    plan = FailurePlan("commit_segment", [OverflowError("date value out of range: Zelmora")])

    with harness.worker(
        WorkerPorts(store, ScriptedProvider(plausible_answer)), interceptors=[plan]
    ) as worker:
        handle, quarantine = idle_until_held(harness, worker.task_queue, session)
        assert (quarantine.watermark, quarantine.last_seq, quarantine.gaps) == (0, len(events), ((3, 3),))
        append(store, [e for e in events if e.seq == 3])

        harness.run(release_session(harness.client, "t1", "p1", session, skip=True))
        summary = harness.run(handle.result())

    assert summary.last_round is not None and summary.last_round.quarantine is None
    counts = store_counts(store, session)
    assert counts.watermark == len(events)
    # The round after the skip planned the filled gap on its own, below the watermark, and settled it.
    assert any((r.from_seq, r.to_seq, r.segment_count) == (len(events), len(events), 1) for r in counts.runs)
    with store() as uow:
        assert uow.events.late_pending(OWNER, session, 10) == []


def test_a_transient_failure_keeps_its_retries(harness: Harness, store: PostgresStore) -> None:
    session = uuid.uuid4()
    events = conversation(OWNER, session, 3)
    append(store, events)
    plan = FailurePlan("commit_segment", [ConnectionError("database went away")])

    with harness.worker(
        WorkerPorts(store, ScriptedProvider(plausible_answer)), interceptors=[plan]
    ) as worker:
        handle = harness.run(session_idle(harness.client, "t1", "p1", session, task_queue=worker.task_queue))
        summary = harness.run(handle.result())

    assert summary.last_round is not None and summary.last_round.quarantine is None
    assert plan.attempts["commit_segment"] >= 2
    assert store_counts(store, session).watermark == len(events)


class _Overrunning(ActivityInboundInterceptor):
    def __init__(self, next: ActivityInboundInterceptor, plan: "OverrunPlan") -> None:
        super().__init__(next)
        self._plan = plan

    async def execute_activity(self, input: ExecuteActivityInput) -> Any:
        name = activity.info().activity_type
        if name == self._plan.activity:
            self._plan.attempts += 1
            # Past the (shortened) start-to-close timeout, on every attempt: a deterministic overrun.
            await asyncio.sleep(self._plan.overrun_s)
        return await super().execute_activity(input)


class OverrunPlan(Interceptor):
    def __init__(self, activity_name: str, overrun_s: float) -> None:
        self.activity = activity_name
        self.overrun_s = overrun_s
        self.attempts = 0

    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        return _Overrunning(next, self)


def test_a_step_that_overruns_its_time_bound_on_every_attempt_is_quarantined_and_skippable(
    harness: Harness, store: PostgresStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen before: a timed-out stage was retried forever, so nothing quarantined it and a skip found
    nothing to release."""
    monkeypatch.setattr(stages_workflow, "PROVIDER_STAGE_START_TO_CLOSE", timedelta(seconds=1))
    session = uuid.uuid4()
    events = conversation(OWNER, session, 3)
    append(store, events)
    plan = OverrunPlan("distill", overrun_s=2.0)

    with harness.worker(
        WorkerPorts(store, ScriptedProvider(plausible_answer)), interceptors=[plan]
    ) as worker:
        handle, quarantine = idle_until_held(harness, worker.task_queue, session)
        assert (quarantine.poison.activity, quarantine.poison.failure_type) == ("distill", "StepTimedOut")
        assert plan.attempts == 3, "a bounded number of attempts, then quarantine"
        assert quarantine.last_seq == len(events)
        assert store_counts(store, session).watermark == 0
        monkeypatch.undo()
        harness.run(release_session(harness.client, "t1", "p1", session, skip=True))
        harness.run(session_idle(harness.client, "t1", "p1", session, task_queue=worker.task_queue))
        summary = harness.run(handle.result())

    assert summary.last_round is not None and summary.last_round.quarantine is None
    assert store_counts(store, session).watermark == len(events), "the skip passed the overrunning range"
    with store() as uow:
        (quarantined,) = uow.audits.for_owner(OWNER, AuditKind.SEGMENT_QUARANTINED)
    assert quarantined.details["failure_type"] == "StepTimedOut"


def test_release_of_a_session_that_holds_nothing_says_so_in_one_line(harness: Harness) -> None:
    """Never consolidated, or its workflow closed: nothing is held, and the operator is told that (not to
    check the namespace's search attributes, and without waiting on a query no worker answers)."""
    from typer.testing import CliRunner

    from adapters.cli.main import app

    closed = uuid.uuid4()
    handle = harness.run(
        harness.client.start_workflow(
            "ConsolidateSession",
            id=session_workflow_id(OWNER.tenant_id, OWNER.principal_id, closed),
            task_queue="no-worker",
        )
    )
    harness.run(handle.terminate(reason="test"))
    env = {"TEMPORAL_ADDRESS": harness.address, "COLUMNS": "400"}
    for session, expected in ((uuid.uuid4(), "never consolidated"), (closed, "not running")):
        args = ["session", "release", "--tenant", OWNER.tenant_id, "--principal", OWNER.principal_id]
        result = CliRunner().invoke(app, [*args, "--session", str(session)], env=env)
        assert result.exit_code == 1, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and expected in lines[0] and str(session) in lines[0], result.stderr
        assert "search attributes" not in lines[0]
