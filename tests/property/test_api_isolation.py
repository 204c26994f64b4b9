"""Over any sequence of calls one token makes, the other principal's memories and events are neither read
nor changed, even when the calls name the other principal's belief ids and sessions."""

import json
from datetime import timedelta
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any
from uuid import UUID, uuid4

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.api.auth import TokenRegistry, token_digest
from adapters.api.http import create_app
from adapters.api.surface import AgentSurface
from adapters.memory.store import InMemoryStore
from domain.events import EventRef
from domain.owner import Owner
from tests.builders import OTHER_PRINCIPAL, OWNER, T0, belief, event

NOW = T0 + timedelta(days=1)
SESSION = UUID("00000000-0000-4000-8000-0000000000aa")
VICTIM_BELIEF = belief(
    owner=OTHER_PRINCIPAL,
    id=UUID("8f21a0c3-0000-4000-8000-000000000002"),
    source_event_ids=(EventRef(session_id=SESSION, seq=1),),
)
CALLER_BELIEF = belief(id=UUID("8f21a0c3-0000-4000-8000-000000000001"))
TARGETS = [str(VICTIM_BELIEF.id), "m:8f21a0c3", str(CALLER_BELIEF.id), VICTIM_BELIEF.id.hex[:12]]


async def _idle(owner: Owner, session_id: UUID) -> str:
    return f"consolidate/{owner.tenant_id}/{owner.principal_id}/{session_id}"


def _event_body(seq: int) -> dict[str, Any]:
    return {"seq": seq, "kind": "user_message", "text": "I paint.", "occurred_at": "2026-09-02T10:00:00Z"}


CALLS = st.one_of(
    st.tuples(st.just("recall"), st.sampled_from(["personal agent", "", "violin"])),
    st.tuples(st.just("get"), st.sampled_from(TARGETS)),
    st.tuples(st.just("delete"), st.sampled_from(TARGETS)),
    st.tuples(st.just("reject"), st.sampled_from(TARGETS)),
    st.tuples(st.just("edit"), st.sampled_from(TARGETS)),
    st.tuples(st.just("append"), st.integers(min_value=1, max_value=3)),
    st.tuples(st.just("idle"), st.just("")),
    st.tuples(st.just("cite"), st.sampled_from(TARGETS)),
    st.tuples(st.just("remember"), st.integers(min_value=1, max_value=3)),
    st.tuples(st.just("list"), st.just("")),
)


def _call(client: TestClient, kind: str, arg: Any) -> str:
    headers = {"Authorization": "Bearer caller"}
    body: dict[str, Any]
    if kind == "recall":
        return client.post("/v1/recall", json={"query": arg or None}, headers=headers).text
    if kind == "get":
        return client.get(f"/v1/beliefs/{arg}", headers=headers).text
    if kind == "delete":
        return client.delete(f"/v1/beliefs/{arg}", headers=headers).text
    if kind == "reject":
        return client.post(f"/v1/beliefs/{arg}/reject", json={}, headers=headers).text
    if kind == "edit":
        body = {"request_id": str(uuid4()), "statement": "User paints."}
        return client.post(f"/v1/beliefs/{arg}/edit", json=body, headers=headers).text
    if kind == "append":
        body = {"events": [_event_body(arg)]}
        return client.post(f"/v1/sessions/{SESSION}/events", json=body, headers=headers).text
    if kind == "idle":
        return client.post(f"/v1/sessions/{SESSION}/idle", headers=headers).text
    if kind == "cite":
        body = {"returned": [str(VICTIM_BELIEF.id), str(CALLER_BELIEF.id)], "cited": [str(VICTIM_BELIEF.id)]}
        return client.post(f"/v1/runs/{uuid4()}/complete", json=body, headers=headers).text
    if kind == "remember":
        body = {
            "request_id": str(uuid4()),
            "subject": "hobby:painting",
            "statement": "User paints.",
            "claim_kind": "interest",
            "source": {"session_id": str(SESSION), "seq": arg},
        }
        return client.post("/v1/beliefs", json=body, headers=headers).text
    return client.get("/v1/beliefs", headers=headers).text


def _snapshot(store: InMemoryStore, owner: Owner) -> tuple[Any, Any]:
    with store() as uow:
        return uow.beliefs.page(owner, None, 1000, live_only=False), uow.events.read_range(
            owner, SESSION, 0, 100
        )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls=st.lists(CALLS, min_size=1, max_size=12))
def test_one_token_never_reads_or_changes_the_other_principals_data(calls: list[tuple[str, Any]]) -> None:
    store = InMemoryStore()
    with store() as uow:
        uow.events.append(
            [
                event(
                    1,
                    "I play the violin in a personal agent band.",
                    owner=OTHER_PRINCIPAL,
                    session_id=SESSION,
                )
            ]
        )
        uow.beliefs.upsert_many([VICTIM_BELIEF, CALLER_BELIEF])
        uow.commit()
    before = _snapshot(store, OTHER_PRINCIPAL)
    with TemporaryDirectory() as directory:
        path = Path(directory) / "tokens.json"
        entries = [
            {"sha256": token_digest(token), "tenant_id": owner.tenant_id, "principal_id": owner.principal_id}
            for token, owner in (("caller", OWNER), ("victim", OTHER_PRINCIPAL))
        ]
        path.write_text(json.dumps({"tokens": entries}), encoding="utf-8")
        registry = TokenRegistry.from_file(path)
    surface = AgentSurface(store=store, idle_signal=_idle, clock=lambda: NOW)
    client = TestClient(create_app(surface, registry, {}), raise_server_exceptions=False)
    for kind, arg in calls:
        answer = _call(client, kind, arg)
        assert str(VICTIM_BELIEF.id) not in answer
        assert "violin" not in answer
        assert "/p2/" not in answer
    assert _snapshot(store, OTHER_PRINCIPAL) == before
