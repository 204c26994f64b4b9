"""The memory page (/memory): one person, signed in with their personal key, sees what their agent
remembers about them, why, and governs it, in plain words, on the API's own origin.

Sign-in resolves the key exactly as every API call does (Authenticator.resolve, with no user named, so a
service key, which acts for any principal of its tenant, does not open the page: it is one person's) and
exchanges it for a sealed session in an HTTP-only, SameSite=Strict cookie (PageSessions: any API process of the
deployment reads it); the session holds the key's digest, resolved afresh at every request (a revoked key signs
the page out at its next request). Every form
that changes anything carries the session's CSRF token, checked here: missing or wrong is refused with 403
and changes nothing. Reads and writes go through the agent surface and the person surface, so the page sees
exactly what the key may see and writes only through the governed service.

No user content is logged, and none travels in a URL: a search is a POST, and a redirect after a change
carries an outcome code only.
"""

import base64
import hashlib
import hmac
import json
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from importlib.resources import files
from typing import Annotated, Any, Final, TypeVar
from uuid import UUID, uuid4

from cryptography.fernet import Fernet, InvalidToken
from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape

from adapters.api.auth import Authenticator, Scope
from adapters.api.person import PersonSurface, TupleOption
from adapters.api.surface import MAX_LIST_PAGE, MAX_QUERY_CHARS, MAX_RECALL, AgentSurface
from domain.beliefs.governed import GovernedOutcome, GovernedResult
from domain.candidates import MAX_STATEMENT_CHARS, ClaimKind
from domain.errors import AmbiguousReference
from domain.events import EventRef
from domain.keys import KeyRefusal, KeyRefused, secret_digest

R = TypeVar("R", bound=Response)

PREFIX: Final = "/memory"
SESSION_COOKIE: Final = "memory_session"
SIGN_IN_COOKIE: Final = "memory_sign_in"
SESSION_TTL: Final = timedelta(hours=8)
MAX_KEY_CHARS: Final = 512

# What the person reads; the API keeps its own terms.
KIND_HEADINGS: Final[Mapping[str, str]] = {
    ClaimKind.ONGOING_PROJECT: "What you are working on",
    ClaimKind.GOAL: "Your goals",
    ClaimKind.ROLE: "Your roles",
    ClaimKind.SKILL: "What you know how to do",
    ClaimKind.INTEREST: "What interests you",
    ClaimKind.HABIT: "Your habits",
    ClaimKind.CONSTRAINT: "What limits you",
    ClaimKind.RECURRING_STATE: "What keeps coming up",
    ClaimKind.RELATIONSHIP: "People in your life",
    ClaimKind.PREFERENCE: "What you prefer",
    ClaimKind.RESOURCE: "What you use",
    ClaimKind.PROJECT_FACT: "About your projects",
}
DERIVATION_WORDS: Final = {"direct": "stated by you", "hypothesis": "a guess"}
LONGEVITY_WORDS: Final = {
    "durable": "kept for the long term",
    "ongoing": "true for now",
    "tentative": "fades unless it comes up again",
}
CONFIDENCE_WORDS: Final = {"high": "high confidence", "medium": "medium confidence", "low": "low confidence"}
SPEAKER_WORDS: Final = {
    "user_message": "You said",
    "paired_surface_message": "You said (on a paired device)",
    "assistant_message": "Your agent said",
    "model_output": "Your agent wrote",
    "tool_result": "A tool answered",
    "web_content": "A web page read",
    "gmail_read": "An email read",
    "sms_ingested": "A text message read",
}
CLOSED_WORDS: Final = {
    "rejected": "You said this was wrong",
    "deleted": "You asked me to forget this",
    "retracted": "You said this no longer holds",
    "edited": "You replaced this wording",
    # A stated correction's own record (never live): its statement is the correction, in the person's words.
    "corrected": "You said this",
}


class Act(StrEnum):
    """What the person may do to a live memory, by the path it is posted to."""

    EDIT = "edit"
    REJECT = "reject"
    FORGET = "forget"
    CONFIRM = "confirm"


