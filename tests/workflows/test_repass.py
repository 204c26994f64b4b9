"""The durable re-pass after a retryable fallback, on real Temporal and real PostgreSQL.

Backoff timers (minutes to hours) pass on the time-skipping test server; activities run in real time. As in
the retirement-sweep tests, result waits run with auto time skipping disabled and time moves only by
env.sleep, and only while the workflow is waiting on a timer with no activity in flight (a skip under a
running activity would time it out and ask the provider again). Listing by the RepassState query needs
visibility, which the test server does not implement, so that test runs on the dev server.
"""

import asyncio
import os
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from temporalio.api.enums.v1 import EventType
from temporalio.client import WorkflowExecutionStatus, WorkflowHandle, WorkflowHistory
from typer.testing import CliRunner

from adapters.cli.main import app
from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.temporal.client import DEFAULT_FORMATION_POLICY, session_idle
from adapters.temporal.repass import RepassNotRetryable, list_repasses, retry_repass, state_query
from adapters.temporal.worker import WorkerPorts
from domain.beliefs.commit import CommitReport
from domain.beliefs.governed import GovernedMemory, GovernedOutcome
from domain.beliefs.records import ClosedReason, MemoryRecord
from domain.events import SourceEvent
from domain.formation.clauses import count_coverage_units
from domain.formation.equivalence import same_claim
from domain.formation.segments import EventFootprint, SegmentRef, plan_segments
from domain.owner import Owner
from domain.policy.repass import PROVIDER_MAX_ATTEMPTS, RepassState, backoff
from domain.providers import ProviderFailure, ProviderRequest, permanent, transient
from domain.telemetry import AuditKind, FormationAudit, ReasonCategory, RunOutcome
from tests import scripted_answers as answers
from tests.workflows.conftest import temporal_cli, time_skipping_harness
from tests.workflows.harness import Harness, started_children
from tests.workflows.repass_worker import correct_answer
from tests.workflows.support import append
from workflows.consolidate_session import ConsolidationSummary
from workflows.repass import RepassInput, RepassResult, RepassWorkflow, repass_workflow_id
from workflows.search_attributes import REPASS_STATE

pytestmark = [pytest.mark.temporal, pytest.mark.postgres]

REPO = Path(__file__).resolve().parents[2]
R = ReasonCategory
FIXTURE_WORDS = ("personal", "agent", "wondering", "search", "fetch", "trained", "5x5", "calisthenics")


# --- the provider ------------------------------------------------------------------------------------


class Outage:
    """A provider script: the next `failing` calls fail with `failure`, later calls answer correctly."""

    def __init__(self, failing: int, failure: ProviderFailure | None = None) -> None:
        self._lock = threading.Lock()
        self.failing = failing
        self.failure = failure or transient("http_503")
        self.failed = 0
        self.answered = 0

    def __call__(self, request: ProviderRequest) -> dict[str, Any] | ProviderFailure:
        with self._lock:
            if self.failing > 0:
                self.failing -= 1
                self.failed += 1
                return self.failure
            self.answered += 1
        return correct_answer(request)


# --- the time-skipping server -------------------------------------------------------------------------


@pytest.fixture
def skipping() -> Iterator[Harness]:
    """A test server of each test's own: an abandoned child that completes after its parent closed leaves
    the test server's time skipping locked (a test-server defect; the dev server has no such lock), so
    a server shared across tests would run later backoff timers in real time."""
    with time_skipping_harness() as h:
        yield h


def _count(history: WorkflowHistory, kind: EventType.ValueType) -> int:
    return sum(event.event_type == kind for event in history.events)


_CLOSED = {
    EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED,
    EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
    EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
    EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT,
    EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW,
}


