"""The worker's /livez and /readyz: ready while it polls with the database at an accepted revision and
Temporal answering; not ready, naming the failing check and nothing else, when one of them is away."""

import json
import urllib.error
import urllib.request

import pytest
from sqlalchemy import Engine

from adapters.observability.health import health_endpoint
from adapters.postgres.schema import require_expected_revision
from adapters.postgres.uow import PostgresStore
from adapters.temporal.service import liveness, readiness
from adapters.temporal.worker import WorkerPorts
from domain.errors import WrongSchemaRevision
from tests.workflows.harness import Harness

pytestmark = [pytest.mark.temporal, pytest.mark.postgres]


def probe(port: int, path: str) -> tuple[int, dict[str, str]]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def test_probes_follow_the_worker_the_database_and_temporal(
    harness: Harness, store: PostgresStore, clean_postgres: Engine
) -> None:
    revision_ok = True

    def database_ready() -> str:
        if not revision_ok:
            raise WrongSchemaRevision("database schema is at revision none")
        return require_expected_revision(clean_postgres)

    with harness.worker(WorkerPorts(store, None)) as worker:
        endpoint = health_endpoint(
            "127.0.0.1",
            0,
            live=liveness(worker),
            ready=readiness(worker, harness.client, database_ready),
        )
        port = harness.run(endpoint.__aenter__())
        try:
            assert probe(port, "/livez") == (200, {"worker": "ok"})
            assert probe(port, "/readyz") == (
                200,
                {"worker": "ok", "database": "ok", "temporal": "ok"},
            )
            revision_ok = False
            assert probe(port, "/readyz") == (
                503,
                {"worker": "ok", "database": "failing", "temporal": "ok"},
            )
            assert probe(port, "/livez")[0] == 200, "a database away is not a reason to restart"
            assert probe(port, "/metrics")[0] == 404
        finally:
            harness.run(endpoint.__aexit__(None, None, None))
