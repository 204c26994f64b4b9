"""`agent worker` as an operator runs it: a process of its own against Temporal and PostgreSQL, read from
its exit code and its log lines."""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from adapters.postgres.uow import PostgresStore
from tests.workflows.conversations import NAMES, conversation
from tests.workflows.harness import Harness
from tests.workflows.support import OWNER, append, consolidate

pytestmark = [pytest.mark.temporal, pytest.mark.postgres]

REPO = Path(__file__).resolve().parents[2]


def worker_env(harness: Harness, postgres_url: str, queue: str) -> dict[str, str]:
    return os.environ | {
        "PYTHONPATH": str(REPO),
        "TEMPORAL_ADDRESS": harness.address,
        "TEMPORAL_TASK_QUEUE": queue,
        "DATABASE_URL": postgres_url,
    }


@contextmanager
def busy_port() -> Iterator[int]:
    """A port another process (here: this one) already listens on, on every interface as the worker would."""
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        yield taken.getsockname()[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("option", ["--metrics-port", "--health-port"])
def test_a_port_in_use_is_one_line_naming_it(harness: Harness, postgres_url: str, option: str) -> None:
    # Two workers on one host with the same WORKER_METRICS_PORT: the second says so and stops.
    with busy_port() as port:
        done = subprocess.run(
            [sys.executable, "-m", "adapters.cli.main", "worker", option, str(port)],
            cwd=REPO,
            env=worker_env(harness, postgres_url, f"tq-{uuid.uuid4().hex[:8]}"),
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 2, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("agent: ") and f"port {port}" in last and option in last, done.stderr[-3000:]


def ready(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=5) as answer:
            return answer.status == 200
    except (urllib.error.URLError, ConnectionError):
        return False


def test_log_lines_carry_their_context_and_no_content(
    harness: Harness, postgres_url: str, store: PostgresStore
) -> None:
    queue = f"tq-{uuid.uuid4().hex[:8]}"
    health = free_port()
    worker = subprocess.Popen(
        [sys.executable, "-m", "adapters.cli.main", "worker", "--health-port", str(health)],
        cwd=REPO,
        env=worker_env(harness, postgres_url, queue),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not ready(health):
            assert worker.poll() is None and time.monotonic() < deadline, "the worker did not get ready"
            time.sleep(0.3)
        for _ in range(3):  # an orchestrator probes every few seconds, for as long as the worker runs
            assert ready(health)
        session = uuid.uuid4()
        append(store, conversation(OWNER, session, 3))
        consolidate(harness, queue, session)
    finally:
        worker.send_signal(signal.SIGTERM)
        _, log = worker.communicate(timeout=60)
    assert worker.returncode == 0, log[-3000:]
    lines = log.splitlines()

    def line(message: str) -> str:
        found = [entry for entry in lines if message in entry]
        assert found, f"no {message!r} line in:\n{log[-3000:]}"
        return found[0]

    # A mapping of context (the selection audit) is one pair per field, as logfmt readers expect.
    assert "selection.chosen_policy=deterministic" in line("Memories are formed by")
    polling = line("worker polling")
    # What an operator needs for `temporal worker deployment set-current-version` and to find the worker.
    assert f"task_queue={queue}" in polling and "namespace=default" in polling
    assert "deployment=memory-consolidation" in polling and "build_id=" in polling
    assert f"port={health}" in line("health endpoint listening")
    planned = line("batch planned")
    assert "event_count=6" in planned and "segment_count=" in planned
    assert f"workflow_id=consolidate/{OWNER.tenant_id}/{OWNER.principal_id}/{session}" in planned
    assert "activity=load_batch" in planned
    assert "from_seq=0" in line("watermark advanced") and "to_seq=6" in line("watermark advanced")
    # Readiness probes read the schema revision: that is no news for the log.
    assert not [entry for entry in lines if "alembic" in entry], log[-3000:]
    assert not [name for name in NAMES if name in log], "source text reached the log"


def test_a_namespace_without_the_search_attributes_is_refused_at_start(
    harness: Harness, postgres_url: str
) -> None:
    """Otherwise every workflow task that sets one would fail and retry, and consolidations would hang."""
    from google.protobuf.duration_pb2 import Duration
    from temporalio.api.workflowservice.v1 import RegisterNamespaceRequest

    namespace = f"bare-{uuid.uuid4().hex[:8]}"
    harness.run(
        harness.client.workflow_service.register_namespace(
            RegisterNamespaceRequest(
                namespace=namespace, workflow_execution_retention_period=Duration(seconds=86_400)
            )
        )
    )
    done = subprocess.run(
        [sys.executable, "-m", "adapters.cli.main", "worker"],
        cwd=REPO,
        env=worker_env(harness, postgres_url, f"tq-{uuid.uuid4().hex[:8]}")
        | {"TEMPORAL_NAMESPACE": namespace},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr[-3000:]
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("agent: ") and namespace in last, done.stderr[-3000:]
    for attribute in ("FormationPolicy", "ConsolidationOutcome", "RepassState"):
        assert attribute in last
    assert "temporal operator search-attribute create" in last