async def _drive(h: Harness, handle: WorkflowHandle[Any, Any], *, timers: int | None = None) -> None:
    """Fire the workflow's durable timers one at a time, each only once the workflow waits on nothing else;
    return when it closes, or as soon as `timers` timers have fired."""
    env = h.env
    assert env is not None
    fired = 0
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        history = await handle.fetch_history()
        if any(event.event_type in _CLOSED for event in history.events):
            return
        started = [e for e in history.events if e.event_type == EventType.EVENT_TYPE_TIMER_STARTED]
        done = _count(history, EventType.EVENT_TYPE_TIMER_FIRED)
        if len(started) > done and _pending_activities(history) == 0:
            wait = started[-1].timer_started_event_attributes.start_to_fire_timeout.ToTimedelta()
            await env.sleep(wait + timedelta(seconds=1))
            fired += 1
            while _count(await handle.fetch_history(), EventType.EVENT_TYPE_TIMER_FIRED) == done:
                await asyncio.sleep(0.05)
            if timers is not None and fired >= timers:
                return
        else:
            await asyncio.sleep(0.1)
    raise TimeoutError("the workflow did not reach a timer or close in time")


def _pending_activities(history: WorkflowHistory) -> int:
    closed = (
        EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
        EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED,
        EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT,
        EventType.EVENT_TYPE_ACTIVITY_TASK_CANCELED,
    )
    scheduled = _count(history, EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
    return scheduled - sum(_count(history, kind) for kind in closed)


def _wait_for_timers(h: Harness, handle: WorkflowHandle[Any, Any], count: int) -> None:
    """Until the workflow has started `count` timers (it finished the attempt before the last one)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        history = h.run(handle.fetch_history())
        if _count(history, EventType.EVENT_TYPE_TIMER_STARTED) >= count:
            return
        time.sleep(0.1)
    raise TimeoutError("no timer started")


def _finish(h: Harness, handle: WorkflowHandle[Any, Any], timeout: float = 180.0) -> Any:
    env = h.env
    assert env is not None

    async def run() -> Any:
        await _drive(h, handle)
        with env.auto_time_skipping_disabled():
            return await handle.result()

    return h.run(run(), timeout=timeout)


# --- the store ----------------------------------------------------------------------------------------


def fixture_events(name: str, owner: Owner) -> list[SourceEvent]:
    """A fixture conversation under a principal and session of this test's own (workflow ids are the
    range, and every test shares one server)."""
    session = uuid.uuid4()
    return [
        e.model_copy(
            update={"tenant_id": owner.tenant_id, "principal_id": owner.principal_id, "session_id": session}
        )
        for e in answers.load(name)
    ]


def new_owner() -> Owner:
    return Owner(tenant_id="t1", principal_id=f"p-{uuid.uuid4().hex[:12]}")


def planned(events: list[SourceEvent], owner: Owner) -> list[SegmentRef]:
    footprints = [
        EventFootprint(seq=e.seq, size_bytes=e.size_bytes, coverage_units=count_coverage_units(e.text))
        for e in events
    ]
    return plan_segments(owner, events[0].session_id, DEFAULT_FORMATION_POLICY, footprints)


def seeded(
    store: PostgresStore, name: str = "personal_agent.jsonl"
) -> tuple[Owner, list[SourceEvent], SegmentRef]:
    """A fixture conversation stored under a principal of this test's own, and the one segment it plans."""
    owner = new_owner()
    events = fixture_events(name, owner)
    append(store, events)
    [ref] = planned(events, owner)
    return owner, events, ref


def beliefs(store: PostgresStore, owner: Owner, *, live_only: bool = True) -> list[MemoryRecord]:
    with store() as uow:
        return uow.beliefs.page(owner, None, 10_000, live_only=live_only)


def audits(store: PostgresStore, owner: Owner, kind: AuditKind | None = None) -> list[FormationAudit]:
    with store() as uow:
        return uow.audits.for_owner(owner, kind) if kind else uow.audits.for_owner(owner)


def commit_reports(store: PostgresStore, owner: Owner) -> list[CommitReport]:
    return [
        CommitReport.model_validate_json(str(a.details["report"]))
        for a in sorted(audits(store, owner, AuditKind.SEGMENT_COMMITTED), key=lambda a: a.created_at)
        if "report" in a.details
    ]