ACT_DONE: Final = {
    Act.EDIT: "edited",
    Act.REJECT: "rejected",
    Act.FORGET: "forgotten",
    Act.CONFIRM: "confirmed",
}
DONE_WORDS: Final = {
    "edited": "Saved your wording. The old wording is kept under “Removed” and will not come back.",
    "rejected": "Marked as wrong. It will not be remembered again from the same conversations.",
    "forgotten": "Forgotten. It will not be remembered again from the same conversations.",
    "confirmed": "Confirmed: this is now remembered as stated by you.",
    "already": "That was already done; nothing changed.",
    "formation": "Your choice is saved.",
}
REFUSAL_WORDS: Final = {
    GovernedOutcome.REFUSED_CREDENTIAL: "That looks like a password or a key, so it was not saved.",
    GovernedOutcome.REFUSED_INJECTION: "That reads like an instruction to the agent, so it was not saved.",
}


def plain_date(value: str | None) -> str:
    """4 December 2026, from an ISO timestamp; "never" for none."""
    if value is None:
        return "never"
    at = datetime.fromisoformat(value).astimezone(UTC)
    return f"{at.day} {at:%B %Y}"


def plain_time(value: str | None) -> str:
    if value is None:
        return "an unknown time"
    at = datetime.fromisoformat(value).astimezone(UTC)
    return f"{at.day} {at:%B %Y} at {at:%H:%M} UTC"


def tuple_words(option: TupleOption) -> str:
    """anthropic (claude-sonnet-5, medium effort)."""
    details = [
        d for d in (option.model, option.reasoning_effort and f"{option.reasoning_effort} effort") if d
    ]
    return f"{option.model_policy} ({', '.join(details)})" if details else option.model_policy


def counted(count: int, one: str, many: str) -> str:
    """1 message, 2 messages."""
    return f"{count} {one if count == 1 else many}"


def _environment() -> Environment:
    templates = files("adapters.api").joinpath("templates")
    environment = Environment(
        loader=FileSystemLoader(str(templates)), autoescape=select_autoescape(default=True)
    )
    environment.filters.update(plain_date=plain_date, plain_time=plain_time, counted=counted)
    environment.globals.update(
        prefix=PREFIX,
        derivation_words=DERIVATION_WORDS,
        longevity_words=LONGEVITY_WORDS,
        confidence_words=CONFIDENCE_WORDS,
        speaker_words=SPEAKER_WORDS,
        closed_words=CLOSED_WORDS,
        max_statement=MAX_STATEMENT_CHARS,
        tuple_words=tuple_words,
    )
    return environment


@dataclass(frozen=True)
class PageSession:
    digest: str
    csrf: str
    expires_at: datetime


class PageSessions:
    """Sessions the browser carries: the cookie is the key's digest, the session's CSRF token and its expiry,
    encrypted and authenticated (Fernet) with the deployment's page secret, so every API process sharing the
    secret reads a session another opened; nothing of a session is kept in a process. The key is resolved
    from its digest at every request, so a revoked key signs out at its next request; a new secret signs
    every session out. Signing out forgets the cookie in the browser; a copy taken before lasts until its
    expiry or its key's revocation."""

    def __init__(self, secret: str, clock: Callable[[], datetime]) -> None:
        derived = hashlib.sha256(b"memory-page-session\0" + secret.encode()).digest()
        self._fernet = Fernet(base64.urlsafe_b64encode(derived))
        self._clock = clock

    def open(self, digest: str) -> tuple[str, PageSession]:
        session = PageSession(
            digest=digest, csrf=secrets.token_urlsafe(32), expires_at=self._clock() + SESSION_TTL
        )
        payload = {"digest": digest, "csrf": session.csrf, "expires_at": session.expires_at.timestamp()}
        return self._fernet.encrypt(json.dumps(payload).encode()).decode(), session

    def get(self, cookie: str | None) -> PageSession | None:
        if not cookie:
            return None
        try:
            payload = json.loads(self._fernet.decrypt(cookie))
            session = PageSession(
                digest=str(payload["digest"]),
                csrf=str(payload["csrf"]),
                expires_at=datetime.fromtimestamp(float(payload["expires_at"]), UTC),
            )
        except (InvalidToken, ValueError, KeyError, TypeError):
            return None
        return session if session.expires_at > self._clock() else None


