"""An API process runs as many requests at once as its database pool has connections (DATABASE_POOL_SIZE):
a request thread more would wait for a connection or open and close one beyond the pool; and it is ready
to recall before it accepts one."""

import json
from pathlib import Path

import anyio.to_thread
import pytest
from fastapi.testclient import TestClient

from adapters.api.auth import token_digest
from adapters.cli.api import EMBEDDED_ENV, SERVE_ENV, serve_app
from domain.beliefs.spelling import corrections
from domain.beliefs.wordnet import _table as wordnet_table
from domain.beliefs.wordnet import relatives
from domain.formation.language import english_words

pytestmark = pytest.mark.postgres


@pytest.fixture
def served(postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment `agent api` gives its workers, with one key: "threads-token"."""
    tokens = tmp_path / "tokens.json"
    entry = {"sha256": token_digest("threads-token"), "tenant_id": "t1", "principal_id": "p1"}
    tokens.write_text(json.dumps({"tokens": [entry]}))
    monkeypatch.setenv("DATABASE_URL", postgres_url)
    monkeypatch.setenv("API_TOKENS_FILE", str(tokens))
    monkeypatch.setenv(EMBEDDED_ENV, "")
    monkeypatch.setenv(SERVE_ENV, "{}")


async def _request_threads() -> int:
    return int(anyio.to_thread.current_default_thread_limiter().total_tokens)


def test_request_threads_are_as_many_as_the_pools_connections(
    served: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_POOL_SIZE", "3")
    with TestClient(serve_app()) as client:
        assert client.portal is not None
        assert client.portal.call(_request_threads) == 3
        response = client.post("/v1/recall", json={"k": 5}, headers={"Authorization": "Bearer threads-token"})
        assert response.status_code == 200


def test_a_worker_reads_the_recall_tables_before_its_first_request(served: None) -> None:
    # Read on a worker's first recall instead, they held every request queued behind it for seconds.
    for cached in (wordnet_table, relatives, english_words, corrections):
        cached.cache_clear()
    with TestClient(serve_app()):
        assert wordnet_table.cache_info().currsize == 1
        assert english_words.cache_info().currsize == 1