def duplicates(live: list[MemoryRecord]) -> list[tuple[str, str]]:
    """Pairs of live beliefs that state one claim (the runtime's own equivalence) or the same words."""
    return [
        (a.statement, b.statement)
        for i, a in enumerate(live)
        for b in live[i + 1 :]
        if a.statement == b.statement or same_claim(a.statement, b.statement)
    ]


def committed(report: CommitReport) -> int:
    return report.categories.get(R.COMMITTED_DIRECT, 0) + report.categories.get(R.COMMITTED_HYPOTHESIS, 0)


# --- running ------------------------------------------------------------------------------------------


def consolidate(h: Harness, tq: str, events: list[SourceEvent]) -> ConsolidationSummary:
    first = events[0]
    env = h.env
    assert env is not None

    async def run() -> ConsolidationSummary:
        handle = await session_idle(
            h.client, first.tenant_id, first.principal_id, first.session_id, task_queue=tq
        )
        with env.auto_time_skipping_disabled():
            return await handle.result()

    return h.run(run())


def repass_handle(h: Harness, ref: SegmentRef) -> WorkflowHandle[RepassWorkflow, RepassResult]:
    return h.client.get_workflow_handle_for(RepassWorkflow.run, repass_workflow_id(ref))


def repass_state(h: Harness, ref: SegmentRef) -> str | None:
    described = h.run(repass_handle(h, ref).describe())
    return described.typed_search_attributes.get(REPASS_STATE)


def reference_statements(h: Harness, store: PostgresStore, name: str) -> set[str]:
    """What the same conversation forms with the provider up all along (another principal)."""
    owner = new_owner()
    events = fixture_events(name, owner)
    append(store, events)
    provider = ScriptedProvider(Outage(0))
    with h.worker(WorkerPorts(store, provider)) as worker:
        summary = consolidate(h, worker.task_queue, events)
    assert summary.last_round is not None and summary.last_round.repass_segments == ()
    return {b.statement for b in beliefs(store, owner)}


# --- tests ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["personal_agent.jsonl", "training_conversation.jsonl"])
def test_provider_down_then_up_one_fallback_one_repass_no_duplicates(
    skipping: Harness, store: PostgresStore, name: str
) -> None:
    reference = reference_statements(skipping, store, name)
    owner, events, ref = seeded(store, name)
    # Down for the consolidation's three stages and the re-pass's first attempt, up for its second.
    outage = Outage(failing=6)
    provider = ScriptedProvider(outage)

    with skipping.worker(WorkerPorts(store, provider)) as worker:
        summary = consolidate(skipping, worker.task_queue, events)
        assert summary.last_round is not None
        assert summary.last_round.outcome is RunOutcome.COMPLETED_WITH_FALLBACK
        assert summary.last_round.watermark_advanced
        assert summary.last_round.repass_segments == (ref.index,)
        fallback = {b.statement for b in beliefs(store, owner)}
        assert fallback, "the fallback formed beliefs before any re-pass"
        parent = skipping.run(
            skipping.client.get_workflow_handle(
                f"consolidate/{owner.tenant_id}/{owner.principal_id}/{ref.session_id}"
            ).fetch_history()
        )
        result = _finish(skipping, repass_handle(skipping, ref))

    assert result.state is RepassState.SUCCEEDED and result.attempts == 2
    assert (outage.failed, outage.answered) == (6, 3)
    assert provider.call_count == 9, "three calls per attempt, none repeated"
    # Exactly one RepassWorkflow for the range, started by the consolidation, one run of it.
    assert started_children(parent).count(repass_workflow_id(ref)) == 1
    history = skipping.run(repass_handle(skipping, ref).fetch_history())
    assert _count(history, EventType.EVENT_TYPE_TIMER_STARTED) == 2
    assert repass_state(skipping, ref) == RepassState.SUCCEEDED.value

    live = beliefs(store, owner)
    statements = {b.statement for b in live}
    assert duplicates(live) == []
    assert reference <= statements, "nothing the provider forms is lost"
    assert statements == fallback | reference
    with store() as uow:
        assert uow.watermarks.get(owner, ref.session_id) == events[-1].seq
        runs = uow.runs.for_session(owner, ref.session_id)
    assert len(runs) == 1 and runs[0].outcome is RunOutcome.COMPLETED_WITH_FALLBACK

    # Audits reconcile: one commit by the consolidation (fallback), one by the re-pass (provider).
    fallback_report, repass_report = commit_reports(store, owner)
    assert fallback_report.reconciles and repass_report.reconciles
    assert committed(fallback_report) == len(fallback)
    assert committed(fallback_report) + committed(repass_report) == len(live)
    # What the fallback already formed from the same source is reinforced or promoted, never re-formed.
    resolved = repass_report.categories.get(R.REINFORCED, 0) + repass_report.categories.get(R.PROMOTED, 0)
    assert resolved == len(reference & fallback)
    assert committed(repass_report) == len(reference - fallback)
    assert repass_report.proposals == len(reference)
    assert all(b.evidence_count == 1 for b in live), "a re-read of the same source adds no evidence"
    assert audits(store, owner, AuditKind.REPASS_EXHAUSTED) == []


