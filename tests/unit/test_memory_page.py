"""The memory page over the in-memory store, without a browser: its session cookie and headers, session
expiry, the key's ceiling, what surrounding turns may be shown, and refusals that change nothing."""

import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from uuid import UUID, uuid4

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from adapters.api.auth import Authenticator, TokenEntry, TokenRegistry, issue_key, token_digest
from adapters.api.http import create_app
from adapters.api.page import SESSION_TTL
from adapters.api.surface import AgentSurface
from adapters.memory.keys import InMemoryKeyStore
from adapters.memory.store import InMemoryStore
from domain.beliefs.records import ClosedReason, SourceSpan
from domain.candidates import Sensitivity
from domain.events import EventRef
from domain.owner import Owner
from domain.policy.alternatives import AlternativeEvidence
from tests.builders import OWNER, T0, belief, event
from tests.evidence_builders import ASTRA_MEDIUM, SOL, alternative_evidence

KEY = "personal-key-of-p1"
SESSION = UUID("5e55a000-0000-4000-8000-000000000001")
WORDS = ("I moved to Lisbon last spring.", "How is the weather there?", "I cycle to work every day.")
FORM_TOKEN = re.compile(r'name="(csrf|sign_in_token|request_id)" value="([^"]+)"')


class Clock:
    def __init__(self) -> None:
        self.now = T0 + timedelta(days=1)

    def __call__(self) -> datetime:
        return self.now


def _store() -> InMemoryStore:
    store = InMemoryStore()
    with store() as uow:
        uow.events.append([event(seq, text, session_id=SESSION) for seq, text in enumerate(WORDS, start=1)])
        cited = EventRef(session_id=SESSION, seq=3)
        uow.beliefs.upsert(
            belief(
                id=UUID("c1c1c1c1-0000-4000-8000-000000000001"),
                statement="User cycles to work every day.",
                source_event_ids=(cited,),
                evidence_spans=(SourceSpan(session_id=SESSION, seq=3, text="I cycle to work every day."),),
            )
        )
        uow.beliefs.upsert(
            belief(
                id=UUID("5ec5ec00-0000-4000-8000-000000000002"),
                statement="User is treated for a heart condition.",
                sensitivity=Sensitivity.RESTRICTED,
                source_event_ids=(cited,),
            )
        )
        uow.commit()
    return store


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store() -> InMemoryStore:
    return _store()


@pytest.fixture
def keys() -> InMemoryKeyStore:
    return InMemoryKeyStore()


async def _idle(owner: Owner, session_id: UUID) -> str:
    return f"consolidate/{owner.tenant_id}/{owner.principal_id}/{session_id}"


def _app(
    store: InMemoryStore, clock: Clock, keys: InMemoryKeyStore, evidence: AlternativeEvidence
) -> FastAPI:
    # The tokens file's entries are personal keys, resolved as the key store's are.
    tokens = TokenRegistry(
        (TokenEntry(sha256=token_digest(KEY), tenant_id=OWNER.tenant_id, principal_id=OWNER.principal_id),)
    )
    surface = AgentSurface(store=store, idle_signal=_idle, clock=clock)
    return create_app(surface, Authenticator(keys, tokens), {}, evidence)


@pytest.fixture
def client(store: InMemoryStore, clock: Clock, keys: InMemoryKeyStore) -> Iterator[TestClient]:
    with TestClient(
        _app(store, clock, keys, alternative_evidence(SOL, ASTRA_MEDIUM)), raise_server_exceptions=False
    ) as test_client:
        yield test_client


def _tokens(html: str) -> dict[str, str]:
    return dict(FORM_TOKEN.findall(html))


def _sign_in(client: TestClient, key: str = KEY) -> str:
    form = client.get("/memory/sign-in")
    signed = client.post(
        "/memory/sign-in", data={"key": key, "sign_in_token": _tokens(form.text)["sign_in_token"]}
    )
    assert signed.status_code == 200, signed.text
    return _tokens(signed.text)["csrf"]


def test_signing_in_sets_an_opaque_http_only_strict_cookie_and_every_page_is_guarded(
    client: TestClient,
) -> None:
    form = client.get("/memory/sign-in")
    signed = client.post(
        "/memory/sign-in",
        data={"key": KEY, "sign_in_token": _tokens(form.text)["sign_in_token"]},
        follow_redirects=False,
    )
    assert signed.status_code == 303 and signed.headers["location"] == "/memory"
    cookie = next(c for c in signed.headers.get_list("set-cookie") if c.startswith("memory_session="))
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/memory" in cookie
    assert KEY not in cookie and token_digest(KEY) not in cookie
    page = client.get("/memory")
    assert "User cycles to work every day." in page.text
    policy = page.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy
    assert page.headers["cache-control"] == "no-store"


