"""Source events: the raw, authoritative record of what was said and by whom."""

from enum import StrEnum
from uuid import UUID

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, PositiveInt, field_validator

from domain.owner import BoundedId, Owner

MAX_EVENT_TEXT_BYTES = 1_048_576


class SourceEventKind(StrEnum):
    USER_MESSAGE = "user_message"
    PAIRED_SURFACE_MESSAGE = "paired_surface_message"
    ASSISTANT_MESSAGE = "assistant_message"
    MODEL_OUTPUT = "model_output"
    TOOL_RESULT = "tool_result"
    WEB_CONTENT = "web_content"
    GMAIL_READ = "gmail_read"
    SMS_INGESTED = "sms_ingested"


# Only the principal speaking for themselves asserts facts about themselves.
OWNER_ASSERTION_KINDS: frozenset[SourceEventKind] = frozenset(
    {SourceEventKind.USER_MESSAGE, SourceEventKind.PAIRED_SURFACE_MESSAGE}
)
# First-party communication may suggest tentative, channel-attributed hypotheses, never assert.
COMMUNICATION_KINDS: frozenset[SourceEventKind] = frozenset(
    {SourceEventKind.GMAIL_READ, SourceEventKind.SMS_INGESTED}
)


class SourceEvent(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    tenant_id: str = BoundedId
    principal_id: str = BoundedId
    session_id: UUID
    seq: PositiveInt
    kind: SourceEventKind
    text: str = Field(min_length=1)
    occurred_at: AwareDatetime

    @field_validator("text")
    @classmethod
    def _bounded_non_blank(cls, text: str) -> str:
        if not text.strip():
            raise ValueError("text must not be blank")
        if len(text.encode("utf-8")) > MAX_EVENT_TEXT_BYTES:
            raise ValueError(f"text exceeds {MAX_EVENT_TEXT_BYTES} bytes")
        return text

    @property
    def owner(self) -> Owner:
        return Owner(tenant_id=self.tenant_id, principal_id=self.principal_id)

    @property
    def is_owner_assertion(self) -> bool:
        return self.kind in OWNER_ASSERTION_KINDS

    @property
    def size_bytes(self) -> int:
        return len(self.text.encode("utf-8"))


class EventRef(BaseModel):
    """Provenance of a belief: one source event, named by its session and sequence."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    session_id: UUID
    seq: PositiveInt
