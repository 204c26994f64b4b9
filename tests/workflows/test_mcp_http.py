"""`agent mcp --transport http` over real HTTP: a request without a key (or with an unknown one) is 401 before
any tool runs; with a key, the SDK's own client adds a conversation, starts its consolidation on a real
Temporal server, remembers, recalls and cites, all as that key's principal and no one else."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import uuid4

import anyio
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from sqlalchemy import Engine

from adapters.api.auth import issue_key, token_digest
from adapters.postgres.keys import PostgresKeyStore
from adapters.postgres.uow import PostgresStore
from domain.candidates import Sensitivity
from domain.keys import IssuedKey
from domain.messages import session_uuid
from tests.builders import OTHER_PRINCIPAL, OTHER_TENANT, OWNER
from tests.ports import free_port
from tests.workflows.harness import Harness
from workflows.consolidate_session import session_workflow_id

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]


PORT = free_port()
URL = f"http://127.0.0.1:{PORT}/mcp"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}


@pytest.fixture
def keys(clean_postgres: Engine) -> PostgresKeyStore:
    return PostgresKeyStore(clean_postgres)


def issue(keys: PostgresKeyStore, principal_id: str | None) -> IssuedKey:
    """A key issued into the store as `agent keys issue` does: personal with a principal, else a service key."""
    return issue_key(
        keys,
        tenant_id=OWNER.tenant_id,
        principal_id=principal_id,
        name="test",
        ceiling=Sensitivity.SENSITIVE,
        now=datetime.now(UTC),
    )


@pytest.fixture
def mcp_http(clean_postgres: Engine, harness: Harness, tmp_path: Path) -> Iterator[None]:
    tokens = tmp_path / "tokens.json"
    entries = [
        {"sha256": token_digest("mine"), "tenant_id": OWNER.tenant_id, "principal_id": OWNER.principal_id},
        {"sha256": token_digest("theirs"), "tenant_id": OTHER_TENANT.tenant_id, "principal_id": "p1"},
    ]
    tokens.write_text(json.dumps({"tokens": entries}), encoding="utf-8")
    environment = {
        **os.environ,
        "DATABASE_URL": clean_postgres.url.render_as_string(hide_password=False),
        "TEMPORAL_ADDRESS": harness.address,
        "API_TOKENS_FILE": str(tokens),
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    environment.pop("MCP_TOKEN", None)
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from adapters.cli.main import app; app()",
            "mcp",
            "--transport",
            "http",
            "--port",
            str(PORT),
        ],
        env=environment,
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
            try:
                socket.create_connection(("127.0.0.1", PORT), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the MCP server did not listen"
                time.sleep(0.2)
        yield
    finally:
        server.terminate()
        server.wait(timeout=20)


def post(headers: dict[str, str]) -> tuple[int, str]:
    """The status and WWW-Authenticate header of an initialize request, sent as a plain HTTP client would."""
    request = urllib.request.Request(
        URL,
        data=json.dumps(INITIALIZE).encode(),
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            **headers,
        },
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers.get("WWW-Authenticate", "")
    except urllib.error.HTTPError as refused:
        return refused.code, refused.headers.get("WWW-Authenticate", "")


def test_mcp_http_refuses_a_request_without_a_valid_key(mcp_http: None, keys: PostgresKeyStore) -> None:
    status, challenge = post({})
    assert status == 401 and challenge.startswith("Bearer")
    assert post({"Authorization": "Bearer not-a-key"})[0] == 401
    assert post({"Authorization": "Bearer mine"})[0] == 200
    # A key issued or revoked while the server runs counts from the next request.
    issued = issue(keys, OWNER.principal_id)
    assert post({"Authorization": f"Bearer {issued.secret}"})[0] == 200
    keys.revoke(issued.key.key_id, datetime.now(UTC))
    assert post({"Authorization": f"Bearer {issued.secret}"})[0] == 401


def keyed(key: str) -> Client:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {key}"})
    return Client(streamable_http_client(URL, http_client=http), read_timeout_seconds=60)


def structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return dict(result.structured_content)


def test_mcp_http_writes_and_reads_as_the_keys_principal(
    mcp_http: None, harness: Harness, clean_postgres: Engine
) -> None:
    session = uuid4()
    now = datetime.now(UTC).isoformat()
    messages = [
        {"seq": 1, "kind": "user_message", "text": "I go bouldering every Tuesday.", "occurred_at": now},
        {"seq": 2, "kind": "assistant_message", "text": "Nice, which gym?", "occurred_at": now},
        {"seq": 3, "kind": "user_message", "text": "secret", "occurred_at": "not a time"},
    ]

    async def calls() -> dict[str, Any]:
        async with keyed("mine") as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            assert {"add_messages", "consolidate", "remember", "recall", "cite", "forget"} <= names
            added = structured(
                await client.call_tool("add_messages", {"session_id": str(session), "messages": messages})
            )
            assert (added["appended"], added["refused"]) == (
                2,
                [{"index": 2, "field": "occurred_at", "reason": "datetime_from_date_parsing"}],
            )
            started = structured(await client.call_tool("consolidate", {"session_id": str(session)}))
            remembered = structured(
                await client.call_tool(
                    "remember",
                    {
                        "subject": "hobby:climbing",
                        "statement": "User goes bouldering every Tuesday.",
                        "claim_kind": "preference",
                        "source_session_id": str(session),
                        "source_seq": 1,
                    },
                )
            )
            recalled = structured(await client.call_tool("recall", {"query": "bouldering"}))
            assert recalled["returned_ids"] == [remembered["belief_id"]]
            cited = structured(
                await client.call_tool(
                    "cite",
                    {
                        "run_id": recalled["run_id"],
                        "returned_ids": recalled["returned_ids"],
                        "cited_ids": recalled["returned_ids"],
                    },
                )
            )
            assert cited["cited"] == 1
            refused = await client.call_tool("recall", {"query": "bouldering", "user_id": "p2"})
            assert refused.is_error and refused.content[0].text.endswith(": user_id_not_allowed")  # type: ignore[union-attr]
        async with keyed("theirs") as client:
            # Another tenant's key sees none of it, and cannot reach it by id.
            assert structured(await client.call_tool("recall", {"query": "bouldering"}))["returned_ids"] == []
            assert (await client.call_tool("get_belief", {"belief": remembered["belief_id"]})).is_error
            assert (await client.call_tool("forget", {"belief": remembered["belief_id"]})).is_error
        return started

    started = anyio.run(calls)
    assert started["workflow_id"] == session_workflow_id(OWNER.tenant_id, OWNER.principal_id, session)
    handle = harness.client.get_workflow_handle(started["workflow_id"])
    assert harness.run(handle.describe()).id == started["workflow_id"]
    harness.run(handle.terminate())
    with PostgresStore(clean_postgres)() as uow:
        assert [e.seq for e in uow.events.read_range(OWNER, session, 0, 10)] == [1, 2]
        assert uow.events.read_range(OTHER_TENANT, session, 0, 10) == []


def test_mcp_http_service_key_acts_for_the_user_each_call_names(
    mcp_http: None, keys: PostgresKeyStore
) -> None:
    service = issue(keys, None).secret
    now = datetime.now(UTC).isoformat()

    async def calls() -> None:
        async with keyed(service) as client:
            unnamed = await client.call_tool("recall", {"query": "tea"})
            assert unnamed.is_error and unnamed.content[0].text.endswith(": user_id_required")  # type: ignore[union-attr]
            added = structured(
                await client.call_tool(
                    "add_messages",
                    {
                        "session_id": "chat-7",
                        "user_id": "p2",
                        "messages": [{"role": "user", "content": "I drink green tea.", "occurred_at": now}],
                    },
                )
            )
            assert added["appended"] == 1
        async with keyed("mine") as client:
            # p1's key does not see what the service stored for p2 under the same client session name.
            listed = structured(await client.call_tool("list_beliefs", {}))
            assert listed["beliefs"] == []

    anyio.run(calls)
    with PostgresStore(keys.engine)() as uow:
        session = session_uuid(OTHER_PRINCIPAL, "chat-7")
        [stored] = uow.events.read_range(OTHER_PRINCIPAL, session, 0, 10)
        assert (stored.seq, stored.kind.value) == (1, "user_message")
        assert uow.events.read_range(OWNER, session_uuid(OWNER, "chat-7"), 0, 10) == []