def test_a_session_ends_after_its_lifetime(client: TestClient, clock: Clock) -> None:
    _sign_in(client)
    clock.now += SESSION_TTL - timedelta(seconds=1)
    assert client.get("/memory", follow_redirects=False).status_code == 200
    clock.now += timedelta(seconds=2)
    page = client.get("/memory", follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == "/memory/sign-in"


def test_an_issued_personal_key_signs_in_a_service_key_does_not_and_revoking_signs_out(
    client: TestClient, keys: InMemoryKeyStore, clock: Clock
) -> None:
    def issued(principal: str | None) -> str:
        return issue_key(
            keys,
            tenant_id=OWNER.tenant_id,
            principal_id=principal,
            name="k",
            ceiling=Sensitivity.SENSITIVE,
            now=clock(),
        ).secret

    service = issued(None)
    form = client.get("/memory/sign-in")
    refused = client.post(
        "/memory/sign-in", data={"key": service, "sign_in_token": _tokens(form.text)["sign_in_token"]}
    )
    assert refused.status_code == 403 and "service key" in refused.text
    assert "memory_session" not in client.cookies

    personal = issued(OWNER.principal_id)
    _sign_in(client, personal)
    assert "User cycles to work every day." in client.get("/memory").text
    [key] = [k for k in keys.listed() if k.principal_id == OWNER.principal_id]
    keys.revoke(key.key_id, clock())
    after = client.get("/memory", follow_redirects=False)
    assert after.status_code == 303 and after.headers["location"] == "/memory/sign-in"


def test_a_memory_above_the_keys_ceiling_is_not_listed_opened_searched_or_exported(
    client: TestClient,
) -> None:
    csrf = _sign_in(client)
    hidden = "heart condition"
    assert hidden not in client.get("/memory").text
    assert client.get("/memory/beliefs/5ec5ec00-0000-4000-8000-000000000002").status_code == 404
    assert hidden not in client.post("/memory/search", data={"query": "heart", "csrf": csrf}).text
    assert hidden not in client.get("/memory/export.json").text


def test_surrounding_turns_are_shown_only_for_an_event_the_memory_cites(client: TestClient) -> None:
    _sign_in(client)
    shown = client.get(f"/memory/beliefs/c1c1c1c1?session={SESSION}&seq=3")
    assert all(words in shown.text for words in WORDS)
    uncited = client.get(f"/memory/beliefs/c1c1c1c1?session={SESSION}&seq=1")
    assert uncited.status_code == 200 and "I moved to Lisbon" not in uncited.text


def test_a_tuple_no_artifact_evidences_is_refused_and_nothing_is_chosen(
    client: TestClient, store: InMemoryStore
) -> None:
    csrf = _sign_in(client)
    refused = client.post("/memory/settings/formation", data={"choice": "anthropic@high", "csrf": csrf})
    chosen = client.post("/memory/settings/formation", data={"choice": "anthropic@medium", "csrf": csrf})
    assert refused.status_code == 422 and chosen.status_code == 200
    with store() as uow:
        choice = uow.formation_choices.get(OWNER)
    assert choice is not None and choice.reasoning_effort == "medium"


def test_erasure_needs_its_confirmation_and_a_repeated_request_erases_nothing_more(
    client: TestClient, store: InMemoryStore
) -> None:
    csrf = _sign_in(client)
    request_id = str(uuid4())
    unconfirmed = client.post("/memory/erase", data={"csrf": csrf, "request_id": request_id})
    with store() as uow:
        assert uow.events.page(OWNER, None, 10)
    erased = client.post("/memory/erase", data={"csrf": csrf, "request_id": request_id, "confirmed": "yes"})
    assert unconfirmed.status_code == 422 and erased.status_code == 200
    assert "Erased 3 messages, 2 memories" in erased.text
    with store() as uow:
        assert uow.events.page(OWNER, None, 10) == []
        [audit] = uow.audits.for_owner(OWNER)
    assert audit.details == {
        "action": "erase",
        "events": 3,
        "episodes": 0,
        "beliefs": 2,
        "audits": 0,
        "runs": 0,
        "staged": 0,
        "watermarks": 0,
    }


def test_where_no_model_forms_memories_the_page_says_so_and_offers_no_tuple(
    store: InMemoryStore, clock: Clock, keys: InMemoryKeyStore
) -> None:
    # No artifact matches the running tuple: activation leaves formation to the rule-based former.
    with TestClient(_app(store, clock, keys, alternative_evidence())) as rules:
        csrf = _sign_in(rules)
        settings = rules.get("/memory/settings").text
        offered = rules.post("/memory/settings/formation", data={"choice": "anthropic@medium", "csrf": csrf})
    assert "formed by fixed rules" in settings and 'type="radio"' not in settings
    assert offered.status_code == 422


def test_a_stated_correction_is_listed_as_said_and_a_retracted_memory_as_no_longer_holding(
    store: InMemoryStore, client: TestClient
) -> None:
    """A correction's own record (closed when said, never live) states the correction: "no longer holds"
    would read as its opposite."""
    said = T0 + timedelta(minutes=5)
    with store() as uow:
        uow.beliefs.upsert(
            belief(statement="User no longer runs outdoors.").model_copy(
                update={"valid_from": said, "valid_to": said, "closed_reason": ClosedReason.RETRACTED}
            )
        )
        uow.beliefs.upsert(
            belief(statement="User swims in the sea.").model_copy(
                update={"valid_to": said, "closed_reason": ClosedReason.RETRACTED}
            )
        )
        uow.commit()
    _sign_in(client)
    removed = client.get("/memory/removed").text
    items = {
        statement: words
        for statement, words in re.findall(r'">([^<]+)</a></p>\s*<p class="closed">([^<]+) on ', removed)
    }
    assert items == {
        "User no longer runs outdoors.": "You said this",
        "User swims in the sea.": "You said this no longer holds",
    }
