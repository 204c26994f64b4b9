"""`agent api --workers 2` as a real server on PostgreSQL: a burst of concurrent recalls is answered without
an error and counted, all of it, on the one metrics port, and the memory page's sign-in holds on whichever
worker serves the next request."""

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx2
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine

from adapters.api.auth import token_digest
from adapters.observability.api_metrics import REQUESTS
from adapters.postgres.schema import upgrade
from benchmarks.recall_benchmark import NOUN_COUNT, TENANT, VERBS, seed
from tests.api_server import free_port

BELIEFS = 400
KEY = "api-workers-test-key"
BURST = 96
FORM_TOKEN = re.compile(r'name="sign_in_token" value="([^"]+)"')


@dataclass(frozen=True)
class Served:
    base: str
    metrics: str


@pytest.fixture(scope="module")
def api_workers(
    create_database: Callable[[], str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Served]:
    tmp_path = tmp_path_factory.mktemp("api-workers")
    url = create_database()
    engine = create_engine(url)
    try:
        upgrade(engine, "head")
        seed(engine, BELIEFS, [BELIEFS])
    finally:
        engine.dispose()
    tokens = tmp_path / "tokens.json"
    entry = {"sha256": token_digest(KEY), "tenant_id": TENANT, "principal_id": f"p-{BELIEFS}"}
    tokens.write_text(json.dumps({"tokens": [entry]}))
    port, metrics_port = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("MEMORY_PAGE_SECRET", "PROMETHEUS_MULTIPROC_DIR")}
    env |= {"DATABASE_URL": url, "API_TOKENS_FILE": str(tokens)}
    agent = Path(sys.executable).parent / "agent"
    log = tmp_path / "server.log"
    with log.open("wb") as output:
        server = subprocess.Popen(
            [
                str(agent),
                "api",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--workers",
                "2",
                "--metrics-port",
                str(metrics_port),
            ],
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                if httpx2.get(f"{base}/healthz", timeout=5).status_code == 200:
                    break
            except httpx2.TransportError:
                time.sleep(0.2)
        else:
            pytest.fail(f"agent api did not start: {log.read_text()[-2000:]}")
        yield Served(base, f"http://127.0.0.1:{metrics_port}/metrics")
        assert "Traceback" not in log.read_text(), log.read_text()[-4000:]
    finally:
        server.terminate()
        server.wait(timeout=30)


def _served_recalls(metrics: str) -> float:
    found = {
        frozenset(sample.labels.items()): sample.value
        for family in text_string_to_metric_families(httpx2.get(metrics, timeout=10).text)
        for sample in family.samples
        if sample.name == f"{REQUESTS}_total"
    }
    return found.get(frozenset({("route", "/v1/recall"), ("method", "POST"), ("status", "200")}), 0.0)


def test_a_burst_of_concurrent_recalls_on_two_workers_all_succeed_and_are_counted_on_one_port(
    api_workers: Served,
) -> None:
    before = _served_recalls(api_workers.metrics)
    queries = [
        f"do I {VERBS[i % len(VERBS)]} n{(7 * i) % NOUN_COUNT} or n{i % NOUN_COUNT}?" for i in range(BURST)
    ]

    def recall(query: str) -> int:
        # A connection per request: the kernel hands each to either worker.
        response = httpx2.post(
            f"{api_workers.base}/v1/recall",
            json={"query": query, "k": 10},
            headers={"Authorization": f"Bearer {KEY}"},
            timeout=60,
        )
        return response.status_code

    with ThreadPoolExecutor(max_workers=16) as pool:
        statuses = list(pool.map(recall, queries))
    assert statuses == [200] * BURST
    assert _served_recalls(api_workers.metrics) - before == BURST


def test_a_memory_page_sign_in_holds_on_every_worker(api_workers: Served) -> None:
    with httpx2.Client(base_url=api_workers.base, timeout=30) as browser:
        form = browser.get("/memory/sign-in")
        [token] = FORM_TOKEN.findall(form.text)
        signed = browser.post("/memory/sign-in", data={"key": KEY, "sign_in_token": token})
        assert signed.status_code == 303 and signed.headers["location"] == "/memory"
        cookies = dict(browser.cookies)
    statuses = []
    for _ in range(24):
        # A fresh connection each time, so requests land on both workers.
        with httpx2.Client(base_url=api_workers.base, timeout=30, cookies=cookies) as again:
            statuses.append(again.get("/memory", follow_redirects=False).status_code)
    assert statuses == [200] * 24
