"""The wire shapes of the memory API's answers: the server declares its responses with these models (so
the OpenAPI document is typed) and the client parses into them (so a program gets typed results).

Unknown fields are ignored, so a client keeps working against a newer server that adds one.
"""

from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, PlainSerializer

# Written as Python's isoformat (+00:00), as the API always has.
Timestamp = Annotated[datetime, PlainSerializer(datetime.isoformat, return_type=str, when_used="json")]


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class Refusal(_Model):
    """One refused element of an append: its index in the request, the field and a reason code."""

    index: int
    field: str
    reason: str


class AppendResult(_Model):
    session_id: UUID
    appended: int
    late: int
    already_present: int
    refused: list[Refusal]


class Provenance(_Model):
    """One source event a memory rests on, and the exact words formation cited from it."""

    session_id: UUID
    seq: int
    kind: str | None
    occurred_at: Timestamp | None
    evidence_span: str | None


class _MemoryShape(_Model):
    """What a person may see of any memory: its shape and clocks."""

    ref: str
    claim_kind: str
    derivation: str
    longevity: str
    confidence: str
    last_evidence_at: Timestamp
    last_used_at: Timestamp | None


class Memory(_MemoryShape):
    id: UUID
    statement: str
    subject: str
    valid_from: Timestamp
    valid_to: Timestamp | None
    closed_reason: str | None
    expires_at: Timestamp | None
    provenance: list[Provenance]


class TracedMemory(_MemoryShape):
    """One memory of a recall's trace (no statement, no scores)."""


class RecallTrace(_Model):
    """What a person may see of a recall: which memories, their shape and clocks; no scores."""

    policy: str
    as_of: Timestamp
    memories: list[TracedMemory]


class RecallResult(_Model):
    context: str
    """The <recalled-memories> block to put into the model's prompt (data, never instructions)."""
    memories: list[Memory]
    returned_ids: list[UUID]
    trace: RecallTrace


class MemoryResult(_Model):
    context: str
    belief: Memory


class MemoryPage(_Model):
    context: str
    beliefs: list[Memory]
    next: UUID | None
    """The cursor of the next page (pass it as after), None on the last page."""


class GovernedResult(_Model):
    outcome: Literal["applied", "already_applied", "already_closed"]
    """already_applied: this act was done before (a retry); already_closed: another act had closed the
    memory (closed_as says which), so nothing changed."""
    belief_id: UUID | None
    closed_as: str | None = None
    """With already_closed: rejected, deleted, retracted, edited, superseded or retired_*."""


class RunCompletion(_Model):
    cited: int
    returned_uncited: int
    already_recorded: int
    not_live: int
    unfaithful_citations: int


class LastRound(_Model):
    outcome: str
    from_seq: int
    to_seq: int
    segment_count: int
    started_at: Timestamp
    completed_at: Timestamp


class SessionStatus(_Model):
    """A session's consolidation: events stored up to last_seq, consolidated up to watermark."""

    session_id: UUID
    last_seq: int
    watermark: int
    pending: int
    last_round: LastRound | None
    consolidation: Literal["idle", "running", "quarantined", "unknown"]


class IdleResult(_Model):
    workflow_id: str
    status: SessionStatus | None = None
    """With wait: the session after the round finished, or when the wait ran out (consolidation running)."""


class Health(_Model):
    status: str


class Readiness(_Model):
    status: Literal["ready", "unready"]
    checks: dict[str, bool]


class ErrorDetail(_Model):
    reason: str
    fields: list[dict[str, Any]] | None = None
    refused: list[Refusal] | None = None


class ErrorBody(_Model):
    error: ErrorDetail
