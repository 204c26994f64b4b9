"""Committed beliefs (MemoryRecord) with the lifecycle@2 evidence and usage clocks and their exact evidence spans."""

from datetime import datetime
from enum import StrEnum
from uuid import UUID

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, NonNegativeInt, PositiveInt

from domain.candidates import (
    MAX_SPAN_CHARS,
    MAX_STATEMENT_CHARS,
    MAX_SUBJECT_CHARS,
    ClaimKind,
    Derivation,
    Longevity,
    Sensitivity,
)
from domain.events import EventRef
from domain.owner import BoundedId
from domain.policy.versions import LIFECYCLE


class Authority(StrEnum):
    AUTOMATIC = "automatic"
    EXPLICIT_REMEMBER = "explicit_remember"
    USER_EDIT = "user_edit"


class ClosedReason(StrEnum):
    SUPERSEDED = "superseded"
    RETRACTED = "retracted"
    REJECTED = "rejected"
    DELETED = "deleted"
    EDITED = "edited"
    RETIRED_HYPOTHESIS = "retired_hypothesis_expired"
    RETIRED_ONGOING = "retired_ongoing_expired"
    RETIRED_DURABLE = "retired_durable_expired"


# Closed by the user's own act (a stated correction or a governed write): such a record is a tombstone that
# keeps automatic formation from recreating what the user removed.
USER_CLOSED_REASONS: frozenset[ClosedReason] = frozenset(
    {ClosedReason.RETRACTED, ClosedReason.REJECTED, ClosedReason.DELETED, ClosedReason.EDITED}
)


class SourceSpan(EventRef):
    """The exact text of one supporting source event that formation cited: what was heard, so a person can
    correct what was misheard."""

    text: str = Field(min_length=1, max_length=MAX_SPAN_CHARS)


class MemoryRecord(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    id: UUID
    tenant_id: str = BoundedId
    principal_id: str = BoundedId
    subject: str = Field(min_length=1, max_length=MAX_SUBJECT_CHARS)
    statement: str = Field(min_length=1, max_length=MAX_STATEMENT_CHARS)
    belief_type: str = Field(min_length=1, max_length=64)
    claim_kind: ClaimKind
    derivation: Derivation
    longevity: Longevity
    confidence: float = Field(ge=0.0, le=1.0)
    sensitivity: Sensitivity
    authority: Authority
    source_event_ids: tuple[EventRef, ...]
    # Empty for governed writes and for beliefs formed before spans were kept.
    evidence_spans: tuple[SourceSpan, ...] = ()
    formation_version: str
    lifecycle_policy_version: str = LIFECYCLE
    valid_from: AwareDatetime
    valid_to: AwareDatetime | None = None
    closed_reason: ClosedReason | None = None
    last_evidence_at: AwareDatetime
    last_used_at: AwareDatetime | None = None
    last_reinforced_at: AwareDatetime | None = None
    evidence_count: PositiveInt
    corroboration_count: PositiveInt
    utility: float = 0.0
    channel: str | None = None
    updated_at: AwareDatetime
    version: NonNegativeInt = 0

    @property
    def is_live(self) -> bool:
        return self.valid_to is None

    def closed(self, at: datetime, reason: ClosedReason) -> "MemoryRecord":
        return self.model_copy(
            update={"valid_to": at, "closed_reason": reason, "updated_at": at, "version": self.version + 1}
        )