def test_provider_down_for_every_attempt_exhausts_once_with_search_attribute(
    skipping: Harness, store: PostgresStore
) -> None:
    owner, events, ref = seeded(store)
    outage = Outage(failing=10_000)
    provider = ScriptedProvider(outage)

    with skipping.worker(WorkerPorts(store, provider)) as worker:
        consolidate(skipping, worker.task_queue, events)
        fallback = beliefs(store, owner)
        result = _finish(skipping, repass_handle(skipping, ref))

    assert result.state is RepassState.EXHAUSTED and result.attempts == PROVIDER_MAX_ATTEMPTS
    assert result.commit is None
    assert provider.call_count == 3 * (1 + PROVIDER_MAX_ATTEMPTS)
    history = skipping.run(repass_handle(skipping, ref).fetch_history())
    waits = [
        e.timer_started_event_attributes.start_to_fire_timeout.ToTimedelta()
        for e in history.events
        if e.event_type == EventType.EVENT_TYPE_TIMER_STARTED
    ]
    assert waits == [backoff(a) for a in range(1, PROVIDER_MAX_ATTEMPTS + 1)]
    assert repass_state(skipping, ref) == RepassState.EXHAUSTED.value

    [exhausted] = audits(store, owner, AuditKind.REPASS_EXHAUSTED)
    assert exhausted.session_id == ref.session_id
    assert exhausted.details["attempts"] == PROVIDER_MAX_ATTEMPTS
    assert (exhausted.details["first_seq"], exhausted.details["last_seq"]) == (ref.first_seq, ref.last_seq)
    # Content-free: ids, a range, a key, counts and versions; not one word of the conversation.
    flat = " ".join(str(v) for v in exhausted.details.values()).lower() + exhausted.dedupe_key.lower()
    assert not [w for w in FIXTURE_WORDS if w.lower() in flat]
    # The fallback's beliefs stand as they were; the re-pass committed nothing.
    assert beliefs(store, owner) == fallback
    assert len(commit_reports(store, owner)) == 1


def test_permanent_failure_during_the_repass_abandons_it_at_once(
    skipping: Harness, store: PostgresStore
) -> None:
    owner, events, ref = seeded(store)
    outage = Outage(failing=3)
    provider = ScriptedProvider(outage)

    with skipping.worker(WorkerPorts(store, provider)) as worker:
        consolidate(skipping, worker.task_queue, events)
        # After the consolidation's transient outage, the provider refuses for good.
        outage.failing, outage.failure = 10_000, permanent("http_401")
        result = _finish(skipping, repass_handle(skipping, ref))

    assert result.state is RepassState.ABANDONED and result.attempts == 1
    assert provider.call_count == 3 + 3, "one attempt, then no further attempts"
    history = skipping.run(repass_handle(skipping, ref).fetch_history())
    assert _count(history, EventType.EVENT_TYPE_TIMER_STARTED) == 1
    assert repass_state(skipping, ref) == RepassState.ABANDONED.value
    assert len(commit_reports(store, owner)) == 1
    assert audits(store, owner, AuditKind.REPASS_EXHAUSTED) == []


