"""`agent memory embed` and `agent memory recall` against real PostgreSQL with the bundled model: what lacks a
vector is embedded, a second run finds nothing left, and recall then finds a belief by meaning."""

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine
from typer.testing import CliRunner

from adapters.cli.main import app
from adapters.embeddings.wordllama_embedder import MODEL
from adapters.postgres.uow import PostgresStore
from tests.builders import OWNER, belief

pytestmark = pytest.mark.postgres


def test_embed_then_recall_by_meaning(
    clean_postgres: Engine, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", postgres_url)
    store = PostgresStore(clean_postgres)
    recent = datetime.now(UTC) - timedelta(days=1)
    diet = belief(
        subject="diet:vegetarian",
        statement="User is vegetarian and allergic to peanuts.",
        last_evidence_at=recent,
    )
    car = belief(subject="car:vehicle", statement="User drives a 2015 Toyota Prius.", last_evidence_at=recent)
    with store() as uow:
        uow.beliefs.upsert_many([diet, car])
        uow.commit()
    runner = CliRunner()
    refused = runner.invoke(app, ["memory", "embed", "--tenant", OWNER.tenant_id])
    assert refused.exit_code != 0
    first = runner.invoke(app, ["memory", "embed", "--backfill"])
    assert first.exit_code == 0, first.output
    assert f"embedded 2 beliefs with {MODEL}" in first.output
    again = runner.invoke(
        app, ["memory", "embed", "--tenant", OWNER.tenant_id, "--principal", OWNER.principal_id]
    )
    assert again.exit_code == 0 and "embedded 0 beliefs" in again.output
    found = runner.invoke(
        app,
        [
            "memory",
            "recall",
            "--tenant",
            OWNER.tenant_id,
            "--principal",
            OWNER.principal_id,
            "--query",
            "any dietary restrictions?",
            "--k",
            "1",
        ],
    )
    assert found.exit_code == 0, found.output
    assert "vegetarian" in found.output and "Prius" not in found.output
