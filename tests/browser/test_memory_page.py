"""A person's memory page, driven in Chromium: sign in with a personal key, find a memory, see why it is
remembered, correct it (edit, reject, forget, confirm a guess), choose how memories are formed, take a copy
and erase everything; a second person sees none of it; a change without the session's CSRF token is
refused. Every state reached is saved as a screenshot."""

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from adapters.postgres.keys import PostgresKeyStore
from domain.beliefs.records import ClosedReason
from domain.keys import secret_digest
from domain.telemetry import AuditKind
from tests.browser.conftest import OTHER, OTHER_WORDS, PERSON, Served

pytestmark = [pytest.mark.browser, pytest.mark.temporal, pytest.mark.postgres]

GUESS = "User likely has software-development experience."
MARATHON = "User is training for a half marathon in October."
RUNS = "User runs four times a week."
KNEE = "User's left knee gets sore after long downhill runs."
DESCENTS = "User avoids steep descents."
# The API's own terms, which the page says in plain words.
JARGON = re.compile(r"\b(hypothesis|hypotheses|derivation|longevity|direct|tentative|claim_kind)\b", re.I)


def _shot(page: Page, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def _sign_in(page: Page, served: Served, key: str) -> None:
    page.goto(f"{served.url}/memory")
    expect(page).to_have_url(re.compile(r"/memory/sign-in$"))
    page.get_by_label("Your personal key").fill(key)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="What I remember about you")).to_be_visible()


def _open(page: Page, statement: str) -> None:
    page.get_by_role("link", name=statement).first.click()
    expect(page.get_by_role("heading", level=1, name=statement)).to_be_visible()


def _live_statements(served: Served) -> set[str]:
    with served.store() as uow:
        return {b.statement for b in uow.beliefs.page(PERSON, None, 500)}


