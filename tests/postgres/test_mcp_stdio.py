"""`agent mcp` over stdio, driven by the MCP SDK's own client: the tools act for the configured token's
principal only, and their results carry the rendered block."""

import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from uuid import uuid4

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from sqlalchemy import Engine

from adapters.api.auth import token_digest
from adapters.postgres.uow import PostgresStore
from domain.beliefs.records import ClosedReason, SourceSpan
from domain.beliefs.retrieval import BLOCK_OPEN
from domain.events import EventRef
from tests.builders import OTHER_PRINCIPAL, OWNER, belief, event

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]


def test_mcp_tools_over_stdio(clean_postgres: Engine, tmp_path: Path) -> None:
    session = uuid4()
    # The server runs in its own process on the wall clock, so the beliefs' evidence must be recent: builders'
    # fixed T0 falls behind an ongoing belief's 90-day expiry horizon once the calendar passes it.
    now = datetime.now(UTC)
    mine = belief(
        subject="hobby:climbing",
        statement="User goes bouldering every Tuesday.",
        source_event_ids=(EventRef(session_id=session, seq=1),),
        evidence_spans=(SourceSpan(session_id=session, seq=1, text="bouldering every Tuesday"),),
        valid_from=now,
        last_evidence_at=now,
        updated_at=now,
    )
    wrong = belief(
        subject="hobby:climbing",
        statement="User climbs indoors only.",
        valid_from=now,
        last_evidence_at=now,
        updated_at=now,
    )
    theirs = belief(
        owner=OTHER_PRINCIPAL,
        subject="hobby:climbing",
        statement="User goes bouldering daily.",
        valid_from=now,
        last_evidence_at=now,
        updated_at=now,
    )
    store = PostgresStore(clean_postgres)
    with store() as uow:
        uow.events.append([event(1, "I go bouldering every Tuesday.", session_id=session)])
        uow.beliefs.upsert_many([mine, wrong, theirs])
        uow.commit()
    tokens = tmp_path / "tokens.json"
    entry = {
        "sha256": token_digest("mcp-secret"),
        "tenant_id": OWNER.tenant_id,
        "principal_id": OWNER.principal_id,
    }
    tokens.write_text(json.dumps({"tokens": [entry]}), encoding="utf-8")
    server = StdioServerParameters(
        command=sys.executable,
        args=["-c", "from adapters.cli.main import app; app()", "mcp"],
        env={
            "DATABASE_URL": clean_postgres.url.render_as_string(hide_password=False),
            "API_TOKENS_FILE": str(tokens),
            "MCP_TOKEN": "mcp-secret",
            "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        },
        cwd=str(tmp_path),
    )

    async def session_calls() -> None:
        async with Client(server, read_timeout_seconds=60) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            assert names == {
                "add_messages",
                "consolidate",
                "remember",
                "recall",
                "get_belief",
                "list_beliefs",
                "cite",
                "reject",
                "forget",
            }
            # The user says a memory is wrong: closed as rejected, once per request, and never another's.
            rejecting = {"belief": str(wrong.id), "request_id": str(uuid4())}
            rejected = (await client.call_tool("reject", rejecting)).structured_content
            retried = (await client.call_tool("reject", rejecting)).structured_content
            assert rejected == {"outcome": "applied", "belief_id": str(wrong.id), "closed_as": None}
            assert retried is not None and retried["outcome"] == "already_applied"
            refusals = [
                await client.call_tool("reject", {"belief": str(theirs.id)}),
                await client.call_tool("reject", {"belief": str(mine.id), "request_id": "r-1"}),
            ]
            assert [[part.text for part in r.content if hasattr(part, "text")] for r in refusals] == [
                ["Error executing tool reject: not_found"],
                ["Error executing tool reject: invalid_id: request_id"],
            ]
            recalled = (
                await client.call_tool("recall", {"query": "when do I go bouldering?"})
            ).structured_content
            assert recalled is not None
            assert recalled["context"].startswith(BLOCK_OPEN)
            assert recalled["returned_ids"] == [str(mine.id)]
            shown = (await client.call_tool("get_belief", {"belief": str(mine.id)})).structured_content
            assert shown is not None
            assert shown["belief"]["provenance"][0]["evidence_span"] == "bouldering every Tuesday"
            added = await client.call_tool(
                "add_messages",
                {
                    "session_id": str(session),
                    "messages": [
                        {
                            "seq": 2,
                            "kind": "user_message",
                            "text": "And Fridays.",
                            "occurred_at": now.isoformat(),
                        }
                    ],
                },
            )
            assert added.structured_content is not None and added.structured_content["appended"] == 1
            # Only the user's own words can be remembered: the assistant's reply is refused by reason code.
            await client.call_tool(
                "add_messages",
                {"session_id": str(session), "messages": [{"role": "assistant", "content": "You climb."}]},
            )
            from_assistant = await client.call_tool(
                "remember",
                {
                    "subject": "hobby:climbing",
                    "statement": "User climbs.",
                    "claim_kind": "interest",
                    "source_session_id": str(session),
                    "source_seq": 3,
                },
            )
            assert from_assistant.is_error
            assert [part.text for part in from_assistant.content if hasattr(part, "text")] == [
                "Error executing tool remember: source_not_user"
            ]
            # A personal key names no other user: the call is refused, not re-scoped.
            named = await client.call_tool("list_beliefs", {"user_id": OTHER_PRINCIPAL.principal_id})
            assert named.is_error
            foreign = await client.call_tool("get_belief", {"belief": str(theirs.id)})
            assert foreign.is_error
            assert (await client.call_tool("forget", {"belief": str(theirs.id)})).is_error
            cited = await client.call_tool(
                "cite",
                {"run_id": recalled["run_id"], "returned_ids": [str(mine.id)], "cited_ids": [str(mine.id)]},
            )
            assert cited.structured_content is not None and cited.structured_content["cited"] == 1
            # Arguments that fail validation are refused by field name and reason code, never quoted.
            invalid = await client.call_tool("recall", {"query": "my secret words", "k": "lots"})
            assert invalid.is_error
            assert [part.text for part in invalid.content if hasattr(part, "text")] == [
                "invalid_arguments: k"
            ]
            forgotten = (await client.call_tool("forget", {"belief": str(mine.id)})).structured_content
            assert forgotten is not None and forgotten["outcome"] == "applied"

    anyio.run(session_calls)
    with store() as uow:
        assert uow.beliefs.get(OTHER_PRINCIPAL, theirs.id) == theirs
        stored = {b.id: b.closed_reason for b in uow.beliefs.page(OWNER, None, 10, live_only=False)}
    assert stored == {mine.id: ClosedReason.DELETED, wrong.id: ClosedReason.REJECTED}
