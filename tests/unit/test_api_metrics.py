"""The API's metrics, scraped over real HTTP from the port they are served on: requests by route template,
method and status, and the latency of served recalls; no label carries an id, a query or a key."""

import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from uuid import uuid4

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from adapters.api.http import create_app
from adapters.api.surface import AgentSurface
from adapters.memory.store import InMemoryStore
from adapters.observability.api_metrics import (
    MULTIPROC_ENV,
    RECALL_LATENCY,
    REQUESTS,
    UNMATCHED,
    ApiMetrics,
    RequestMetrics,
    serve_workers,
)
from tests.builders import OWNER
from tests.ports import free_port
from tests.unit.test_agent_api import MINE, NOW, Idle, auth, registry_for


@pytest.fixture
def metrics() -> ApiMetrics:
    return ApiMetrics()


@pytest.fixture
def client(metrics: ApiMetrics, tmp_path: Path) -> TestClient:
    surface = AgentSurface(store=InMemoryStore(), idle_signal=Idle(), clock=lambda: NOW)
    app = create_app(surface, registry_for({MINE: OWNER}, tmp_path / "tokens.json"), {})
    app.add_middleware(RequestMetrics, metrics=metrics)
    return TestClient(app, raise_server_exceptions=False)


@pytest.fixture
def scrape(metrics: ApiMetrics) -> Iterator[str]:
    port = free_port()
    server = metrics.serve("127.0.0.1", port)
    try:
        yield f"http://127.0.0.1:{port}/metrics"
    finally:
        server.shutdown()
        server.server_close()


def samples(url: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    with urllib.request.urlopen(url, timeout=5) as response:
        text = response.read().decode()
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def requests(route: str, method: str, status: int) -> tuple[str, frozenset[tuple[str, str]]]:
    return f"{REQUESTS}_total", frozenset({("route", route), ("method", method), ("status", str(status))})


def test_requests_by_route_and_status_and_recall_latency(client: TestClient, scrape: str) -> None:
    belief = uuid4()
    query = "where do I go bouldering"
    assert client.post("/v1/recall", json={"query": query}, headers=auth()).status_code == 200
    assert client.post("/v1/recall", json={"query": query}, headers=auth()).status_code == 200
    assert client.post("/v1/recall", json={"query": query}).status_code == 401
    assert client.get(f"/v1/beliefs/{belief}", headers=auth()).status_code == 404
    assert client.get(f"/v1/no-such-route/{belief}").status_code == 404

    found = samples(scrape)
    assert found[requests("/v1/recall", "POST", 200)] == 2
    assert found[requests("/v1/recall", "POST", 401)] == 1
    assert found[requests("/v1/beliefs/{belief}", "GET", 404)] == 1
    assert found[requests(UNMATCHED, "GET", 404)] == 1
    # Only the two served recalls are recall latencies; the refused one is a request, not a recall.
    assert found[(f"{RECALL_LATENCY}_count", frozenset())] == 2
    labels = " ".join(value for _, pairs in found for _, value in pairs)
    assert str(belief) not in labels and "bouldering" not in labels and MINE not in labels


RECORDER = """
from adapters.observability.api_metrics import ApiMetrics
import sys
metrics = ApiMetrics()
for _ in range(int(sys.argv[1])):
    metrics.record("/v1/recall", "POST", 200, 0.03)
"""


def test_one_port_serves_the_sum_of_every_worker_process(tmp_path: Path) -> None:
    # Two processes record as two `agent api` workers do: into one multiprocess directory, then they end.
    environment = {**os.environ, MULTIPROC_ENV: str(tmp_path)}
    for count in (3, 4):
        subprocess.run([sys.executable, "-c", RECORDER, str(count)], env=environment, check=True, timeout=60)
    port = free_port()
    server = serve_workers("127.0.0.1", port, tmp_path)
    try:
        found = samples(f"http://127.0.0.1:{port}/metrics")
    finally:
        server.shutdown()
        server.server_close()
    assert found[requests("/v1/recall", "POST", 200)] == 7
    assert found[(f"{RECALL_LATENCY}_count", frozenset())] == 7
    assert found[(f"{RECALL_LATENCY}_bucket", frozenset({("le", "0.05")}))] == 7
    assert found[(f"{RECALL_LATENCY}_bucket", frozenset({("le", "0.025")}))] == 0
