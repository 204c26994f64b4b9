"""Rounds of one session: new events only, nothing to do, coalesced idles, continue-as-new, sequence gaps."""

import time
import uuid
from collections import Counter
from datetime import UTC, datetime

import pytest

from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.temporal.client import session_idle
from adapters.temporal.worker import WorkerPorts
from domain.telemetry import THREE_STAGES, RunOutcome
from tests.workflows.conversations import conversation, plausible_answer
from tests.workflows.harness import Harness
from tests.workflows.support import (
    OWNER,
    append,
    by_workflow_type,
    consolidate,
    histories,
    start_with_budget,
    store_counts,
)

pytestmark = [pytest.mark.temporal, pytest.mark.postgres]


def wait_for(condition, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.1)


def test_second_idle_after_completion_consolidates_only_new_events(
    harness: Harness, store: PostgresStore
) -> None:
    session = uuid.uuid4()
    first = conversation(OWNER, session, 4)
    append(store, first)
    provider = ScriptedProvider(plausible_answer)
    with harness.worker(WorkerPorts(store, provider)) as worker:
        one = consolidate(harness, worker.task_queue, session)
        later = conversation(OWNER, session, 3, seed=99, first_seq=len(first) + 1)
        append(store, later)
        two = consolidate(harness, worker.task_queue, session)

    assert one.last_round and two.last_round
    assert (one.last_round.from_seq, one.last_round.to_seq) == (0, len(first))
    assert (two.last_round.from_seq, two.last_round.to_seq) == (len(first), len(first) + len(later))
    assert provider.calls == Counter({stage: 2 for stage in THREE_STAGES})
    counts = store_counts(store, session)
    assert counts.watermark == len(first) + len(later)
    assert [(r.from_seq, r.to_seq) for r in counts.runs] == [
        (0, len(first)),
        (len(first), len(first) + len(later)),
    ]


def test_idle_for_unknown_or_empty_session_completes_with_nothing_to_do(
    harness: Harness, store: PostgresStore
) -> None:
    session = uuid.uuid4()
    provider = ScriptedProvider(plausible_answer)
    with harness.worker(WorkerPorts(store, provider)) as worker:
        summary = consolidate(harness, worker.task_queue, session)
        found = histories(harness, worker.task_queue)
    assert summary.last_round is not None
    assert summary.last_round.outcome is RunOutcome.NOTHING_TO_DO
    assert summary.last_round.segment_count == 0
    assert not summary.last_round.watermark_advanced
    assert provider.call_count == 0
    assert not by_workflow_type(found, "segment/")
    counts = store_counts(store, session)
    assert counts.watermark == 0 and counts.episodes == 0
    assert [r.outcome for r in counts.runs] == [RunOutcome.NOTHING_TO_DO]


def test_idles_on_a_session_with_no_new_events_record_no_more_runs(
    harness: Harness, store: PostgresStore
) -> None:
    session = uuid.uuid4()
    events = conversation(OWNER, session, 3)
    append(store, events)
    with harness.worker(WorkerPorts(store, ScriptedProvider(plausible_answer))) as worker:
        first = consolidate(harness, worker.task_queue, session)
        quiet = [consolidate(harness, worker.task_queue, session) for _ in range(3)]

    assert first.last_round and first.last_round.outcome is not RunOutcome.NOTHING_TO_DO
    assert all(s.last_round and s.last_round.outcome is RunOutcome.NOTHING_TO_DO for s in quiet)
    runs = store_counts(store, session).runs
    # The consolidating round, and one record of the quiet position after it however often idled.
    assert sorted((r.from_seq, r.to_seq, r.outcome.value) for r in runs) == sorted(
        [(0, len(events), first.last_round.outcome.value), (len(events), len(events), "nothing_to_do")]
    )


def test_idles_during_a_round_coalesce_into_one_follow_up_round(
    harness: Harness, store: PostgresStore
) -> None:
    session = uuid.uuid4()
    first = conversation(OWNER, session, 3)
    append(store, first)
    provider = ScriptedProvider(plausible_answer, latency_s=0.4)
    with harness.worker(WorkerPorts(store, provider)) as worker:
        handle = harness.run(session_idle(harness.client, "t1", "p1", session, task_queue=worker.task_queue))
        wait_for(lambda: provider.call_count >= 1)
        # Appended while the first round runs: beyond its batch, so the follow-up round takes them.
        later = conversation(OWNER, session, 2, seed=5, first_seq=len(first) + 1)
        append(store, later)
        for _ in range(5):
            harness.run(session_idle(harness.client, "t1", "p1", session, task_queue=worker.task_queue))
        summary = harness.run(handle.result())

    assert summary.rounds == 2
    assert summary.last_round is not None
    assert (summary.last_round.from_seq, summary.last_round.to_seq) == (len(first), len(first) + len(later))
    assert provider.calls == Counter({stage: 2 for stage in THREE_STAGES})
    assert store_counts(store, session).watermark == len(first) + len(later)


def test_continue_as_new_carries_the_pending_idle(harness: Harness, store: PostgresStore) -> None:
    session = uuid.uuid4()
    first = conversation(OWNER, session, 3)
    append(store, first)
    provider = ScriptedProvider(plausible_answer, latency_s=0.3)
    with harness.worker(WorkerPorts(store, provider)) as worker:
        handle = harness.run(start_with_budget(harness, worker.task_queue, session, budget=10))
        wait_for(lambda: provider.call_count >= 1)
        append(store, conversation(OWNER, session, 2, seed=8, first_seq=len(first) + 1))
        harness.run(session_idle(harness.client, "t1", "p1", session, task_queue=worker.task_queue))
        summary = harness.run(handle.result())  # type: ignore[attr-defined]
        found = histories(harness, worker.task_queue, at_least=2 + 2)

    assert summary.rounds == 2
    assert len(by_workflow_type(found, "consolidate/")) == 2, "the second round ran in a continued run"
    assert store_counts(store, session).watermark == len(first) + 4


def test_watermark_never_passes_a_sequence_gap(harness: Harness, store: PostgresStore) -> None:
    session = uuid.uuid4()
    events = conversation(OWNER, session, 3, start=datetime.now(UTC))  # seqs 1..6
    missing = events[3]
    append(store, [e for e in events if e.seq != missing.seq])
    provider = ScriptedProvider(plausible_answer)
    with harness.worker(WorkerPorts(store, provider)) as worker:
        handle = harness.run(session_idle(harness.client, "t1", "p1", session, task_queue=worker.task_queue))
        wait_for(lambda: store_counts(store, session).watermark == missing.seq - 1)
        # The out-of-order event arrives; the agent reports idle again.
        append(store, [missing])
        harness.run(session_idle(harness.client, "t1", "p1", session, task_queue=worker.task_queue))
        summary = harness.run(handle.result())

    assert summary.rounds == 2
    counts = store_counts(store, session)
    assert counts.watermark == len(events)
    assert [(r.from_seq, r.to_seq) for r in counts.runs] == [
        (0, missing.seq - 1),
        (missing.seq - 1, len(events)),
    ]