def test_user_deletion_before_the_repass_succeeds_stays_deleted(
    skipping: Harness, store: PostgresStore
) -> None:
    owner, events, ref = seeded(store)
    outage = Outage(failing=6)

    with skipping.worker(WorkerPorts(store, ScriptedProvider(outage))) as worker:
        consolidate(skipping, worker.task_queue, events)
        [project] = [b for b in beliefs(store, owner) if b.statement == answers.PROJECT]
        handle = repass_handle(skipping, ref)
        # The first attempt fails; the user deletes the belief while the re-pass waits for its second.
        skipping.run(_drive(skipping, handle, timers=1))
        _wait_for_timers(skipping, handle, 2)
        assert outage.failing == 0, "the first attempt ran into the outage"
        deleted = GovernedMemory(store).delete(
            owner, project.id, request_id=uuid.uuid4(), now=events[-1].occurred_at + timedelta(days=30)
        )
        assert deleted.outcome is GovernedOutcome.APPLIED
        result = _finish(skipping, handle)

    assert result.state is RepassState.SUCCEEDED and result.attempts == 2
    assert result.commit is not None and result.commit.categories.get(R.REJECTED_CORRECTION) == 1
    live = beliefs(store, owner)
    assert not [b for b in live if same_claim(b.statement, answers.PROJECT)]
    [tombstone] = [b for b in beliefs(store, owner, live_only=False) if b.id == project.id]
    assert tombstone.closed_reason is ClosedReason.DELETED
    assert duplicates(live) == []
    assert answers.HYPOTHESIS in {b.statement for b in live}, "only what the user removed stays removed"


def _reset_watermark(store: PostgresStore, owner: Owner, session: uuid.UUID) -> None:
    """Make the next round plan the same range again (as a lost watermark write would)."""
    with store.engine.begin() as connection:
        connection.execute(
            text(
                "UPDATE watermarks SET seq = 0 WHERE tenant_id = :t AND principal_id = :p AND session_id = :s"
            ),
            {"t": owner.tenant_id, "p": owner.principal_id, "s": session},
        )


def test_starting_the_same_repass_twice_is_a_no_op(skipping: Harness, store: PostgresStore) -> None:
    owner, events, ref = seeded(store)
    outage = Outage(failing=6)  # two consolidations of the same range fall back; the re-pass then succeeds

    with skipping.worker(WorkerPorts(store, ScriptedProvider(outage))) as worker:
        consolidate(skipping, worker.task_queue, events)
        first_run = skipping.run(repass_handle(skipping, ref).describe()).run_id
        _reset_watermark(store, owner, ref.session_id)
        second = consolidate(skipping, worker.task_queue, events)
        assert second.last_round is not None and second.last_round.repass_segments == (ref.index,)
        # The second start over the running re-pass was refused by its id: still the first run.
        assert skipping.run(repass_handle(skipping, ref).describe()).run_id == first_run
        result = _finish(skipping, repass_handle(skipping, ref))
        # And over the closed one: the range's re-pass ran once, it is not started again.
        outage.failing = 3
        _reset_watermark(store, owner, ref.session_id)
        consolidate(skipping, worker.task_queue, events)
        described = skipping.run(repass_handle(skipping, ref).describe())

    assert result.state is RepassState.SUCCEEDED and result.attempts == 1
    assert described.run_id == first_run and described.status is WorkflowExecutionStatus.COMPLETED
    reports = commit_reports(store, owner)
    assert len(reports) == 4, "three consolidations and one re-pass commit"
    assert all(r.reconciles for r in reports)
    live = beliefs(store, owner)
    assert duplicates(live) == []


