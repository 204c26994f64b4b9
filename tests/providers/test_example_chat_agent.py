"""examples/chat_agent.py through the real `openai` SDK (against the local protocol server) and the real HTTP
API (uvicorn, the in-memory store): recall goes into the prompt, each exchange is stored, idle consolidates."""

from datetime import timedelta
from uuid import UUID

import pytest
from openai import OpenAI

from adapters.api.auth import Authenticator, issue_key
from adapters.api.http import create_app
from adapters.api.surface import AgentSurface
from adapters.memory.keys import InMemoryKeyStore
from adapters.memory.store import InMemoryStore
from domain.candidates import Sensitivity
from domain.messages import session_uuid
from domain.owner import Owner
from examples.chat_agent import RememberingAgent, chat
from memory_client import MemoryClient
from tests.api_server import serving
from tests.builders import T0, belief
from tests.providers.wire_server import WireServer, openai_completion

ALICE = Owner(tenant_id="acme", principal_id="alice")


class Idles:
    def __init__(self) -> None:
        self.sessions: list[UUID] = []

    async def __call__(self, owner: Owner, session_id: UUID) -> str:
        self.sessions.append(session_id)
        return "consolidate"


def test_the_agent_recalls_before_answering_stores_each_exchange_and_consolidates_when_it_ends(
    wire: WireServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, keys, idles = InMemoryStore(), InMemoryKeyStore(), Idles()
    with store() as uow:
        uow.beliefs.upsert_many([belief(owner=ALICE, subject="diet:vegetarian", statement="User is vegetarian.")])
        uow.commit()
    key = issue_key(keys, tenant_id="acme", principal_id=None, name="svc", ceiling=Sensitivity.SENSITIVE, now=T0)
    surface = AgentSurface(store=store, idle_signal=idles, clock=lambda: T0 + timedelta(days=1))
    wire.script(openai_completion("Try a chickpea curry."), openai_completion("Enjoy!"))
    lines = iter(["What should I cook? What is my diet?", "Thanks", "/bye"])
    monkeypatch.setattr("builtins.input", lambda _: next(lines))
    with serving(create_app(surface, Authenticator(keys), {})) as url, MemoryClient(url, api_key=key.secret) as m:
        llm = OpenAI(base_url=f"{wire.base_url}/v1", api_key="test", max_retries=0)
        chat(RememberingAgent(llm, m, user_id="alice", session_id="kitchen", model="gpt-test"), idle_after_s=60)

    first = wire.requests[0].body["messages"]
    assert first[0]["role"] == "system" and "User is vegetarian." in first[0]["content"]
    assert first[-1] == {"role": "user", "content": "What should I cook? What is my diet?"}
    second = wire.requests[1].body["messages"]
    assert [message["role"] for message in second] == ["system", "user", "assistant", "user"]
    session = session_uuid(ALICE, "kitchen")
    with store() as uow:
        stored = uow.events.read_range(ALICE, session, 0, 10)
        [recalled] = uow.beliefs.page(ALICE, None, 10)
    assert [(e.seq, e.kind.value, e.text) for e in stored] == [
        (1, "user_message", "What should I cook? What is my diet?"),
        (2, "assistant_message", "Try a chickpea curry."),
        (3, "user_message", "Thanks"),
        (4, "assistant_message", "Enjoy!"),
    ]
    assert recalled.last_used_at is not None
    assert idles.sessions == [session]
