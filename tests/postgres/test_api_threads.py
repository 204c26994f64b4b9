"""An API process runs as many requests at once as its database pool has connections (DATABASE_POOL_SIZE):
a request thread more would wait for a connection or open and close one beyond the pool."""

import json
from pathlib import Path

import anyio.to_thread
import pytest
from fastapi.testclient import TestClient

from adapters.api.auth import token_digest
from adapters.cli.api import EMBEDDED_ENV, SERVE_ENV, serve_app

pytestmark = pytest.mark.postgres


async def _request_threads() -> int:
    return int(anyio.to_thread.current_default_thread_limiter().total_tokens)


def test_request_threads_are_as_many_as_the_pools_connections(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tokens = tmp_path / "tokens.json"
    entry = {"sha256": token_digest("threads-token"), "tenant_id": "t1", "principal_id": "p1"}
    tokens.write_text(json.dumps({"tokens": [entry]}))
    monkeypatch.setenv("DATABASE_URL", postgres_url)
    monkeypatch.setenv("API_TOKENS_FILE", str(tokens))
    monkeypatch.setenv("DATABASE_POOL_SIZE", "3")
    monkeypatch.setenv(EMBEDDED_ENV, "")
    monkeypatch.setenv(SERVE_ENV, "{}")
    with TestClient(serve_app()) as client:
        assert client.portal is not None
        assert client.portal.call(_request_threads) == 3
        response = client.post("/v1/recall", json={"k": 5}, headers={"Authorization": "Bearer threads-token"})
        assert response.status_code == 200
