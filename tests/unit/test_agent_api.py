"""The HTTP API over the in-memory store: token scoping, reason-coded JSON errors, append and idle, recall
with provenance, the governed operations and the usage clock."""

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import UUID, uuid4

import pytest
from fastapi.testclient import TestClient

from adapters.api.auth import Authenticator, TokenRegistry, token_digest
from adapters.api.http import create_app
from adapters.api.surface import AgentSurface
from adapters.memory.store import InMemoryStore
from adapters.temporal.client import TemporalUnavailable
from domain.beliefs.records import SourceSpan
from domain.beliefs.retrieval import BLOCK_OPEN
from domain.candidates import Sensitivity
from domain.events import MAX_EVENT_TEXT_BYTES, EventRef, SourceEventKind
from domain.owner import Owner
from tests.builders import OTHER_PRINCIPAL, OWNER, T0, belief, event

NOW = T0 + timedelta(days=1)
MINE, THEIRS = "token-of-p1", "token-of-p2"


def registry_for(tokens: dict[str, Owner], path: Path) -> Authenticator:
    entries = [
        {"sha256": token_digest(t), "tenant_id": o.tenant_id, "principal_id": o.principal_id}
        for t, o in tokens.items()
    ]
    path.write_text(json.dumps({"tokens": entries}), encoding="utf-8")
    return Authenticator(None, TokenRegistry.from_file(path))


class Idle:
    def __init__(self) -> None:
        self.signalled: list[tuple[Owner, UUID]] = []

    async def __call__(self, owner: Owner, session_id: UUID) -> str:
        self.signalled.append((owner, session_id))
        return f"consolidate/{owner.tenant_id}/{owner.principal_id}/{session_id}"


@pytest.fixture
def store() -> InMemoryStore:
    return InMemoryStore()


@pytest.fixture
def idle() -> Idle:
    return Idle()


@pytest.fixture
def client(store: InMemoryStore, idle: Idle, tmp_path: Path) -> TestClient:
    registry = registry_for({MINE: OWNER, THEIRS: OTHER_PRINCIPAL}, tmp_path / "tokens.json")

    async def ready() -> bool:
        return True

    surface = AgentSurface(store=store, idle_signal=idle, clock=lambda: NOW)
    return TestClient(create_app(surface, registry, {"database": ready}), raise_server_exceptions=False)