def spawn_worker(
    h: Harness, task_queue: str, url: str, calls: Path, kill_at: str = "", down_calls: int = 0
) -> subprocess.Popen[bytes]:
    env = dict(
        os.environ,
        TEMPORAL_ADDRESS=h.address,
        TASK_QUEUE=task_queue,
        DATABASE_URL=url,
        CALLS_FILE=str(calls),
        KILL_AT_ACTIVITY=kill_at,
        PROVIDER_DOWN_CALLS=str(down_calls),
        PYTHONPATH=str(REPO),
    )
    return subprocess.Popen([sys.executable, "-m", "tests.workflows.repass_worker"], cwd=REPO, env=env)


def test_worker_killed_during_a_repass_resumes_and_commits_once(
    skipping: Harness, store: PostgresStore, postgres_url: str, tmp_path: Path
) -> None:
    owner, events, ref = seeded(store)
    task_queue = f"repass-kill-{uuid.uuid4().hex[:8]}"
    calls = tmp_path / "calls.txt"
    env = skipping.env
    assert env is not None

    # One worker process: the consolidation falls back (the provider is down for its three calls) and
    # starts the re-pass; the provider is back when the re-pass's first timer fires; the worker dies as
    # the re-pass's commit starts, after its three stages.
    doomed = spawn_worker(skipping, task_queue, postgres_url, calls, kill_at="commit_segment", down_calls=3)
    try:
        consolidate(skipping, task_queue, events)
        assert len(commit_reports(store, owner)) == 1
        handle = repass_handle(skipping, ref)
        skipping.run(_drive(skipping, handle, timers=1))
        assert doomed.wait(timeout=120) == -9, "the worker died after the stages, before the commit"
    finally:
        doomed.kill()
    assert len(commit_reports(store, owner)) == 1, "only the fallback's commit so far"
    assert Counter(calls.read_text().split()) == Counter(
        {"integration": 1, "anticipation": 1, "distillation": 1}
    )

    survivor = spawn_worker(skipping, task_queue, postgres_url, calls)
    try:
        # The lost commit attempt times out (start-to-close, 30 s: the test server does not skip time under
        # an activity in flight), then the retry runs on the survivor.
        result = _finish(skipping, handle)
    finally:
        survivor.terminate()
        survivor.wait(timeout=30)

    assert result.state is RepassState.SUCCEEDED and result.attempts == 1
    # The stages recorded before the crash were not run again.
    assert Counter(calls.read_text().split()) == Counter(
        {"integration": 1, "anticipation": 1, "distillation": 1}
    )
    history = skipping.run(handle.fetch_history())
    scheduled = [
        e.activity_task_scheduled_event_attributes.activity_type.name
        for e in history.events
        if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED
    ]
    assert scheduled.count("commit_segment") == 1
    reports = commit_reports(store, owner)
    assert len(reports) == 2 and reports[1] == result.commit
    live = beliefs(store, owner)
    assert duplicates(live) == []
    assert answers.SEARCH_GOAL in {b.statement for b in live}


# --- operators: the dev server, whose visibility answers queries ----------------------------------------


