"""`agent mcp` over stdio, driven by the MCP SDK's own client: the tools act for the configured token's
principal only, and their results carry the rendered block."""

import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.types import CallToolResult, TextContent
from sqlalchemy import Engine

from adapters.api.auth import token_digest
from adapters.api.surface import MAX_LIST_PAGE, MAX_QUERY_CHARS, MAX_RECALL
from adapters.postgres.uow import PostgresStore
from domain.beliefs.records import ClosedReason, SourceSpan
from domain.beliefs.retrieval import BLOCK_OPEN, short_ref
from domain.events import EventRef
from tests.builders import OTHER_PRINCIPAL, OWNER, belief, event
from tests.ports import free_port

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]


def stdio_server(engine: Engine, tmp_path: Path) -> StdioServerParameters:
    """`agent mcp` over stdio in its own process, acting as OWNER's personal key."""
    tokens = tmp_path / "tokens.json"
    entry = {
        "sha256": token_digest("mcp-secret"),
        "tenant_id": OWNER.tenant_id,
        "principal_id": OWNER.principal_id,
    }
    tokens.write_text(json.dumps({"tokens": [entry]}), encoding="utf-8")
    return StdioServerParameters(
        command=sys.executable,
        args=["-c", "from adapters.cli.main import app; app()", "mcp"],
        env={
            "DATABASE_URL": engine.url.render_as_string(hide_password=False),
            "API_TOKENS_FILE": str(tokens),
            "MCP_TOKEN": "mcp-secret",
            # Nothing listens there: consolidate finds Temporal away.
            "TEMPORAL_ADDRESS": f"127.0.0.1:{free_port()}",
            "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        },
        cwd=str(tmp_path),
    )


def texts(result: CallToolResult) -> list[str]:
    return [part.text for part in result.content if isinstance(part, TextContent)]


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
    server = stdio_server(clean_postgres, tmp_path)

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
                "edit",
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
            # The HTTP API's bounds, stated in the tools' schemas: a query over its length, k or a page
            # size out of range is refused, not cut or clamped.
            out_of_bounds = [
                await client.call_tool("recall", {"query": "words " * (MAX_QUERY_CHARS // 6 + 1)}),
                await client.call_tool("recall", {"query": "bouldering", "k": 0}),
                await client.call_tool("recall", {"query": "bouldering", "k": MAX_RECALL + 1}),
                await client.call_tool("list_beliefs", {"limit": 0}),
                await client.call_tool("list_beliefs", {"limit": MAX_LIST_PAGE + 1}),
            ]
            assert [texts(r) for r in out_of_bounds] == [
                ["invalid_arguments: query"],
                ["invalid_arguments: k"],
                ["invalid_arguments: k"],
                ["invalid_arguments: limit"],
                ["invalid_arguments: limit"],
            ]
            # Temporal away: a reason code to retry on, not an unexpected error.
            unreached = await client.call_tool("consolidate", {"session_id": str(session)})
            assert texts(unreached) == ["Error executing tool consolidate: temporal_unavailable"]
            # An argument the tool does not take (a misspelt request_id) is refused by name, as the HTTP API
            # refuses a field it does not know, not dropped while the act goes ahead without it.
            misspelt = await client.call_tool("reject", {"belief": str(mine.id), "reqest_id": str(uuid4())})
            assert texts(misspelt) == ["invalid_arguments: reqest_id"]
            # A delete is recorded under the request id the client gives, as reject's and the HTTP delete's.
            unnamed = await client.call_tool("forget", {"belief": str(mine.id), "request_id": "r-1"})
            assert texts(unnamed) == ["Error executing tool forget: invalid_id: request_id"]
            forgetting = {"belief": str(mine.id), "request_id": str(deleting)}
            forgotten = (await client.call_tool("forget", forgetting)).structured_content
            assert forgotten is not None and forgotten["outcome"] == "applied"

    deleting = uuid4()
    anyio.run(session_calls)
    with store() as uow:
        assert uow.audits.get(OWNER, f"governed/delete/{deleting}") is not None
        assert uow.beliefs.get(OTHER_PRINCIPAL, theirs.id) == theirs
        stored = {b.id: b.closed_reason for b in uow.beliefs.page(OWNER, None, 10, live_only=False)}
    assert stored == {mine.id: ClosedReason.DELETED, wrong.id: ClosedReason.REJECTED}


def test_mcp_edit_corrects_a_memory_as_the_http_edit_does(clean_postgres: Engine, tmp_path: Path) -> None:
    now = datetime.now(UTC)
    session = uuid4()
    formed = belief(
        subject="home:city",
        statement="User lives in Leeds.",
        source_event_ids=(EventRef(session_id=session, seq=1),),
        evidence_spans=(SourceSpan(session_id=session, seq=1, text="I live in Leeds"),),
        valid_from=now,
        last_evidence_at=now,
        updated_at=now,
    )
    theirs = belief(
        owner=OTHER_PRINCIPAL,
        subject="home:city",
        statement="User lives in York.",
        valid_from=now,
        last_evidence_at=now,
        updated_at=now,
    )
    store = PostgresStore(clean_postgres)
    with store() as uow:
        uow.events.append([event(1, "I live in Leeds.", session_id=session)])
        uow.beliefs.upsert_many([formed, theirs])
        uow.commit()
    request = str(uuid4())

    async def session_calls() -> dict[str, Any]:
        async with Client(stdio_server(clean_postgres, tmp_path), read_timeout_seconds=60) as client:
            correcting = {
                "belief": short_ref(formed.id),
                "statement": "User lives in Sheffield.",
                "request_id": request,
            }
            edited = (await client.call_tool("edit", correcting)).structured_content
            assert edited is not None and edited["outcome"] == "applied" and edited["closed_as"] is None
            # The same request again is the same act; another edit of the closed wording changes nothing.
            retried = (await client.call_tool("edit", correcting)).structured_content
            assert retried == {**edited, "outcome": "already_applied"}
            again = (
                await client.call_tool("edit", {**correcting, "request_id": str(uuid4())})
            ).structured_content
            assert again == {"outcome": "already_closed", "belief_id": str(formed.id), "closed_as": "edited"}
            # The correction is what recall gives from now on, sourced from the same words.
            shown = (await client.call_tool("get_belief", {"belief": edited["belief_id"]})).structured_content
            assert shown is not None and shown["belief"]["statement"] == "User lives in Sheffield."
            refusals = [
                await client.call_tool(
                    "edit", {"belief": str(theirs.id), "statement": "User lives in Hull."}
                ),
                await client.call_tool(
                    "edit", {"belief": edited["belief_id"], "statement": "User's password is hunter2-Secret!"}
                ),
                await client.call_tool(
                    "edit", {"belief": edited["belief_id"], "statement": "x", "request_id": "r-1"}
                ),
                await client.call_tool("edit", {"belief": edited["belief_id"], "statement": ""}),
            ]
            assert [texts(r) for r in refusals] == [
                ["Error executing tool edit: not_found"],
                ["Error executing tool edit: refused_credential"],
                ["Error executing tool edit: invalid_id: request_id"],
                ["invalid_arguments: statement"],
            ]
            return edited

    edited = anyio.run(session_calls)
    with store() as uow:
        assert uow.beliefs.get(OTHER_PRINCIPAL, theirs.id) == theirs
        old = uow.beliefs.get(OWNER, formed.id)
        live = uow.beliefs.page(OWNER, None, 10)
    assert old is not None and old.closed_reason is ClosedReason.EDITED
    assert [(b.id, b.statement) for b in live] == [(UUID(edited["belief_id"]), "User lives in Sheffield.")]