def auth(token: str = MINE) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_health_readiness_and_openapi_need_no_token(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ready", "checks": {"database": True}}
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/v1/recall", "/v1/beliefs/{belief}", "/v1/sessions/{session_id}/events"} <= paths.keys()


def test_an_unknown_or_missing_token_is_401_with_a_reason(client: TestClient) -> None:
    for headers in ({}, auth("not-a-token")):
        response = client.post("/v1/recall", json={}, headers=headers)
        assert response.status_code == 401
        assert response.json() == {"error": {"reason": "unauthenticated"}}


def test_append_scopes_events_by_token_and_refuses_by_index_field_and_reason(
    client: TestClient, store: InMemoryStore
) -> None:
    session = uuid4()
    good = {"seq": 1, "kind": "user_message", "text": "I climb.", "occurred_at": "2026-09-02T10:00:00Z"}
    events = [
        good,
        {**good, "seq": 2, "tenant_id": "t9"},
        {**good, "seq": 3, "occurred_at": "yesterday"},
        {**good, "seq": 1, "text": "Something else entirely."},
    ]
    response = client.post(f"/v1/sessions/{session}/events", json={"events": events}, headers=auth())
    assert response.status_code == 200
    body = response.json()
    assert (body["appended"], body["already_present"]) == (1, 0)
    assert {(r["index"], r["field"], r["reason"]) for r in body["refused"]} == {
        (1, "tenant_id", "extra_forbidden"),
        (2, "occurred_at", "datetime_from_date_parsing"),
        (3, "seq", "event_conflict"),
    }
    assert "Something" not in response.text
    with store() as uow:
        assert len(uow.events.read_range(OWNER, session, 0, 10)) == 1
        assert uow.events.read_range(OTHER_PRINCIPAL, session, 0, 10) == []


def test_a_messages_text_refusal_names_its_content_with_a_reason_of_its_own(client: TestClient) -> None:
    messages = [
        {"role": "user", "content": "   "},
        {"role": "user", "content": "é" * (MAX_EVENT_TEXT_BYTES // 2 + 1)},
        {"role": "user", "content": "I climb."},
    ]
    response = client.post("/v1/sessions/chat-1/events", json={"events": messages}, headers=auth())
    assert response.status_code == 200 and response.json()["appended"] == 1
    assert [(r["index"], r["field"], r["reason"]) for r in response.json()["refused"]] == [
        (0, "content", "text_blank"),
        (1, "content", "text_too_long"),
    ]


def test_idle_answers_the_workflow_id_of_the_callers_session(client: TestClient, idle: Idle) -> None:
    session = uuid4()
    response = client.post(f"/v1/sessions/{session}/idle", headers=auth())
    assert response.status_code == 202
    assert response.json() == {"workflow_id": f"consolidate/t1/p1/{session}"}
    assert idle.signalled == [(OWNER, session)]


def test_recall_renders_the_block_and_returns_provenance(client: TestClient, store: InMemoryStore) -> None:
    session = uuid4()
    said = event(3, "These days I'm building a personal AI agent.", session_id=session)
    record = belief(
        source_event_ids=(EventRef(session_id=session, seq=3),),
        evidence_spans=(SourceSpan(session_id=session, seq=3, text="building a personal AI agent"),),
    )
    other = belief(subject="hobby:violin", statement="User plays the violin.")
    with store() as uow:
        uow.events.append([said])
        uow.beliefs.upsert_many([record, other])
        uow.commit()
    response = client.post("/v1/recall", json={"query": "what agent am I building?", "k": 5}, headers=auth())
    body = response.json()
    assert body["context"].startswith(BLOCK_OPEN)
    assert body["returned_ids"] == [str(record.id)]
    [memory] = body["memories"]
    assert memory["provenance"] == [
        {
            "session_id": str(session),
            "seq": 3,
            "kind": "user_message",
            "occurred_at": said.occurred_at.isoformat(),
            "evidence_span": "building a personal AI agent",
        }
    ]
    shown = client.get(f"/v1/beliefs/{record.id}", headers=auth()).json()
    assert shown["belief"]["provenance"] == memory["provenance"]
    assert client.get(f"/v1/beliefs/{memory['ref']}", headers=auth()).json()["belief"]["id"] == str(record.id)


def test_a_foreign_or_restricted_belief_is_404_like_an_unknown_one(
    client: TestClient, store: InMemoryStore
) -> None:
    theirs = belief(owner=OTHER_PRINCIPAL)
    restricted = belief(sensitivity=Sensitivity.RESTRICTED)
    with store() as uow:
        uow.beliefs.upsert_many([theirs, restricted])
        uow.commit()
    for target in (theirs.id, restricted.id, uuid4()):
        for response in (
            client.get(f"/v1/beliefs/{target}", headers=auth()),
            client.delete(f"/v1/beliefs/{target}", headers=auth()),
            client.post(f"/v1/beliefs/{target}/reject", json={}, headers=auth()),
        ):
            assert response.status_code == 404
            assert response.json() == {"error": {"reason": "not_found"}}
    with store() as uow:
        assert uow.beliefs.get(OTHER_PRINCIPAL, theirs.id) == theirs


def test_a_closed_belief_is_shown_with_its_reason_but_never_in_the_prompt_block(
    client: TestClient, store: InMemoryStore
) -> None:
    kept = belief(subject="hobby:violin", statement="User plays the violin.")
    forgotten = belief(subject="hobby:chess", statement="User plays chess.")
    with store() as uow:
        uow.beliefs.upsert_many([kept, forgotten])
        uow.commit()
    assert client.delete(f"/v1/beliefs/{forgotten.id}", headers=auth()).status_code == 200
    shown = client.get(f"/v1/beliefs/{forgotten.id}", headers=auth()).json()
    assert shown["belief"]["closed_reason"] == "deleted"
    assert "chess" not in shown["context"]
    assert "violin" in client.get(f"/v1/beliefs/{kept.id}", headers=auth()).json()["context"]


def test_governed_operations_are_authoritative_and_idempotent(
    client: TestClient, store: InMemoryStore
) -> None:
    session = uuid4()
    with store() as uow:
        uow.events.append([event(1, session_id=session)])
        uow.events.append(
            [event(2, "You climb.", session_id=session, kind=SourceEventKind.ASSISTANT_MESSAGE)]
        )
        uow.commit()
    request = {
        "request_id": str(uuid4()),
        "subject": "hobby:climbing",
        "statement": "User climbs on weekends.",
        "claim_kind": "interest",
        "source": {"session_id": str(session), "seq": 1},
    }
    created = client.post("/v1/beliefs", json=request, headers=auth())
    assert created.status_code == 201 and created.json()["outcome"] == "applied"
    assert client.post("/v1/beliefs", json=request, headers=auth()).json()["outcome"] == "already_applied"
    unsourced = {**request, "request_id": str(uuid4()), "source": {"session_id": str(uuid4()), "seq": 1}}
    assert client.post("/v1/beliefs", json=unsourced, headers=auth()).status_code == 404
    # The assistant's words are not the user's: refused with a reason of its own, nothing stored.
    assistants = {**request, "request_id": str(uuid4()), "source": {"session_id": str(session), "seq": 2}}
    refused_source = client.post("/v1/beliefs", json=assistants, headers=auth())
    assert (refused_source.status_code, refused_source.json()) == (
        422,
        {"error": {"reason": "source_not_user"}},
    )
    assert len(client.get("/v1/beliefs", headers=auth()).json()["beliefs"]) == 1
    belief_id = created.json()["belief_id"]
    edit = {"request_id": str(uuid4()), "statement": "User climbs on Sundays."}
    edited = client.post(f"/v1/beliefs/{belief_id}/edit", json=edit, headers=auth()).json()
    assert edited["outcome"] == "applied" and edited["belief_id"] != belief_id
    deleted = client.delete(f"/v1/beliefs/{edited['belief_id']}", headers=auth())
    assert deleted.json()["outcome"] == "applied"
    assert (
        client.delete(f"/v1/beliefs/{edited['belief_id']}", headers=auth()).json()["outcome"]
        == "already_applied"
    )
    # A delete after a reject is no delete: the answer says the belief is closed already, and by what.
    remembered = client.post(
        "/v1/beliefs", json={**request, "request_id": str(uuid4())}, headers=auth()
    ).json()
    path = f"/v1/beliefs/{remembered['belief_id']}"
    rejecting = {"request_id": str(uuid4())}
    assert client.post(f"{path}/reject", json=rejecting, headers=auth()).json()["outcome"] == "applied"
    assert (
        client.post(f"{path}/reject", json=rejecting, headers=auth()).json()["outcome"] == "already_applied"
    )
    after_reject = client.delete(path, headers=auth())
    assert after_reject.status_code == 200
    assert after_reject.json() == {
        "outcome": "already_closed",
        "belief_id": remembered["belief_id"],
        "closed_as": "rejected",
    }
    # So is an edit of it: the belief GET still shows is closed, not missing.
    edit_after = client.post(f"{path}/edit", json={**edit, "request_id": str(uuid4())}, headers=auth())
    assert (edit_after.status_code, edit_after.json()["outcome"], edit_after.json()["closed_as"]) == (
        200,
        "already_closed",
        "rejected",
    )
    secret = {**request, "request_id": str(uuid4()), "statement": "User's password is hunter2-Secret!"}
    refused = client.post("/v1/beliefs", json=secret, headers=auth())
    assert refused.status_code == 422 and refused.json() == {"error": {"reason": "refused_credential"}}


def test_remember_names_its_source_by_the_session_id_the_append_took(client: TestClient) -> None:
    """The session id a conversation was added under names its source, as MCP's remember takes it: the
    client's own string or the stored UUID the append answered, the same session either way."""
    appended = client.post(
        "/v1/sessions/chat-1/events",
        json={"events": [{"role": "user", "content": "I climb."}]},
        headers=auth(),
    ).json()
    request = {"subject": "hobby:climbing", "statement": "User climbs.", "claim_kind": "interest"}
    by_client_id = {**request, "request_id": str(uuid4()), "source": {"session_id": "chat-1", "seq": 1}}
    created = client.post("/v1/beliefs", json=by_client_id, headers=auth())
    assert (created.status_code, created.json()["outcome"]) == (201, "applied")
    stored = {"session_id": appended["session_id"], "seq": 1}
    again = client.post("/v1/beliefs", json={**by_client_id, "source": stored}, headers=auth())
    assert again.json() == {**created.json(), "outcome": "already_applied"}
    [source] = client.get(f"/v1/beliefs/{created.json()['belief_id']}", headers=auth()).json()["belief"][
        "provenance"
    ]
    assert source["session_id"] == appended["session_id"]
    # Another user's "chat-1" is another session: nothing of theirs to source from.
    theirs = client.post(
        "/v1/beliefs", json={**by_client_id, "request_id": str(uuid4())}, headers=auth(THEIRS)
    )
    assert (theirs.status_code, theirs.json()) == (404, {"error": {"reason": "not_found"}})
    unnamed = {**by_client_id, "request_id": str(uuid4()), "source": {"session_id": "x" * 257, "seq": 1}}
    refused = client.post("/v1/beliefs", json=unnamed, headers=auth())
    assert (refused.status_code, refused.json()) == (422, {"error": {"reason": "session_id_invalid"}})


def test_a_reject_needs_no_body(client: TestClient, store: InMemoryStore) -> None:
    """request_id is optional, so is the body that would carry it: a bare POST rejects, as a bare DELETE
    deletes."""
    record = belief()
    with store() as uow:
        uow.beliefs.upsert(record)
        uow.commit()
    rejected = client.post(f"/v1/beliefs/{record.id}/reject", headers=auth())
    assert (rejected.status_code, rejected.json()) == (
        200,
        {"outcome": "applied", "belief_id": str(record.id), "closed_as": None},
    )


def test_temporal_not_answering_is_503_with_a_reason(tmp_path: Path) -> None:
    """Asking for a consolidation, or its state, while Temporal is away: a reason the agent can retry on."""

    async def away(*_: object) -> str:
        raise TemporalUnavailable("127.0.0.1:7233")

    async def ready() -> bool:
        return True

    registry = registry_for({MINE: OWNER}, tmp_path / "tokens.json")
    surface = AgentSurface(store=InMemoryStore(), idle_signal=away, consolidation_state=away)
    client = TestClient(create_app(surface, registry, {"database": ready}), raise_server_exceptions=False)
    for answered in (
        client.post("/v1/sessions/chat-1/idle", headers=auth()),
        client.get("/v1/sessions/chat-1", headers=auth()),
    ):
        assert (answered.status_code, answered.json()) == (503, {"error": {"reason": "temporal_unavailable"}})


def test_completing_a_run_moves_the_usage_clock(client: TestClient, store: InMemoryStore) -> None:
    record = belief()
    with store() as uow:
        uow.beliefs.upsert(record)
        uow.commit()
    run = uuid4()
    body = {"returned": [str(record.id)], "cited": [str(record.id)]}
    assert client.post(f"/v1/runs/{run}/complete", json=body, headers=auth()).json()["cited"] == 1
    assert client.post(f"/v1/runs/{run}/complete", json=body, headers=auth()).json()["already_recorded"] == 1
    with store() as uow:
        stored = uow.beliefs.get(OWNER, record.id)
    assert stored is not None and stored.last_used_at == NOW


def test_errors_are_json_reason_codes_without_input_or_traceback(client: TestClient) -> None:
    invalid = client.post("/v1/recall", json={"k": 0, "query": "my secret words"}, headers=auth())
    assert invalid.status_code == 422
    assert invalid.json() == {
        "error": {
            "reason": "invalid_request",
            "fields": [{"field": "body.k", "reason": "greater_than_equal"}],
        }
    }
    assert client.get("/v1/nowhere", headers=auth()).json() == {"error": {"reason": "http_404"}}
    broken = client.post(
        "/v1/recall", content=b"{not json", headers={**auth(), "Content-Type": "application/json"}
    )
    assert broken.status_code == 422 and "not json" not in broken.text


def test_a_json_body_sent_without_its_media_type_says_so(client: TestClient) -> None:
    body = b'{"events": [{"role": "user", "content": "I climb."}]}'
    untyped = client.post(
        "/v1/sessions/chat-1/events", content=body, headers={**auth(), "Content-Type": "text/plain"}
    )
    assert untyped.status_code == 422
    assert untyped.json()["error"]["fields"] == [{"field": "body", "reason": "content_type_not_json"}]
    typed = client.post(
        "/v1/sessions/chat-1/events", content=b"[1]", headers={**auth(), "Content-Type": "application/json"}
    )
    assert typed.json()["error"]["fields"] == [{"field": "body", "reason": "model_attributes_type"}]


def test_an_unexpected_failure_is_a_500_reason_code(tmp_path: Path) -> None:
    def failing_store() -> InMemoryStore:
        raise RuntimeError("database said something with user text in it")

    registry = registry_for({MINE: OWNER}, tmp_path / "tokens.json")
    surface = AgentSurface(store=failing_store, idle_signal=Idle(), clock=lambda: datetime.now(UTC))  # type: ignore[arg-type]
    client = TestClient(create_app(surface, registry, {}), raise_server_exceptions=False)
    response = client.post("/v1/recall", json={}, headers=auth())
    assert response.status_code == 500
    assert response.json() == {"error": {"reason": "internal_error"}}
