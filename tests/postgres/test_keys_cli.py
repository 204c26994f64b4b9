"""`agent keys issue|list|revoke` against a real PostgreSQL: the secret is printed once and only its digest is
stored; a running Authenticator sees an issued key and a revoked one from the next call, no restart."""

import json
import re
from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from typer.testing import CliRunner

from adapters.api.auth import Authenticator, token_digest
from adapters.cli.api import api_app
from adapters.cli.keys import keys_app
from adapters.postgres.keys import PostgresKeyStore
from domain.candidates import Sensitivity
from domain.keys import KeyRefusal, KeyRefused
from domain.owner import Owner

pytestmark = pytest.mark.postgres


@pytest.fixture
def database(postgres_url: str, postgres_engine: Engine, monkeypatch: pytest.MonkeyPatch) -> Engine:
    monkeypatch.setenv("DATABASE_URL", postgres_url)
    monkeypatch.delenv("API_TOKENS_FILE", raising=False)
    with postgres_engine.begin() as connection:
        connection.execute(text("TRUNCATE api_keys"))
    return postgres_engine


def _issue(*args: str) -> str:
    result = CliRunner().invoke(keys_app, ["issue", *args])
    assert result.exit_code == 0, result.output
    [secret] = re.findall(r"mk_\S+", result.stdout)
    return secret


def test_keys_are_issued_listed_and_revoked_while_an_authenticator_runs(database: Engine) -> None:
    authenticator = Authenticator(PostgresKeyStore(database))
    personal = _issue("--tenant", "acme", "--principal", "alice", "--name", "alice's laptop")
    service = _issue("--tenant", "acme", "--service", "--ceiling", "internal")
    assert authenticator.resolve(personal).owner == Owner(tenant_id="acme", principal_id="alice")
    assert authenticator.resolve(service, "bob").owner == Owner(tenant_id="acme", principal_id="bob")
    with database.connect() as connection:
        stored = " ".join(str(v) for row in connection.execute(text("SELECT * FROM api_keys")) for v in row)
    assert personal not in stored and service not in stored

    listed = CliRunner().invoke(keys_app, ["list"])
    assert listed.exit_code == 0, listed.output
    assert "alice's laptop" in listed.output and "service" in listed.output and personal not in listed.output
    key_id = PostgresKeyStore(database).listed("acme")[0].key_id

    revoked = CliRunner().invoke(keys_app, ["revoke", str(key_id)])
    assert revoked.exit_code == 0, revoked.output
    with pytest.raises(KeyRefused) as refused:
        authenticator.resolve(personal)
    assert refused.value.reason is KeyRefusal.UNAUTHENTICATED
    assert authenticator.resolve(service, "bob").owner.principal_id == "bob"


def test_issue_needs_exactly_one_of_principal_and_service(database: Engine) -> None:
    for args in ([], ["--principal", "p", "--service"]):
        result = CliRunner().invoke(keys_app, ["issue", "--tenant", "acme", *args])
        assert result.exit_code == 2
        assert "exactly one of --principal" in result.output
    assert PostgresKeyStore(database).listed() == []


def test_agent_api_refuses_to_start_without_any_key(database: Engine) -> None:
    result = CliRunner().invoke(api_app, [])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "no API key configured: issue one with `agent keys issue` or set API_TOKENS_FILE"
    ]


def test_a_tokens_file_moves_into_the_store_and_its_tokens_keep_working(
    database: Engine, tmp_path: Path
) -> None:
    tokens = tmp_path / "tokens.json"
    entry = {
        "sha256": token_digest("old-token"),
        "tenant_id": "acme",
        "principal_id": "carol",
        "ceiling": "internal",
    }
    tokens.write_text(json.dumps({"tokens": [entry]}), encoding="utf-8")
    first = CliRunner().invoke(keys_app, ["import-tokens", str(tokens)])
    again = CliRunner().invoke(keys_app, ["import-tokens", str(tokens)])
    assert first.exit_code == again.exit_code == 0, first.output + again.output
    assert "stored 1 key(s), 0 already stored" in first.output
    assert "stored 0 key(s), 1 already stored" in again.output
    # No tokens file configured: the store alone authenticates the old token.
    scope = Authenticator(PostgresKeyStore(database)).resolve("old-token")
    assert scope.owner == Owner(tenant_id="acme", principal_id="carol")
    assert scope.ceiling is Sensitivity.INTERNAL