def test_a_person_finds_understands_corrects_exports_and_erases_their_memory(
    served: Served, browser: Browser, screenshots: Path
) -> None:
    context = browser.new_context(viewport={"width": 1100, "height": 900}, accept_downloads=True)
    page = context.new_page()

    # Sign in: a wrong key is refused on the page, the person's key opens it.
    page.goto(f"{served.url}/memory")
    page.get_by_label("Your personal key").fill("not-a-key")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_have_text(re.compile("not recognised"))
    _shot(page, screenshots, "01-sign-in-refused")
    _sign_in(page, served, served.person_key)
    [cookie] = [c for c in context.cookies() if c["name"] == "memory_session"]
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["path"] == "/memory"
    assert served.person_key not in cookie["value"]

    # What it remembers: grouped by kind, the guess marked, dates plain, no jargon.
    expect(page.get_by_role("heading", name="Your habits")).to_be_visible()
    guess_card = page.locator("li.belief", has_text=GUESS)
    expect(guess_card.locator(".badge")).to_have_text("A guess")
    expect(page.locator("li.belief", has_text=MARATHON)).to_contain_text("stated by you")
    expect(page.locator("li.belief", has_text=MARATHON)).to_contain_text("last used never")
    assert not JARGON.search(page.locator("main").inner_text())
    _shot(page, screenshots, "02-what-i-remember")

    # Find a belief by search (recall with a query).
    page.get_by_label("Search your memories").fill("marathon training")
    page.get_by_role("button", name="Search").click()
    results = page.locator("li.belief")
    expect(results.first).to_contain_text(MARATHON)
    _shot(page, screenshots, "03-search")

    # Why: the exact words, which conversation, when; then the turns around them.
    _open(page, MARATHON)
    quoted = page.locator("blockquote").first.inner_text()
    assert (
        quoted
        and quoted
        in "Today I want it to help me with my training. I'm training for a half marathon in October."
    )
    expect(page.locator(".sources")).to_contain_text(f"in conversation {str(served.demo_session)[:8]}")
    expect(page.locator(".sources")).to_contain_text("You said, on ")
    page.get_by_role("link", name="Show the conversation around it").first.click()
    turns = page.get_by_role("region", name="The conversation around it")
    expect(turns).to_contain_text("Nice goal! How often do you run at the moment?")
    expect(turns.locator("li.cited")).to_contain_text("half marathon in October")
    _shot(page, screenshots, "04-why")
    page.get_by_role("link", name="Back to everything I remember").click()

    # Edit one in the person's own words; the same request again changes nothing more.
    _open(page, RUNS)
    form = page.locator("form", has=page.get_by_label("Say it in your own words"))
    wording = "User runs three times a week since the knee started hurting."
    repeat: dict[str, str | float | bool] = {
        "csrf": form.locator("input[name=csrf]").get_attribute("value") or "",
        "request_id": form.locator("input[name=request_id]").get_attribute("value") or "",
        "statement": wording,
    }
    edited_from = page.url
    page.get_by_label("Say it in your own words").fill(wording)
    page.get_by_role("button", name="Save my wording").click()
    expect(page.get_by_role("status")).to_contain_text("Saved your wording")
    expect(page.get_by_role("heading", level=1)).to_have_text(wording)
    _shot(page, screenshots, "05-edited")
    again = page.request.post(f"{edited_from}/edit", form=repeat)
    assert again.ok and "That was already done" in again.text()
    assert wording in _live_statements(served)
    assert RUNS not in _live_statements(served)

    # Reject one ("that's wrong") and forget another: both listed under Removed, neither live.
    page.get_by_role("link", name="Back to everything I remember").click()
    _open(page, KNEE)
    page.get_by_role("button", name="That's wrong").click()
    expect(page.get_by_role("status")).to_contain_text("Marked as wrong")
    page.get_by_role("link", name="What I remember").click()
    _open(page, DESCENTS)
    page.get_by_role("button", name="Forget this").click()
    expect(page.get_by_role("status")).to_contain_text("Forgotten")
    removed = page.locator("li.belief.removed")
    expect(removed.filter(has_text=KNEE)).to_contain_text("You said this was wrong")
    expect(removed.filter(has_text=DESCENTS)).to_contain_text("You asked me to forget this")
    expect(removed.filter(has_text=RUNS)).to_contain_text("You replaced this wording")
    _shot(page, screenshots, "06-removed")
    assert {KNEE, DESCENTS}.isdisjoint(_live_statements(served))

    # Confirm the guess: remembered as stated by you, no longer marked a guess.
    page.get_by_role("link", name="What I remember").click()
    _open(page, GUESS)
    page.get_by_role("button", name="Yes, that's true").click()
    expect(page.get_by_role("status")).to_contain_text("Confirmed")
    expect(page.locator("article")).not_to_have_class(re.compile("guess"))
    expect(page.locator(".facts-list")).to_contain_text("stated by you")
    _shot(page, screenshots, "07-confirmed")
    page.get_by_role("link", name="What I remember").click()
    expect(page.locator(".badge")).to_have_count(0)
    for gone in (KNEE, DESCENTS):
        expect(page.locator("main")).not_to_contain_text(gone)

    # Choose how memories are formed: the evidenced alternative is offered, and only it.
    page.get_by_role("link", name="Your data").click()
    choices = page.get_by_role("radio")
    expect(choices).to_have_count(2)
    page.get_by_label(re.compile(r"anthropic \(claude-sonnet-5, medium effort\)")).check()
    page.get_by_role("button", name="Save my choice").click()
    expect(page.get_by_role("status")).to_contain_text("Your choice is saved")
    expect(page.locator("main")).to_contain_text("Now: anthropic (claude-sonnet-5, medium effort)")
    _shot(page, screenshots, "08-your-data")
    with served.store() as uow:
        chosen = uow.formation_choices.get(PERSON)
    assert chosen is not None and (chosen.model_policy, chosen.reasoning_effort) == ("anthropic", "medium")

    # Export everything held about the person.
    with page.expect_download() as downloading:
        page.get_by_role("link", name="Download my data (JSON)").click()
    exported = json.loads(Path(downloading.value.path()).read_text(encoding="utf-8"))
    assert exported["principal_id"] == PERSON.principal_id
    assert "I run four times a week, and I do a long run every Sunday morning." in {
        e["text"] for e in exported["events"]
    }
    closed = {(b["statement"], b["closed_reason"]) for b in exported["beliefs"]}
    assert {
        (KNEE, ClosedReason.REJECTED.value),
        (DESCENTS, ClosedReason.DELETED.value),
        (RUNS, ClosedReason.EDITED.value),
        (GUESS, ClosedReason.SUPERSEDED.value),
        (GUESS, None),
    } <= closed
    assert exported["formation_choice"]["model_policy"] == "anthropic"
    assert exported["episodes"] and exported["consolidation_runs"]
    assert not any(words in json.dumps(exported) for words in OTHER_WORDS)

    # Erase everything, after a confirmation step.
    page.get_by_role("link", name="Erase everything…").click()
    expect(page.get_by_role("heading", name="Erase everything?")).to_be_visible()
    _shot(page, screenshots, "09-erase-confirm")
    with served.store() as uow:
        assert uow.events.page(PERSON, None, 1), "nothing is erased before it is confirmed"
    page.get_by_label("I understand everything about me will be erased").check()
    page.get_by_role("button", name="Erase everything").click()
    expect(page.get_by_role("heading", name="Everything is erased")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text(f"Erased {len(exported['events'])} messages")
    _shot(page, screenshots, "10-erased")
    with served.store() as uow:
        assert uow.events.page(PERSON, None, 1) == []
        assert uow.beliefs.page(PERSON, None, 1, live_only=False) == []
        [audit] = uow.audits.for_owner(PERSON)
        assert len(uow.events.page(OTHER, None, 10)) == len(OTHER_WORDS)
    assert audit.kind is AuditKind.GOVERNED_WRITE and audit.details["action"] == "erase"
    assert not any(b["statement"] in json.dumps(audit.model_dump(mode="json")) for b in exported["beliefs"])
    # Erasure signs the page out.
    page.goto(f"{served.url}/memory")
    expect(page).to_have_url(re.compile(r"/memory/sign-in$"))
    context.close()


def test_a_second_persons_key_reaches_none_of_the_firsts_memory(
    served: Served, browser: Browser, screenshots: Path
) -> None:
    with served.store() as uow:
        first_ids = [str(b.id) for b in uow.beliefs.page(PERSON, None, 500)]
    assert first_ids
    context = browser.new_context()
    page = context.new_page()
    _sign_in(page, served, served.other_key)
    main = page.locator("main")
    expect(main).to_contain_text("nurse")
    for words in (MARATHON, GUESS, KNEE, "personal AI agent"):
        expect(main).not_to_contain_text(words)
    _shot(page, screenshots, "11-second-person")

    page.get_by_label("Search your memories").fill("marathon running knee")
    page.get_by_role("button", name="Search").click()
    expect(main).not_to_contain_text("marathon in October")
    for belief_id in first_ids:
        response = page.goto(f"{served.url}/memory/beliefs/{belief_id}")
        assert response is not None and response.status == 404
    context_turns = page.goto(
        f"{served.url}/memory/beliefs/{first_ids[0]}?session={served.demo_session}&seq=1"
    )
    assert context_turns is not None and context_turns.status == 404
    exported = page.request.get(f"{served.url}/memory/export.json").json()
    assert exported["principal_id"] == OTHER.principal_id
    assert not any(e["session_id"] == str(served.demo_session) for e in exported["events"])
    assert not any(b["id"] in first_ids for b in exported["beliefs"])
    context.close()


def test_a_change_with_a_forged_or_missing_csrf_token_is_refused_and_changes_nothing(
    served: Served, browser: Browser, screenshots: Path
) -> None:
    context = browser.new_context()
    page = context.new_page()
    _sign_in(page, served, served.person_key)
    _open(page, KNEE)
    target = page.url
    request_id = page.locator("input[name=request_id]").first.get_attribute("value") or ""
    token = page.locator("input[name=csrf]").first.get_attribute("value") or ""
    assert token
    # One character changed, whatever the token starts with.
    forged_token = ("y" if token[0] == "x" else "x") + token[1:]

    forged = page.request.post(f"{target}/reject", form={"csrf": forged_token, "request_id": request_id})
    missing = page.request.post(f"{target}/reject", form={"request_id": request_id})
    erase_forged = page.request.post(
        f"{served.url}/memory/erase", form={"csrf": "forged", "request_id": request_id, "confirmed": "yes"}
    )
    assert (forged.status, missing.status, erase_forged.status) == (403, 403, 403)
    assert "nothing was changed" in forged.text()
    # Without the session cookie (another site's form: SameSite=Strict keeps the cookie at home) the
    # session's own token is refused too.
    stranger = browser.new_context()
    cross = stranger.request.post(f"{target}/reject", form={"csrf": token, "request_id": request_id})
    assert cross.status == 403
    stranger.close()
    # The sign-in form is protected as well: a key posted without the form's token opens no session.
    blind = browser.new_context()
    signed = blind.request.post(
        f"{served.url}/memory/sign-in", form={"key": served.person_key}, max_redirects=0
    )
    assert signed.status == 403 and not [c for c in blind.cookies() if c["name"] == "memory_session"]
    blind.close()

    assert KNEE in _live_statements(served)
    with served.store() as uow:
        assert uow.events.page(PERSON, None, 1)
    page.goto(target)
    expect(page.get_by_role("heading", level=1)).to_have_text(KNEE)
    context.close()


def test_the_page_works_by_keyboard_at_phone_width_with_every_control_labelled(
    served: Served, browser: Browser, screenshots: Path
) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{served.url}/memory")
    # The key field has focus on arrival (waited for: typing before the page has focused it loses keys); Enter
    # submits.
    expect(page.get_by_label("Your personal key")).to_be_focused()
    page.keyboard.type(served.person_key)
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="What I remember about you")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    _shot(page, screenshots, "12-phone")

    # Tab reaches the search box, then a memory's link; Enter opens it.
    page.keyboard.press("Tab")
    for _ in range(12):
        if page.evaluate("document.activeElement.id") == "query":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "query"
    page.keyboard.type("marathon")
    page.keyboard.press("Enter")
    expect(page.locator("li.belief").first).to_contain_text(MARATHON)
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent") == MARATHON:
            break
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1, name=MARATHON)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    _shot(page, screenshots, "13-phone-why")

    for path in ("", "/settings", "/removed", "/erase"):
        page.goto(f"{served.url}/memory{path}")
        unlabelled = page.evaluate(
            """() => [...document.querySelectorAll('input:not([type=hidden]), textarea, select')]
                 .filter(e => !(e.labels && e.labels.length))
                 .map(e => e.name)"""
        )
        assert unlabelled == [], f"{path}: controls without a label: {unlabelled}"
        assert not JARGON.search(page.locator("main").inner_text()), path
    context.close()


def test_a_service_key_does_not_open_the_page_and_a_revoked_key_signs_it_out(
    served: Served, browser: Browser, screenshots: Path
) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{served.url}/memory/sign-in")
    page.get_by_label("Your personal key").fill(served.service_key)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_contain_text("service key")
    assert not [c for c in context.cookies() if c["name"] == "memory_session"]
    _shot(page, screenshots, "14-service-key-refused")

    _sign_in(page, served, served.person_key)
    keys = PostgresKeyStore(served.store.engine)
    issued = keys.by_digest(secret_digest(served.person_key))
    assert issued is not None
    keys.revoke(issued.key_id, datetime.now(UTC))
    page.goto(f"{served.url}/memory")
    expect(page).to_have_url(re.compile(r"/memory/sign-in$"))
    context.close()
