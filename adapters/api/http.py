"""The HTTP API (`agent api`, `agent dev`): versioned under /v1, every call scoped by its bearer key
(adapters.api.auth). /healthz answers while the process runs; /readyz when the database and Temporal answer.
The OpenAPI document (/openapi.json) is typed by memory_client.models, the answers the client parses, and
/docs serves Swagger UI from packaged assets. The person's memory page is served beside it, under /memory
(adapters.api.page), signed in with the same keys.

Errors are JSON, {"error": {"reason": <code>, ...}}, never a traceback and never request content: a
validation error names fields and pydantic error types only. An unknown or revoked key is 401; a service key
without user_id, a personal key with one, or a user_id that is no id is 422 (user_id_required,
user_id_not_allowed, user_id_invalid); an append refusing every element is 422 (all_refused); a belief the
caller does not hold (foreign, unknown, or above its sensitivity ceiling) is 404, the same answer either way.
"""

from collections.abc import Awaitable, Callable, Mapping
from typing import Annotated, Any, Final
from uuid import UUID

from fastapi import Depends, FastAPI, HTTPException, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi_offline import FastAPIOffline
from pydantic import BaseModel, ConfigDict, Field, PositiveInt
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from adapters.api.auth import Authenticator, Scope
from adapters.api.page import memory_page
from adapters.api.person import PersonSurface
from adapters.api.surface import MAX_LIST_PAGE, MAX_QUERY_CHARS, MAX_RECALL, AgentSurface
from adapters.temporal.client import TemporalUnavailable
from domain.beliefs.governed import REFUSALS, GovernedOutcome, GovernedResult
from domain.beliefs.retrieval import DEFAULT_RECALL_LIMIT
from domain.candidates import MAX_STATEMENT_CHARS, MAX_SUBJECT_CHARS, ClaimKind, Sensitivity
from domain.errors import AmbiguousReference, WrongSchemaRevision
from domain.events import EventRef
from domain.keys import KeyRefusal, KeyRefused
from domain.messages import session_uuid
from domain.policy.alternatives import AlternativeEvidence
from memory_client import models

MAX_EVENTS_PER_CALL: Final = 500
# The longest an idle?wait=true call holds its connection; a longer round answers its status still running.
MAX_IDLE_WAIT_S: Final = 120.0
DEFAULT_IDLE_WAIT_S: Final = 30.0
API_VERSION: Final = "1"

Readiness = Mapping[str, Callable[[], Awaitable[bool]]]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)


class AppendRequest(_Body):
    # Any element: each is accepted or refused on its own (not_an_object for a non-object), as import lines.
    events: list[Any] = Field(
        min_length=1,
        max_length=MAX_EVENTS_PER_CALL,
        description="Events ({seq, kind, text, occurred_at}) or chat messages ({role, content}); seq and "
        "occurred_at may be omitted (numbered after the session's last event, stamped on arrival).",
    )


class RecallRequest(_Body):
    query: str | None = Field(default=None, max_length=MAX_QUERY_CHARS)
    k: int = Field(default=DEFAULT_RECALL_LIMIT, ge=1, le=MAX_RECALL, strict=True)


class CompleteRunRequest(_Body):
    returned: list[UUID] = Field(max_length=MAX_RECALL)
    cited: list[UUID] = Field(default_factory=list, max_length=MAX_RECALL)


class RememberSource(_Body):
    # The session as the conversation was added: the client's own id or the stored UUID the append answered.
    session_id: str = Field(description="The session id the events were added under, or the stored UUID.")
    seq: PositiveInt = Field(strict=True)


class RememberRequest(_Body):
    request_id: UUID
    subject: str = Field(min_length=1, max_length=MAX_SUBJECT_CHARS)
    statement: str = Field(min_length=1, max_length=MAX_STATEMENT_CHARS)
    claim_kind: ClaimKind
    source: RememberSource
    sensitivity: Sensitivity = Sensitivity.INTERNAL


class EditRequest(_Body):
    request_id: UUID
    statement: str = Field(min_length=1, max_length=MAX_STATEMENT_CHARS)


class CloseRequest(_Body):
    request_id: UUID | None = None


def _field_reason(error: dict[str, Any], json_body: bool) -> str:
    """The reason code of one invalid field: pydantic's type, except for a JSON body sent without its media
    type, which reaches the model as bytes and would read as a body that is no object."""
    if (
        not json_body
        and tuple(error.get("loc", ())) == ("body",)
        and error.get("type") == "model_attributes_type"
    ):
        return "content_type_not_json"
    return str(error.get("type", "invalid"))


def _error(status: int, reason: str, **details: Any) -> JSONResponse:
    return JSONResponse(status_code=status, content={"error": {"reason": reason, **details}})


