"""Worker Versioning: a worker registers its deployment name and build id, and with versioning on a
consolidation runs once that build is made current (the rollout docs/operations/worker-versioning.md describes)."""

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from temporalio.api.workflowservice.v1 import SetWorkerDeploymentCurrentVersionRequest
from temporalio.common import VersioningBehavior
from temporalio.service import RPCError

from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.settings import Settings
from adapters.temporal.client import session_idle
from adapters.temporal.versioning import build_id, deployment_config
from adapters.temporal.worker import WorkerPorts
from domain.telemetry import RunOutcome
from tests.workflows.conversations import conversation, plausible_answer
from tests.workflows.harness import Harness
from tests.workflows.support import OWNER, append

pytestmark = [pytest.mark.temporal, pytest.mark.postgres]

REPO = Path(__file__).resolve().parents[2]


def test_versioning_is_opt_in_and_then_auto_upgrade() -> None:
    plain = deployment_config(Settings(_env_file=None))  # type: ignore[call-arg]
    assert not plain.use_worker_versioning
    assert plain.default_versioning_behavior is VersioningBehavior.UNSPECIFIED
    versioned = deployment_config(Settings(_env_file=None, worker_versioning=True))  # type: ignore[call-arg]
    assert versioned.default_versioning_behavior is VersioningBehavior.AUTO_UPGRADE


def test_build_id_names_the_release_and_the_commit() -> None:
    settings = Settings(_env_file=None, build_commit="0123456789abcdef0123")  # type: ignore[call-arg]
    assert build_id(settings).endswith("0123456789ab")
    assert build_id(settings).startswith("0.")


def test_a_versioned_worker_runs_a_consolidation_once_its_build_is_current(
    harness: Harness, store: PostgresStore, postgres_url: str
) -> None:
    deployment = f"memory-test-{uuid.uuid4().hex[:8]}"
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, worker_deployment_name=deployment, worker_versioning=True, build_commit="feedbeef"
    )
    config = deployment_config(settings)
    session = uuid.uuid4()
    append(store, conversation(OWNER, session, 4, seed=5))
    with harness.worker(WorkerPorts(store, ScriptedProvider(plausible_answer)), deployment=config) as worker:
        request = SetWorkerDeploymentCurrentVersionRequest(
            namespace="default", deployment_name=deployment, build_id=config.version.build_id
        )
        deadline = time.monotonic() + 60
        while True:  # the deployment exists once the worker has polled
            try:
                harness.run(harness.client.workflow_service.set_worker_deployment_current_version(request))
                break
            except RPCError:
                assert time.monotonic() < deadline, "the worker's deployment never appeared"
                time.sleep(0.5)
        handle = harness.run(
            session_idle(
                harness.client, OWNER.tenant_id, OWNER.principal_id, session, task_queue=worker.task_queue
            )
        )
        summary = harness.run(handle.result(), timeout=120)
        described = harness.run(handle.describe())
    assert summary.last_round is not None and summary.last_round.outcome is not RunOutcome.NOTHING_TO_DO
    versioning = described.raw_description.workflow_execution_info.versioning_info
    assert versioning.deployment_version.build_id == config.version.build_id

    # The build stays current after its workers are gone: a worker started without versioning would
    # receive no task at all, so it refuses to start and says how to hand the queue back.
    done = subprocess.run(
        [sys.executable, "-m", "adapters.cli.main", "worker"],
        cwd=REPO,
        env=os.environ
        | {
            "PYTHONPATH": str(REPO),
            "TEMPORAL_ADDRESS": harness.address,
            "TEMPORAL_TASK_QUEUE": worker.task_queue,
            "DATABASE_URL": postgres_url,
            "WORKER_DEPLOYMENT_NAME": deployment,
            "WORKER_VERSIONING": "false",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr[-3000:]
    last = done.stderr.strip().splitlines()[-1]
    assert config.version.build_id in last and f"--deployment-name {deployment} --unversioned" in last, last
