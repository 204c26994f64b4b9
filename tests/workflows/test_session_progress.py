"""The progress query a waiting `agent session idle --wait` shows: counts of the running round only."""

import asyncio
import os
import re
import signal
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest

from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.temporal.client import session_idle
from adapters.temporal.worker import WorkerPorts
from domain.providers import ProviderRequest
from domain.telemetry import RunOutcome, Stage
from tests.workflows.conversations import conversation, plausible_answer
from tests.workflows.harness import Harness
from tests.workflows.support import OWNER, append
from tests.workflows.test_gates import planned
from workflows.consolidate_session import ConsolidateSessionWorkflow
from workflows.session_contracts import ConsolidationProgress

pytestmark = [pytest.mark.temporal, pytest.mark.postgres]

REPO = Path(__file__).resolve().parents[2]


def idle_wait(session: uuid.UUID) -> list[str]:
    """`agent session idle --wait` for one session of the test owner, as its own process."""
    owner = ["--tenant", "t1", "--principal", "p1", "--session", str(session)]
    return [sys.executable, "-m", "adapters.cli.main", "session", "idle", "--wait", *owner]


def agent_env(harness: Harness, task_queue: str, terminal: bool = False) -> dict[str, str]:
    """The process environment that points the CLI at the test server's queue; terminal: rich draws its
    status line, as it does only on a terminal, because it is told stderr is one."""
    env = os.environ | {
        "PYTHONPATH": str(REPO),
        "TEMPORAL_ADDRESS": harness.address,
        "TEMPORAL_TASK_QUEUE": task_queue,
    }
    return env | {"TTY_COMPATIBLE": "1"} if terminal else env


def test_progress_counts_the_segments_a_round_planned_and_committed(
    harness: Harness, store: PostgresStore
) -> None:
    """Seen failing when the committed count was set one short (len(outcomes) - 1): 0 != 1 at the second
    segment."""
    session = uuid.uuid4()
    events = conversation(OWNER, session, 70, seed=70)
    append(store, events)
    segments = len(planned(events, session))
    assert segments >= 3, "the batch must plan several segments"
    # Each segment's first stage call waits at a gate until the test has read the progress: by then the
    # parent has taken every earlier segment's outcome (it starts a segment only after the one before).
    reached, go = threading.Semaphore(0), threading.Semaphore(0)

    def gated(request: ProviderRequest) -> dict[str, object]:
        if request.stage is Stage.INTEGRATION:
            reached.release()
            assert go.acquire(timeout=60)
        return plausible_answer(request)

    async def watch() -> tuple[list[ConsolidationProgress], ConsolidationProgress]:
        handle = await session_idle(harness.client, "t1", "p1", session, task_queue=worker.task_queue)
        during = []
        for _ in range(segments):
            assert await asyncio.to_thread(reached.acquire, timeout=60)
            during.append(await handle.query(ConsolidateSessionWorkflow.progress))
            go.release()
        await handle.result()
        return during, await handle.query(ConsolidateSessionWorkflow.progress)

    with harness.worker(WorkerPorts(store, ScriptedProvider(gated))) as worker:
        during, after = harness.run(watch())

    assert during == [
        ConsolidationProgress(rounds=0, segments_planned=segments, segments_committed=k)
        for k in range(segments)
    ]
    # The round has ended: one round done, no running round's segments.
    assert after == ConsolidationProgress(rounds=1)


def test_idle_wait_shows_the_progress_and_prints_the_same_summary(
    harness: Harness, store: PostgresStore
) -> None:
    session = uuid.uuid4()
    events = conversation(OWNER, session, 70, seed=70)
    append(store, events)
    segments = len(planned(events, session))
    # A few seconds a round, so the once-a-second poll sees it.
    provider = ScriptedProvider(plausible_answer, latency_s=0.4)
    with harness.worker(WorkerPorts(store, provider)) as worker:
        done = subprocess.run(
            idle_wait(session),
            cwd=REPO,
            env=agent_env(harness, worker.task_queue, terminal=True),
            capture_output=True,
            text=True,
            timeout=120,
        )

    assert done.returncode == 0, done.stderr[-2000:]
    assert f"round 1: 1 of {segments} segment(s) committed" in done.stderr, done.stderr[-2000:]
    # The summary line other tools read is unchanged.
    outcomes = "|".join(outcome.value for outcome in RunOutcome)
    summary = rf"1 round\(s\); last: ({outcomes}), events 1-{len(events)}, {segments} segment\(s\)"
    assert re.fullmatch(summary, done.stdout.splitlines()[-1]), done.stdout


def test_idle_wait_with_no_worker_says_which_task_queue_needs_one(harness: Harness) -> None:
    session = uuid.uuid4()
    queue = f"unpolled-{uuid.uuid4().hex[:8]}"
    waiting = subprocess.Popen(
        idle_wait(session),
        cwd=REPO,
        env=agent_env(harness, queue, terminal=True),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _, shown = waiting.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        waiting.terminate()
        _, shown = waiting.communicate(timeout=30)
    finally:
        harness.run(
            harness.client.get_workflow_handle(f"consolidate/t1/p1/{session}").terminate(
                reason="test cleanup"
            )
        )
    assert f"waiting for a worker on task queue {queue}" in shown, shown[-2000:]


def test_ctrl_c_while_waiting_says_the_consolidation_goes_on(harness: Harness, store: PostgresStore) -> None:
    session = uuid.uuid4()
    events = conversation(OWNER, session, 70, seed=70)
    append(store, events)
    # Slow enough that the round is still running when the interrupt arrives.
    provider = ScriptedProvider(plausible_answer, latency_s=0.4)
    with harness.worker(WorkerPorts(store, provider)) as worker:
        waiting = subprocess.Popen(
            idle_wait(session),
            cwd=REPO,
            env=agent_env(harness, worker.task_queue),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert waiting.stdout is not None
        sent = waiting.stdout.readline()
        waiting.send_signal(signal.SIGINT)
        out, err = waiting.communicate(timeout=60)
        workflow_id = sent.removeprefix("idle sent to ").strip()
        summary = harness.run(
            harness.client.get_workflow_handle_for(ConsolidateSessionWorkflow.run, workflow_id).result()
        )

    assert waiting.returncode == 130, err[-2000:]
    assert err.splitlines()[-1:] == [f"agent: stopped waiting; {workflow_id} goes on"], err[-2000:]
    assert out == ""
    # The interrupt stopped the wait only: the round ran to its end.
    assert summary.last_round is not None and summary.last_round.to_seq == len(events)