class ApiError(HTTPException):
    """An HTTP error whose detail is its reason code."""

    def __init__(self, status: int, reason: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(status_code=status, detail=reason, headers=headers)


NOT_FOUND = ApiError(404, "not_found")


class AllRefused(Exception):
    """Every element of an append was refused: 422 with each refusal, nothing stored."""

    def __init__(self, refused: list[dict[str, Any]]) -> None:
        super().__init__("all_refused")
        self.refused = refused


def _governed(result: GovernedResult | None) -> dict[str, Any]:
    if result is None or result.outcome is GovernedOutcome.NOT_FOUND:
        raise NOT_FOUND
    if result.outcome in REFUSALS:
        raise ApiError(422, result.outcome.value)
    return {
        "outcome": result.outcome.value,
        "belief_id": str(result.belief_id) if result.belief_id else None,
        "closed_as": result.closed_as.value if result.closed_as else None,
    }


def create_app(
    surface: AgentSurface,
    authenticator: Authenticator,
    readiness: Readiness,
    alternatives: AlternativeEvidence | None = None,
    page_secret: str | None = None,
) -> FastAPI:
    """The API, and the person's memory page (/memory) on the same origin, signed in with the same keys;
    alternatives: what an owner's formation tuple choice is judged against (none: only the configured one);
    page_secret: what seals the page's sessions, shared by every process serving it (none: this one's own)."""
    app = FastAPIOffline(
        # No validator badge: Swagger UI would fetch it from validator.swagger.io.
        swagger_ui_parameters={"validatorUrl": None},
        title="Memory consolidation: agent API",
        version=API_VERSION,
        description="Append events or chat messages, consolidate, recall, cite and govern one principal's "
        "memories. Authenticate with a bearer key; a service key names the user per call (user_id).",
        responses={
            401: {"model": models.ErrorBody, "description": "No, unknown or revoked key"},
            422: {"model": models.ErrorBody, "description": "Refused input, with reason codes"},
        },
    )
    bearer = HTTPBearer(auto_error=False)

    async def scope_of(
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
        user_id: Annotated[
            str | None,
            Query(description="With a service key: the principal of the key's tenant the call acts for."),
        ] = None,
    ) -> Scope:
        secret = credentials.credentials if credentials else None
        try:
            # A tokens-file key is answered here; a stored key is read from the key store in a worker
            # thread, so the event loop never waits on the database.
            if (listed := authenticator.resolve_listed(secret, user_id)) is not None:
                return listed
            return await run_in_threadpool(authenticator.resolve, secret, user_id)
        except KeyRefused as refused:
            if refused.reason is KeyRefusal.UNAUTHENTICATED:
                raise ApiError(401, refused.reason.value, headers={"WWW-Authenticate": "Bearer"}) from None
            raise ApiError(422, refused.reason.value) from None

    Caller = Annotated[Scope, Depends(scope_of)]

    def stored_session(session_id: str, caller: Scope) -> UUID:
        try:
            return session_uuid(caller.owner, session_id)
        except ValueError:
            raise ApiError(422, "session_id_invalid") from None

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, error: StarletteHTTPException) -> JSONResponse:
        # The framework's own errors (an unknown route, a wrong method) carry prose, not a reason code.
        reason = str(error.detail) if isinstance(error, ApiError) else f"http_{error.status_code}"
        response = _error(error.status_code, reason)
        response.headers.update(error.headers or {})
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        json_body = "json" in request.headers.get("content-type", "")
        fields = [
            {"field": ".".join(str(p) for p in e.get("loc", ())), "reason": _field_reason(e, json_body)}
            for e in error.errors()
        ]
        return _error(422, "invalid_request", fields=fields)

    @app.exception_handler(AllRefused)
    async def all_refused(_: Request, error: AllRefused) -> JSONResponse:
        return _error(422, "all_refused", refused=error.refused)

    @app.exception_handler(AmbiguousReference)
    async def ambiguous(_: Request, __: AmbiguousReference) -> JSONResponse:
        return _error(409, "ambiguous_reference")

    @app.exception_handler(WrongSchemaRevision)
    async def wrong_schema(_: Request, __: WrongSchemaRevision) -> JSONResponse:
        return _error(503, "schema_revision")

    @app.exception_handler(TemporalUnavailable)
    async def temporal_unavailable(_: Request, __: TemporalUnavailable) -> JSONResponse:
        return _error(503, "temporal_unavailable")

    @app.exception_handler(Exception)
    async def internal(_: Request, __: Exception) -> JSONResponse:
        return _error(500, "internal_error")

    @app.get("/healthz", tags=["operations"], response_model=models.Health)
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/readyz", tags=["operations"], response_model=models.Readiness)
    async def readyz(response: Response) -> dict[str, Any]:
        checks: dict[str, bool] = {}
        for name, check in readiness.items():
            try:
                checks[name] = await check()
            except Exception:
                checks[name] = False
        ready = all(checks.values())
        response.status_code = 200 if ready else 503
        return {"status": "ready" if ready else "unready", "checks": checks}

    @app.post("/v1/sessions/{session_id}/events", tags=["sessions"], response_model=models.AppendResult)
    def append_events(session_id: str, body: AppendRequest, caller: Caller) -> dict[str, Any]:
        """Append events or chat messages to a session (any client string: a UUID is used as given, another
        string maps to the same stored session for the same user every time); idempotent per seq. Refused
        elements are listed by index, field and reason code; the others are appended. When every element is
        refused the answer is 422 (reason all_refused) with the same list."""
        answer = surface.append(caller, stored_session(session_id, caller), body.events)
        if answer["refused"] and not answer["appended"] and not answer["already_present"]:
            raise AllRefused(answer["refused"])
        return answer

    @app.get("/v1/sessions/{session_id}", tags=["sessions"], response_model=models.SessionStatus)
    async def session_status(session_id: str, caller: Caller) -> dict[str, Any]:
        """Events stored and consolidated, the last round's outcome and time, and whether a consolidation
        is running or quarantined."""
        return await surface.status(caller, stored_session(session_id, caller))

    @app.post(
        "/v1/sessions/{session_id}/idle",
        status_code=202,
        tags=["sessions"],
        response_model=models.IdleResult,
        response_model_exclude_unset=True,
    )
    async def session_idle(
        session_id: str,
        caller: Caller,
        response: Response,
        wait: Annotated[bool, Query(description="Answer when the consolidation is done (bounded).")] = False,
        timeout: Annotated[
            float, Query(gt=0, le=MAX_IDLE_WAIT_S, description="With wait: the most seconds to wait.")
        ] = DEFAULT_IDLE_WAIT_S,
    ) -> dict[str, Any]:
        """Signal-with-start the session's consolidation; answers its workflow id (202). With wait=true,
        answers 200 with the session's status once the consolidation is done or the timeout ran out (then
        its consolidation is still running)."""
        stored = stored_session(session_id, caller)
        workflow_id = await surface.idle(caller, stored)
        if not wait:
            return {"workflow_id": workflow_id}
        await surface.wait(caller, stored, timeout)
        response.status_code = 200
        return {"workflow_id": workflow_id, "status": await surface.status(caller, stored)}

    @app.post("/v1/recall", tags=["memories"], response_model=models.RecallResult)
    def recall(body: RecallRequest, caller: Caller) -> dict[str, Any]:
        """The <recalled-memories> block for the agent's prompt and each memory's projection. A POST so the
        query (the user's words) never appears in a URL or an access log."""
        return surface.recall(caller, body.query, body.k)

    @app.get("/v1/beliefs", tags=["memories"], response_model=models.MemoryPage)
    def list_beliefs(
        caller: Caller,
        after: UUID | None = None,
        limit: Annotated[int, Query(ge=1, le=MAX_LIST_PAGE)] = 100,
    ) -> dict[str, Any]:
        return surface.page(caller, after, limit)

    @app.get("/v1/beliefs/{belief}", tags=["memories"], response_model=models.MemoryResult)
    def get_belief(belief: str, caller: Caller) -> dict[str, Any]:
        """One belief by id or m:xxxxxxxx reference, with its provenance."""
        found = surface.get(caller, belief)
        if found is None:
            raise NOT_FOUND
        return found

    @app.post("/v1/beliefs", status_code=201, tags=["governed"], response_model=models.GovernedResult)
    def remember(body: RememberRequest, caller: Caller) -> dict[str, Any]:
        """Explicit remember, sourced from one of the user's own messages (another event is refused as
        source_not_user); idempotent on request_id."""
        return _governed(
            surface.remember(
                caller,
                request_id=body.request_id,
                subject=body.subject,
                statement=body.statement,
                claim_kind=body.claim_kind,
                source=EventRef(
                    session_id=stored_session(body.source.session_id, caller), seq=body.source.seq
                ),
                sensitivity=body.sensitivity,
            )
        )

    @app.post("/v1/beliefs/{belief}/edit", tags=["governed"], response_model=models.GovernedResult)
    def edit(belief: str, body: EditRequest, caller: Caller) -> dict[str, Any]:
        return _governed(surface.edit(caller, belief, request_id=body.request_id, statement=body.statement))

    @app.post("/v1/beliefs/{belief}/reject", tags=["governed"], response_model=models.GovernedResult)
    def reject(belief: str, caller: Caller, body: CloseRequest | None = None) -> dict[str, Any]:
        return _governed(surface.close(caller, belief, "reject", body.request_id if body else None))

    @app.delete("/v1/beliefs/{belief}", tags=["governed"], response_model=models.GovernedResult)
    def delete(belief: str, caller: Caller, request_id: UUID | None = None) -> dict[str, Any]:
        return _governed(surface.close(caller, belief, "delete", request_id))

    @app.post("/v1/runs/{run_id}/complete", tags=["memories"], response_model=models.RunCompletion)
    def complete(run_id: UUID, body: CompleteRunRequest, caller: Caller) -> dict[str, Any]:
        """The usage clock: citations move last_used_at and utility, uncited returns utility only."""
        return surface.cite(caller, run_id, body.returned, body.cited)

    app.include_router(
        memory_page(
            surface,
            PersonSurface(surface, alternatives, surface.clock),
            authenticator,
            surface.clock,
            page_secret,
        )
    )
    return app
