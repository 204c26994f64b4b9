"""Over any sequence of calls one key makes, what it may not act for is neither read nor changed, even when
the calls name the others' belief ids and sessions: a personal key acts for its principal only, a service key
for any principal of its own tenant (named per call), never for another tenant's."""

import json
from datetime import timedelta
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any
from uuid import UUID, uuid4

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.api.auth import Authenticator, TokenRegistry, issue_key, token_digest
from adapters.api.http import create_app
from adapters.api.surface import AgentSurface
from adapters.memory.keys import InMemoryKeyStore
from adapters.memory.store import InMemoryStore
from domain.candidates import Sensitivity
from domain.events import EventRef
from domain.owner import Owner
from tests.builders import OTHER_PRINCIPAL, OTHER_TENANT, OWNER, T0, belief, event

NOW = T0 + timedelta(days=1)
SESSION = UUID("00000000-0000-4000-8000-0000000000aa")
VICTIM_BELIEF = belief(
    owner=OTHER_PRINCIPAL,
    id=UUID("8f21a0c3-0000-4000-8000-000000000002"),
    source_event_ids=(EventRef(session_id=SESSION, seq=1),),
)
CALLER_BELIEF = belief(id=UUID("8f21a0c3-0000-4000-8000-000000000001"))
# The other tenant's principal has the caller's principal id and the same session id.
TENANT_VICTIM_BELIEF = belief(
    owner=OTHER_TENANT,
    id=UUID("8f21a0c3-0000-4000-8000-000000000003"),
    source_event_ids=(EventRef(session_id=SESSION, seq=1),),
)
TARGETS = [
    str(VICTIM_BELIEF.id),
    "m:8f21a0c3",
    str(CALLER_BELIEF.id),
    VICTIM_BELIEF.id.hex[:12],
    str(TENANT_VICTIM_BELIEF.id),
]


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


def _call(client: TestClient, kind: str, arg: Any, secret: str = "caller", user_id: str | None = None) -> str:
    headers = {"Authorization": f"Bearer {secret}"}
    params = {"user_id": user_id} if user_id is not None else {}
    body: dict[str, Any]
    if kind == "recall":
        return client.post("/v1/recall", json={"query": arg or None}, headers=headers, params=params).text
    if kind == "get":
        return client.get(f"/v1/beliefs/{arg}", headers=headers, params=params).text
    if kind == "delete":
        return client.delete(f"/v1/beliefs/{arg}", headers=headers, params=params).text
    if kind == "reject":
        return client.post(f"/v1/beliefs/{arg}/reject", json={}, headers=headers, params=params).text
    if kind == "edit":
        body = {"request_id": str(uuid4()), "statement": "User paints."}
        return client.post(f"/v1/beliefs/{arg}/edit", json=body, headers=headers, params=params).text
    if kind == "append":
        body = {"events": [_event_body(arg)]}
        return client.post(f"/v1/sessions/{SESSION}/events", json=body, headers=headers, params=params).text
    if kind == "idle":
        return client.post(f"/v1/sessions/{SESSION}/idle", headers=headers, params=params).text
    if kind == "cite":
        victims = [str(VICTIM_BELIEF.id), str(TENANT_VICTIM_BELIEF.id)]
        body = {"returned": [*victims, str(CALLER_BELIEF.id)], "cited": victims}
        return client.post(f"/v1/runs/{uuid4()}/complete", json=body, headers=headers, params=params).text
    if kind == "remember":
        body = {
            "request_id": str(uuid4()),
            "subject": "hobby:painting",
            "statement": "User paints.",
            "claim_kind": "interest",
            "source": {"session_id": str(SESSION), "seq": arg},
        }
        return client.post("/v1/beliefs", json=body, headers=headers, params=params).text
    return client.get("/v1/beliefs", headers=headers, params=params).text


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
    client = TestClient(create_app(surface, Authenticator(None, registry), {}), raise_server_exceptions=False)
    for kind, arg in calls:
        answer = _call(client, kind, arg)
        assert str(VICTIM_BELIEF.id) not in answer
        assert "violin" not in answer
        assert "/p2/" not in answer
    assert _snapshot(store, OTHER_PRINCIPAL) == before


# Who the caller's key is, and the user_id each call names (valid, foreign-looking, missing or refused).
KEYS = st.sampled_from(["service", "personal"])
USER_IDS = st.sampled_from([None, "p1", "p2", "p3", "t2", "t2:p1", "../t2/p1", ""])


def _seed_two_tenants(store: InMemoryStore) -> None:
    with store() as uow:
        uow.events.append(
            [event(1, "I play the violin in a personal agent band.", owner=OTHER_TENANT, session_id=SESSION)]
        )
        uow.events.append([event(1, "I play the cello.", owner=OTHER_PRINCIPAL, session_id=SESSION)])
        uow.beliefs.upsert_many([TENANT_VICTIM_BELIEF, VICTIM_BELIEF, CALLER_BELIEF])
        uow.commit()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=KEYS, calls=st.lists(st.tuples(CALLS, USER_IDS), min_size=1, max_size=12))
def test_no_key_reads_or_changes_what_it_may_not_across_two_tenants(
    key: str, calls: list[tuple[tuple[str, Any], str | None]]
) -> None:
    store = InMemoryStore()
    _seed_two_tenants(store)
    keys = InMemoryKeyStore()
    issued = {
        "service": issue_key(
            keys, tenant_id="t1", principal_id=None, name="svc", ceiling=Sensitivity.RESTRICTED, now=T0
        ),
        "personal": issue_key(
            keys, tenant_id="t1", principal_id="p1", name="p1", ceiling=Sensitivity.RESTRICTED, now=T0
        ),
        # The other tenant's own keys exist too: nothing the caller sends may become one of them.
        "other tenant": issue_key(
            keys, tenant_id="t2", principal_id=None, name="t2", ceiling=Sensitivity.RESTRICTED, now=T0
        ),
    }
    # A service key of t1 may act for t1/p2; a personal key of t1/p1 may not.
    protected = [OTHER_TENANT] if key == "service" else [OTHER_TENANT, OTHER_PRINCIPAL]
    before = [_snapshot(store, owner) for owner in protected]
    surface = AgentSurface(store=store, idle_signal=_idle, clock=lambda: NOW)
    client = TestClient(create_app(surface, Authenticator(keys), {}), raise_server_exceptions=False)
    for (kind, arg), user_id in calls:
        answer = _call(client, kind, arg, issued[key].secret, user_id)
        assert str(TENANT_VICTIM_BELIEF.id) not in answer
        assert "violin" not in answer
        assert "consolidate/t2/" not in answer
        if key == "personal":
            assert str(VICTIM_BELIEF.id) not in answer
            assert "cello" not in answer
            assert "/p2/" not in answer
    assert [_snapshot(store, owner) for owner in protected] == before
