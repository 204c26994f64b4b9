"""memory_client against the real HTTP API (uvicorn on 127.0.0.1, the in-memory store): chat messages in,
typed results out, the API's reason codes as exceptions; the async client answers the same."""

import asyncio
from collections.abc import Iterator
from datetime import timedelta
from uuid import UUID, uuid4

import pytest

from adapters.api.auth import Authenticator, issue_key
from adapters.api.http import create_app
from adapters.api.surface import AgentSurface
from adapters.memory.keys import InMemoryKeyStore
from adapters.memory.store import InMemoryStore
from domain.beliefs.retrieval import DEFAULT_RECALL_LIMIT
from domain.candidates import Sensitivity
from domain.owner import Owner
from memory_client import AsyncMemoryClient, MemoryApiError, MemoryClient
from memory_client.models import Memory
from tests.api_server import serving
from tests.builders import T0, belief

NOW = T0 + timedelta(days=1)
ALICE = Owner(tenant_id="acme", principal_id="alice")


class Consolidation:
    def __init__(self) -> None:
        self.idled: list[tuple[Owner, UUID]] = []

    async def idle(self, owner: Owner, session_id: UUID) -> str:
        self.idled.append((owner, session_id))
        return f"consolidate/{owner.tenant_id}/{owner.principal_id}/{session_id}"

    async def state(self, owner: Owner, session_id: UUID) -> str:
        return "idle"


@pytest.fixture
def store() -> InMemoryStore:
    return InMemoryStore()


@pytest.fixture
def consolidation() -> Consolidation:
    return Consolidation()


@pytest.fixture
def server(store: InMemoryStore, consolidation: Consolidation) -> Iterator[tuple[str, str, str]]:
    """The base URL, a service key of tenant acme and alice's personal key."""
    keys = InMemoryKeyStore()
    service = issue_key(
        keys, tenant_id="acme", principal_id=None, name="svc", ceiling=Sensitivity.SENSITIVE, now=T0
    )
    personal = issue_key(
        keys, tenant_id="acme", principal_id="alice", name="alice", ceiling=Sensitivity.SENSITIVE, now=T0
    )
    surface = AgentSurface(
        store=store,
        idle_signal=consolidation.idle,
        clock=lambda: NOW,
        consolidation_state=consolidation.state,
    )
    with serving(create_app(surface, Authenticator(keys), {})) as url:
        yield url, service.secret, personal.secret


def test_messages_are_numbered_stamped_and_only_the_users_own_are_owner_assertions(
    server: tuple[str, str, str], store: InMemoryStore
) -> None:
    url, service, _ = server
    with MemoryClient(url, api_key=service) as m:
        first = m.add(
            [
                {"role": "system", "content": "You are a helpful assistant."},
                {"role": "user", "content": "I'm vegetarian"},
                {"role": "assistant", "content": [{"type": "text", "text": "Noted!"}]},
            ],
            user_id="alice",
            session_id="chat-1",
        )
        second = m.add(
            [{"role": "tool", "content": "weather: sunny", "tool_call_id": "c1"}], "alice", "chat-1"
        )
        again = m.add([{"role": "user", "content": "I'm vegetarian"}], user_id="alice", session_id="chat-1")
    assert (first.appended, second.appended, again.appended) == (2, 1, 1)
    assert [(r.index, r.field, r.reason) for r in first.refused] == [(0, "role", "system_message_not_stored")]
    assert first.session_id == second.session_id == again.session_id
    with store() as uow:
        stored = uow.events.read_range(ALICE, first.session_id, 0, 10)
    assert [(e.seq, e.kind.value, e.is_owner_assertion) for e in stored] == [
        (1, "user_message", True),
        (2, "assistant_message", False),
        (3, "tool_result", False),
        (4, "user_message", True),
    ]
    assert stored[1].text == "Noted!"
    assert all(e.occurred_at == NOW for e in stored)


def test_a_client_session_id_maps_per_user(server: tuple[str, str, str]) -> None:
    url, service, personal = server
    with MemoryClient(url, api_key=service) as m, MemoryClient(url, api_key=personal) as mine:
        alice = m.add([{"role": "user", "content": "Hi."}], user_id="alice", session_id="chat-1")
        bob = m.add([{"role": "user", "content": "Hi."}], user_id="bob", session_id="chat-1")
        own = mine.add([{"role": "user", "content": "Hello."}], session_id="chat-1")
    assert alice.session_id != bob.session_id
    assert own.session_id == alice.session_id


def test_refusals_raise_with_the_apis_reason_code(server: tuple[str, str, str]) -> None:
    url, service, personal = server
    cases = [
        (MemoryClient(url, api_key=service), lambda m: m.search("x"), 422, "user_id_required"),
        (
            MemoryClient(url, api_key=personal),
            lambda m: m.search("x", user_id="bob"),
            422,
            "user_id_not_allowed",
        ),
        (MemoryClient(url, api_key="mk_nope"), lambda m: m.list(), 401, "unauthenticated"),
        (MemoryClient(url, api_key=personal), lambda m: m.get("m:00000000"), 404, "not_found"),
        (
            MemoryClient(url, api_key=personal),
            lambda m: m.add([{"role": "system", "content": "Be brief."}], session_id="s"),
            422,
            "all_refused",
        ),
    ]
    for client, call, status, reason in cases:
        with client, pytest.raises(MemoryApiError) as refused:
            call(client)
        assert (refused.value.status, refused.value.reason) == (status, reason)
    assert refused.value.details["refused"] == [
        {"index": 0, "field": "role", "reason": "system_message_not_stored"}
    ]