def test_exhausted_repass_is_listable_by_query_and_retried_from_its_input(
    harness: Harness, store: PostgresStore
) -> None:
    """One attempt (RepassInput.max_attempts=1) so the dev server's real one-minute backoff is the only wait."""
    owner, events, ref = seeded(store)
    provider = ScriptedProvider(Outage(failing=10_000))
    wf_id = repass_workflow_id(ref)
    original = RepassInput(ref=ref, origin_run_id=uuid.uuid4(), max_attempts=1)

    with harness.worker(WorkerPorts(store, provider)) as worker:
        handle = harness.run(
            harness.client.start_workflow(
                RepassWorkflow.run, original, id=wf_id, task_queue=worker.task_queue
            )
        )
        result = harness.run(handle.result(), timeout=150)
        assert result.state is RepassState.EXHAUSTED and result.attempts == 1
        assert len(audits(store, owner, AuditKind.REPASS_EXHAUSTED)) == 1

        def listed() -> list[str]:
            rows = harness.run(list_repasses(harness.client, "exhausted", 1000))
            return [r.workflow_id for r in rows if r.state == "exhausted"]

        deadline = time.monotonic() + 30
        while wf_id not in listed() and time.monotonic() < deadline:
            time.sleep(0.5)
        assert wf_id in listed()

        async def raw(query: str) -> list[str]:
            return [e.id async for e in harness.client.list_workflows(query)]

        assert wf_id in harness.run(raw('RepassState="exhausted"'))
        assert wf_id not in harness.run(raw('RepassState="succeeded"'))
        assert state_query("exhausted") == 'WorkflowType="Repass" AND RepassState="exhausted"'
        with pytest.raises(ValueError):
            state_query('exhausted" OR WorkflowType="ConsolidateSession')

        # The operator's commands, as documented in docs/operations/repasses.md.
        cli = subprocess.run(
            [
                temporal_cli(),
                "workflow",
                "list",
                "--address",
                harness.address,
                "--query",
                'RepassState="exhausted"',
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert cli.returncode == 0 and wf_id in cli.stdout
        agent = CliRunner().invoke(
            app,
            ["repass", "list", "--state", "exhausted", "--limit", "1000"],
            env={"TEMPORAL_ADDRESS": harness.address, "COLUMNS": "400"},
        )
        assert agent.exit_code == 0, agent.output
        assert wf_id in agent.output

        # Retry: the same id, a new run, started from the recorded input.
        new_run = harness.run(retry_repass(harness.client, wf_id, "unused-default-queue"))
        assert new_run and new_run != handle.result_run_id
        retried = harness.client.get_workflow_handle(wf_id, run_id=new_run)
        retried_history = harness.run(retried.fetch_history())
        started = retried_history.events[0].workflow_execution_started_event_attributes
        (again,) = harness.run(harness.client.data_converter.decode(started.input.payloads, [RepassInput]))
        assert again == original
        assert started.task_queue.name == worker.task_queue
        # A re-pass that is still running is not started a second time.
        with pytest.raises(RepassNotRetryable):
            harness.run(retry_repass(harness.client, wf_id, worker.task_queue))
        harness.run(retried.terminate(reason="test cleanup"))


def test_retry_refuses_a_workflow_that_is_no_repass_and_a_repass_that_succeeded(harness: Harness) -> None:
    """Neither is started again: the operator gets one line, not a decoded input or a traceback."""
    from temporalio.common import SearchAttributePair, TypedSearchAttributes

    session = uuid.uuid4()
    closed = {
        "ConsolidateSession": (f"consolidate/t1/p1/{session}", []),
        "Repass": (
            f"repass/t1/p1/{session}/1-2",
            [SearchAttributePair(REPASS_STATE, RepassState.SUCCEEDED.value)],
        ),
    }
    for workflow_type, (wf_id, attributes) in closed.items():
        # Started on a queue no worker polls and closed at once: only its type and attributes matter.
        handle = harness.run(
            harness.client.start_workflow(
                workflow_type,
                id=wf_id,
                task_queue="no-worker",
                search_attributes=TypedSearchAttributes(attributes),
            )
        )
        harness.run(handle.terminate(reason="test"))
    env = {"TEMPORAL_ADDRESS": harness.address, "COLUMNS": "400"}
    for wf_id, expected in (
        (closed["ConsolidateSession"][0], "is no re-pass"),
        (closed["Repass"][0], "succeeded"),
    ):
        result = CliRunner().invoke(app, ["repass", "retry", wf_id], env=env)
        assert result.exit_code == 1, result.output
        assert "Traceback" not in result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and expected in lines[0] and wf_id in lines[0], result.stderr
        runs = harness.run(_runs(harness, wf_id))
        assert runs == 1, f"{wf_id} was started again"


async def _runs(harness: Harness, wf_id: str) -> int:
    return len([e async for e in harness.client.list_workflows(f'WorkflowId="{wf_id}"')])
