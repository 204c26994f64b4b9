"""The `agent` program's exits against a real Temporal dev server: the outcome is the command's, always."""

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from domain.messages import session_uuid
from domain.owner import Owner
from tests.workflows.harness import Harness

pytestmark = pytest.mark.temporal

REPO = Path(__file__).resolve().parents[2]


def agent(*args: str, address: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "adapters.cli.main", *args],
        cwd=REPO,
        env=os.environ
        | {"PYTHONPATH": str(REPO), "TEMPORAL_ADDRESS": address, "TEMPORAL_TASK_QUEUE": "no-worker"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_session_idle_exits_zero_every_time_the_signal_was_sent(harness: Harness) -> None:
    # Before the fix, runtime finalization aborted about one call in four under load (exit 134 or 139).
    sessions = [str(uuid.uuid4()) for _ in range(3)]
    for attempt in range(20):
        done = agent(
            "session",
            "idle",
            "--tenant",
            "t1",
            "--principal",
            "p1",
            "--session",
            sessions[attempt % 3],
            address=harness.address,
        )
        assert done.returncode == 0, f"attempt {attempt}: exit {done.returncode}: {done.stderr[-2000:]}"
        assert done.stdout.startswith("idle sent to consolidate/t1/p1/")
    for session in sessions:
        handle = harness.client.get_workflow_handle(f"consolidate/t1/p1/{session}")
        harness.run(handle.terminate(reason="test cleanup"))


def test_session_idle_names_a_session_as_the_api_does(harness: Harness) -> None:
    # The agent sent its events as session "chat-1": the operator consolidates it by the same name.
    stored = session_uuid(Owner(tenant_id="t1", principal_id="p1"), "chat-1")
    done = agent(
        "session",
        "idle",
        "--tenant",
        "t1",
        "--principal",
        "p1",
        "--session",
        "chat-1",
        address=harness.address,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == f"idle sent to consolidate/t1/p1/{stored}"
    harness.run(
        harness.client.get_workflow_handle(f"consolidate/t1/p1/{stored}").terminate(reason="test cleanup")
    )