@dataclass(frozen=True)
class Visitor:
    """A signed-in request: who the key acts for, and its session's CSRF token."""

    scope: Scope
    csrf: str


def _uuid(value: str | None) -> UUID | None:
    try:
        return UUID(value) if value else None
    except ValueError:
        return None


def _same(given: str | None, expected: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


def memory_page(
    agent: AgentSurface,
    person: PersonSurface,
    authenticator: Authenticator,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    secret: str | None = None,
) -> APIRouter:
    """The page's routes; secret: what its session cookies are sealed with, the same in every process that
    serves the page (none: one for this process only)."""
    router = APIRouter(prefix=PREFIX, include_in_schema=False)
    environment = _environment()
    sessions = PageSessions(secret or secrets.token_urlsafe(32), clock)
    stylesheet = files("adapters.api").joinpath("static", "page.css").read_bytes()

    def render(template: str, status: int = 200, **values: Any) -> HTMLResponse:
        body = environment.get_template(template).render(**values)
        return _guarded(HTMLResponse(body, status_code=status))

    def refused(status: int, message: str) -> HTMLResponse:
        return render("message.html", status=status, title="Not done", message=message, visitor=None)

    def forged() -> HTMLResponse:
        return refused(
            403,
            "This form has expired, you are signed out, or it did not come from your memory page: "
            "nothing was changed.",
        )

    def visitor(request: Request) -> Visitor | None:
        session = sessions.get(request.cookies.get(SESSION_COOKIE))
        if session is None:
            return None
        try:
            scope = authenticator.resolve_digest(session.digest)
        except KeyRefused:
            # Revoked since sign-in: the page signs out.
            return None
        return Visitor(scope=scope, csrf=session.csrf)

    def changing(request: Request, csrf: str | None) -> Visitor | HTMLResponse:
        """The visitor a change acts for, or the refusal: no session, or a CSRF token not the session's."""
        found = visitor(request)
        if found is None or not _same(csrf, found.csrf):
            return forged()
        return found

    def incomplete() -> HTMLResponse:
        return refused(422, "The form was incomplete, so nothing was changed.")

    def to_sign_in() -> RedirectResponse:
        return RedirectResponse(f"{PREFIX}/sign-in", status_code=303)

    def finished(target: str, code: str) -> RedirectResponse:
        return RedirectResponse(f"{PREFIX}/{target}?done={code}", status_code=303)

    def governed(result: GovernedResult | None, act: Act) -> Response:
        """Where the person sees what the act did: the memory filed in its place, or the removed list."""
        if result is None or result.outcome is GovernedOutcome.NOT_FOUND:
            return refused(404, "That memory is not one of yours.")
        if result.outcome in REFUSAL_WORDS:
            return refused(422, REFUSAL_WORDS[result.outcome])
        done_before = (GovernedOutcome.ALREADY_APPLIED, GovernedOutcome.ALREADY_CLOSED)
        code = "already" if result.outcome in done_before else ACT_DONE[act]
        replaced = act in (Act.EDIT, Act.CONFIRM) or code == "already"
        return finished(f"beliefs/{result.belief_id}" if replaced else "removed", code)

    @router.get("/static/page.css")
    def css() -> Response:
        return Response(stylesheet, media_type="text/css", headers={"Cache-Control": "max-age=3600"})

    @router.get("/sign-in")
    def sign_in_form(request: Request) -> Response:
        if visitor(request) is not None:
            return RedirectResponse(PREFIX, status_code=303)
        token = secrets.token_urlsafe(32)
        response = render("sign_in.html", visitor=None, sign_in_token=token, failed=None)
        _cookie(response, request, SIGN_IN_COOKIE, token, timedelta(minutes=30))
        return response

    @router.post("/sign-in")
    def sign_in(
        request: Request,
        key: Annotated[str, Form(max_length=MAX_KEY_CHARS)] = "",
        sign_in_token: Annotated[str | None, Form()] = None,
    ) -> Response:
        # Sign-in CSRF: the form's token must be the one this browser was given with the form.
        if not _same(sign_in_token, request.cookies.get(SIGN_IN_COOKIE, "")):
            return forged()
        key = key.strip()
        try:
            authenticator.resolve(key)
        except KeyRefused as refusal:
            token = secrets.token_urlsafe(32)
            service = refusal.reason is KeyRefusal.USER_ID_REQUIRED
            again = render(
                "sign_in.html",
                status=403 if service else 401,
                visitor=None,
                sign_in_token=token,
                failed="service" if service else "unknown",
            )
            _cookie(again, request, SIGN_IN_COOKIE, token, timedelta(minutes=30))
            return again
        sealed, _ = sessions.open(secret_digest(key))
        response = RedirectResponse(PREFIX, status_code=303)
        _cookie(response, request, SESSION_COOKIE, sealed, SESSION_TTL)
        _forget_cookie(response, SIGN_IN_COOKIE)
        return _guarded(response)

    @router.post("/sign-out")
    def sign_out(request: Request, csrf: Annotated[str | None, Form()] = None) -> Response:
        found = changing(request, csrf)
        if isinstance(found, HTMLResponse):
            return found
        response = to_sign_in()
        _forget_cookie(response, SESSION_COOKIE)
        return _guarded(response)

    @router.get("")
    def overview(request: Request, after: UUID | None = None) -> Response:
        found = visitor(request)
        if found is None:
            return to_sign_in()
        listed = agent.page(found.scope, after, MAX_LIST_PAGE)
        return render(
            "memories.html",
            visitor=found,
            groups=_grouped(listed["beliefs"]),
            query=None,
            results=None,
            next_page=listed["next"],
        )

    @router.post("/search")
    def search(
        request: Request,
        query: Annotated[str, Form(max_length=MAX_QUERY_CHARS)] = "",
        csrf: Annotated[str | None, Form()] = None,
    ) -> Response:
        found = changing(request, csrf)
        if isinstance(found, HTMLResponse):
            return found
        if not query.strip():
            return RedirectResponse(PREFIX, status_code=303)
        recalled = agent.recall(found.scope, query, MAX_RECALL)
        return render(
            "memories.html",
            visitor=found,
            groups=None,
            query=query,
            results=recalled["memories"],
            next_page=None,
        )

    @router.get("/beliefs/{reference}")
    def belief(
        request: Request,
        reference: str,
        done: str | None = None,
        session: UUID | None = None,
        seq: int | None = None,
    ) -> Response:
        found = visitor(request)
        if found is None:
            return to_sign_in()
        try:
            shown = agent.get(found.scope, reference)
        except AmbiguousReference:
            shown = None
        if shown is None:
            return refused(404, "That memory is not one of yours, or it does not exist.")
        turns = None
        if session is not None and seq is not None and seq > 0:
            turns = person.surrounding(found.scope, reference, EventRef(session_id=session, seq=seq))
        return render(
            "belief.html",
            visitor=found,
            belief=shown["belief"],
            done=DONE_WORDS.get(done or ""),
            turns=turns,
            cited=(str(session), seq),
            request_id=uuid4(),
        )

    @router.post("/beliefs/{reference}/{act}")
    def govern(
        request: Request,
        reference: str,
        act: Act,
        statement: Annotated[str, Form(max_length=MAX_STATEMENT_CHARS)] = "",
        request_id: Annotated[str | None, Form()] = None,
        csrf: Annotated[str | None, Form()] = None,
    ) -> Response:
        """Edit, reject ("that's wrong"), forget or confirm, through the governed service; idempotent on
        the request id the form was rendered with."""
        found = changing(request, csrf)
        if isinstance(found, HTMLResponse):
            return found
        request_uuid = _uuid(request_id)
        if request_uuid is None:
            return incomplete()
        wording = statement.strip()
        if act is Act.EDIT and not wording:
            return refused(422, "A memory needs some words; nothing was changed.")
        scope = found.scope
        acts: dict[Act, Callable[[], GovernedResult | None]] = {
            Act.EDIT: lambda: agent.edit(scope, reference, request_id=request_uuid, statement=wording),
            Act.REJECT: lambda: agent.close(scope, reference, "reject", request_uuid),
            Act.FORGET: lambda: agent.close(scope, reference, "delete", request_uuid),
            Act.CONFIRM: lambda: agent.confirm(scope, reference, request_id=request_uuid),
        }
        try:
            result = acts[act]()
        except AmbiguousReference:
            result = None
        return governed(result, act)

    @router.get("/removed")
    def removed(request: Request, done: str | None = None) -> Response:
        found = visitor(request)
        if found is None:
            return to_sign_in()
        return render(
            "removed.html",
            visitor=found,
            removed=person.removed(found.scope),
            done=DONE_WORDS.get(done or ""),
        )

    @router.get("/settings")
    def settings(request: Request, done: str | None = None) -> Response:
        found = visitor(request)
        if found is None:
            return to_sign_in()
        return render(
            "settings.html",
            visitor=found,
            formation=person.formation(found.scope),
            done=DONE_WORDS.get(done or ""),
        )

    @router.post("/settings/formation")
    def choose_formation(
        request: Request,
        choice: Annotated[str, Form(max_length=200)] = "",
        csrf: Annotated[str | None, Form()] = None,
    ) -> Response:
        found = changing(request, csrf)
        if isinstance(found, HTMLResponse):
            return found
        if person.choose_formation(found.scope, choice) is None:
            return refused(422, "That way of forming memories has no evidence here, so it is not offered.")
        return finished("settings", "formation")

    @router.get("/export.json")
    def export(request: Request) -> Response:
        found = visitor(request)
        if found is None:
            return to_sign_in()
        stamp = clock().strftime("%Y%m%d")
        return _guarded(
            JSONResponse(
                person.export(found.scope),
                headers={"Content-Disposition": f'attachment; filename="my-memory-{stamp}.json"'},
            )
        )

    @router.get("/erase")
    def erase_form(request: Request) -> Response:
        found = visitor(request)
        if found is None:
            return to_sign_in()
        return render("erase.html", visitor=found, request_id=uuid4(), unconfirmed=False)

    @router.post("/erase")
    def erase(
        request: Request,
        request_id: Annotated[str | None, Form()] = None,
        confirmed: Annotated[str | None, Form()] = None,
        csrf: Annotated[str | None, Form()] = None,
    ) -> Response:
        found = changing(request, csrf)
        if isinstance(found, HTMLResponse):
            return found
        request_uuid = _uuid(request_id)
        if request_uuid is None:
            return incomplete()
        if confirmed != "yes":
            return render("erase.html", status=422, visitor=found, request_id=request_uuid, unconfirmed=True)
        result = person.erase(found.scope, request_uuid)
        response = render("erased.html", visitor=None, result=result)
        _forget_cookie(response, SESSION_COOKIE)
        return response

    return router


def _grouped(beliefs: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Beliefs by claim kind, in the claim kinds' order, newest evidence first within each."""
    groups = []
    for kind in ClaimKind:
        members = [b for b in beliefs if b["claim_kind"] == kind.value]
        if members:
            members.sort(key=lambda b: (b["last_evidence_at"], b["id"]), reverse=True)
            groups.append((KIND_HEADINGS[kind], members))
    return groups


def _cookie(response: Response, request: Request, name: str, value: str, lifetime: timedelta) -> None:
    response.set_cookie(
        name,
        value,
        max_age=int(lifetime.total_seconds()),
        path=PREFIX,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


def _forget_cookie(response: Response, name: str) -> None:
    response.delete_cookie(name, path=PREFIX, httponly=True, samesite="strict")


def _guarded(response: R) -> R:
    """No third-party anything, no framing, nothing cached: the page is one person's memory."""
    response.headers["Content-Security-Policy"] = (
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
        "frame-ancestors 'none'; base-uri 'none'"
    )
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-store"
    return response
