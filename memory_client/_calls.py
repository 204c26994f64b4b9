"""The requests both clients send: one description per method, so the sync and async clients cannot drift."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar
from urllib.parse import quote
from uuid import UUID, uuid4

import httpx
from pydantic import BaseModel

from memory_client.errors import MemoryApiError
from memory_client.models import (
    AppendResult,
    GovernedResult,
    IdleResult,
    MemoryPage,
    MemoryResult,
    RecallResult,
    RunCompletion,
    SessionStatus,
)

Result = TypeVar("Result", bound=BaseModel)
Message = dict[str, Any]

DEFAULT_SESSION = "default"
# What one idle call may wait server-side (the API bounds it); consolidate(wait=True) repeats it.
SERVER_WAIT_S = 120.0


@dataclass(frozen=True)
class Call(Generic[Result]):
    method: str
    path: str
    model: type[Result]
    params: dict[str, Any] = field(default_factory=dict)
    body: dict[str, Any] | None = None


def _params(user_id: str | None, **others: Any) -> dict[str, Any]:
    found = {k: v for k, v in others.items() if v is not None}
    return found if user_id is None else {**found, "user_id": user_id}


def _segment(value: str | UUID) -> str:
    return quote(str(value), safe="")


def add(messages: Sequence[Message], user_id: str | None, session_id: str | None) -> Call[AppendResult]:
    path = f"/v1/sessions/{_segment(session_id or DEFAULT_SESSION)}/events"
    return Call("POST", path, AppendResult, _params(user_id), {"events": list(messages)})


def idle(session_id: str, user_id: str | None, wait_s: float | None) -> Call[IdleResult]:
    extra = {} if wait_s is None else {"wait": "true", "timeout": wait_s}
    return Call("POST", f"/v1/sessions/{_segment(session_id)}/idle", IdleResult, _params(user_id, **extra))


def status(session_id: str, user_id: str | None) -> Call[SessionStatus]:
    return Call("GET", f"/v1/sessions/{_segment(session_id)}", SessionStatus, _params(user_id))


def search(query: str | None, user_id: str | None, k: int | None) -> Call[RecallResult]:
    # k omitted: the server's default, the one MCP and the CLI recall with too.
    body = {"query": query} if k is None else {"query": query, "k": k}
    return Call("POST", "/v1/recall", RecallResult, _params(user_id), body)


def get(memory_id: str | UUID, user_id: str | None) -> Call[MemoryResult]:
    return Call("GET", f"/v1/beliefs/{_segment(memory_id)}", MemoryResult, _params(user_id))


def list_page(user_id: str | None, after: str | UUID | None, limit: int) -> Call[MemoryPage]:
    after_id = None if after is None else str(after)
    return Call("GET", "/v1/beliefs", MemoryPage, _params(user_id, after=after_id, limit=limit))


def remember(
    *,
    subject: str,
    statement: str,
    claim_kind: str,
    source_session_id: str | UUID,
    source_seq: int,
    sensitivity: str,
    user_id: str | None,
    request_id: UUID | None,
) -> Call[GovernedResult]:
    body = {
        "request_id": str(request_id or uuid4()),
        "subject": subject,
        "statement": statement,
        "claim_kind": claim_kind,
        "source": {"session_id": str(source_session_id), "seq": source_seq},
        "sensitivity": sensitivity,
    }
    return Call("POST", "/v1/beliefs", GovernedResult, _params(user_id), body)


def edit(
    memory_id: str | UUID, statement: str, user_id: str | None, request_id: UUID | None
) -> Call[GovernedResult]:
    body = {"request_id": str(request_id or uuid4()), "statement": statement}
    return Call("POST", f"/v1/beliefs/{_segment(memory_id)}/edit", GovernedResult, _params(user_id), body)


def reject(memory_id: str | UUID, user_id: str | None, request_id: UUID | None) -> Call[GovernedResult]:
    body = {"request_id": str(request_id or uuid4())}
    return Call("POST", f"/v1/beliefs/{_segment(memory_id)}/reject", GovernedResult, _params(user_id), body)


def forget(memory_id: str | UUID, user_id: str | None, request_id: UUID | None) -> Call[GovernedResult]:
    params = _params(user_id, request_id=str(request_id or uuid4()))
    return Call("DELETE", f"/v1/beliefs/{_segment(memory_id)}", GovernedResult, params)


def complete_run(
    run_id: str | UUID, returned: Sequence[str | UUID], cited: Sequence[str | UUID], user_id: str | None
) -> Call[RunCompletion]:
    body = {"returned": [str(i) for i in returned], "cited": [str(i) for i in cited]}
    return Call("POST", f"/v1/runs/{_segment(run_id)}/complete", RunCompletion, _params(user_id), body)


def parsed(call: Call[Result], response: httpx.Response) -> Result:
    """The typed answer, or MemoryApiError with the API's reason code."""
    if response.is_success:
        return call.model.model_validate(response.json())
    try:
        error = response.json()["error"]
        reason = str(error.pop("reason"))
    except (ValueError, KeyError, TypeError, AttributeError):
        raise MemoryApiError(response.status_code, f"http_{response.status_code}") from None
    raise MemoryApiError(response.status_code, reason, error)