def test_search_get_list_edit_forget_and_complete_run_are_typed(
    server: tuple[str, str, str], store: InMemoryStore
) -> None:
    url, _, personal = server
    record = belief(owner=ALICE, subject="diet:vegetarian", statement="User is vegetarian.")
    with store() as uow:
        uow.beliefs.upsert_many([record])
        uow.commit()
    with MemoryClient(url, api_key=personal) as m:
        found = m.search("am I vegetarian?")
        assert [memory.statement for memory in found.memories] == ["User is vegetarian."]
        assert found.returned_ids == [record.id] and "User is vegetarian." in found.context
        memory = m.get(f"m:{record.id.hex[:8]}")
        assert isinstance(memory, Memory) and memory.id == record.id
        assert [b.id for b in m.list().beliefs] == [record.id]
        completion = m.complete_run(UUID(int=7), found.returned_ids, found.returned_ids)
        assert completion.cited == 1
        edited = m.edit(record.id, "User is vegan.")
        assert edited.outcome == "applied"
        assert [b.statement for b in m.list().beliefs] == ["User is vegan."]
        forgotten = m.forget(edited.belief_id or record.id)
        assert forgotten.outcome == "applied"
        assert m.list().beliefs == []


def test_search_without_k_recalls_as_many_as_the_api_and_mcp_do(
    server: tuple[str, str, str], store: InMemoryStore
) -> None:
    url, _, personal = server
    with store() as uow:
        uow.beliefs.upsert_many(
            [belief(owner=ALICE, subject=f"hobby:{n}", statement=f"User plays game {n}.") for n in range(30)]
        )
        uow.commit()
    with MemoryClient(url, api_key=personal) as m:
        assert len(m.search(None).memories) == DEFAULT_RECALL_LIMIT
        assert len(m.search(None, k=3).memories) == 3


def test_forget_takes_the_request_id_a_delete_is_recorded_under(
    server: tuple[str, str, str], store: InMemoryStore
) -> None:
    """As reject does and DELETE /v1/beliefs/{id}?request_id= does: the agent's id for the act is its audit's."""
    url, _, personal = server
    record = belief(owner=ALICE, subject="diet:vegetarian", statement="User is vegetarian.")
    with store() as uow:
        uow.beliefs.upsert(record)
        uow.commit()
    request = uuid4()
    with MemoryClient(url, api_key=personal) as m:
        assert m.forget(record.id, request_id=request).outcome == "applied"
    with store() as uow:
        assert uow.audits.get(ALICE, f"governed/delete/{request}") is not None


def test_consolidate_waits_and_answers_the_session_status(
    server: tuple[str, str, str], consolidation: Consolidation
) -> None:
    url, service, _ = server
    with MemoryClient(url, api_key=service) as m:
        added = m.add([{"role": "user", "content": "I'm vegetarian"}], user_id="alice", session_id="chat-1")
        done = m.consolidate("chat-1", user_id="alice", wait=True, timeout=10)
        started = m.consolidate("chat-1", user_id="alice")
    assert done.status is not None
    assert (done.status.session_id, done.status.last_seq, done.status.watermark) == (added.session_id, 1, 0)
    assert done.status.consolidation == "idle" and started.status is None
    assert consolidation.idled == [(ALICE, added.session_id)] * 2


def test_the_async_client_answers_like_the_sync_one(server: tuple[str, str, str]) -> None:
    url, service, _ = server

    async def run() -> tuple[int, int, str]:
        async with AsyncMemoryClient(url, api_key=service) as m:
            added = await m.add(
                [{"role": "user", "content": "I'm vegetarian"}], user_id="alice", session_id="c"
            )
            status = await m.status("c", user_id="alice")
            with pytest.raises(MemoryApiError) as refused:
                await m.search("x")
            return added.appended, status.last_seq, refused.value.reason

    assert asyncio.run(run()) == (1, 1, "user_id_required")


def test_reject_closes_a_memory_and_a_later_forget_or_edit_says_it_was_rejected(
    server: tuple[str, str, str], store: InMemoryStore
) -> None:
    url, _, personal = server
    record = belief(owner=ALICE, subject="diet:vegetarian", statement="User is vegetarian.")
    with store() as uow:
        uow.beliefs.upsert_many([record])
        uow.commit()
    with MemoryClient(url, api_key=personal) as m:
        request = uuid4()
        rejected = m.reject(f"m:{record.id.hex[:8]}", request_id=request)
        again = m.reject(record.id, request_id=request)
        forgotten = m.forget(record.id)
        reworded = m.edit(record.id, "User is vegan.")
        assert m.list().beliefs == []
    assert (rejected.outcome, rejected.belief_id) == ("applied", record.id)
    assert again.outcome == "already_applied"
    assert (forgotten.outcome, forgotten.closed_as) == ("already_closed", "rejected")
    assert (reworded.outcome, reworded.belief_id, reworded.closed_as) == (
        "already_closed",
        record.id,
        "rejected",
    )

    async def async_reject() -> str:
        async with AsyncMemoryClient(url, api_key=personal) as m:
            return (await m.reject(record.id)).outcome

    assert asyncio.run(async_reject()) == "already_applied"


def test_remember_refuses_a_source_that_is_not_the_users_own_words(server: tuple[str, str, str]) -> None:
    url, _, personal = server
    with MemoryClient(url, api_key=personal) as m:
        added = m.add(
            [
                {"role": "user", "content": "I drink tea."},
                {"role": "assistant", "content": "You prefer coffee."},
            ],
            session_id="chat-1",
        )
        with pytest.raises(MemoryApiError) as refused:
            m.remember("preference:coffee", "User prefers coffee.", "preference", added.session_id, 2)
        assert (refused.value.status, refused.value.reason) == (422, "source_not_user")
        assert m.list().beliefs == []
        kept = m.remember("preference:tea", "User drinks tea.", "preference", added.session_id, 1)
    assert kept.outcome == "applied"
