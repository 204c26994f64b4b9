"""Source events: the raw, authoritative record of what was said and by whom.

A SourceEvent holds only what every store, clock and later computation can hold: a refusal of its own
fields is a pydantic error whose type is a reason code (EventRefusalReason for the ones defined here).
"""

from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Final
from uuid import UUID

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, PositiveInt, field_validator
from pydantic_core import PydanticCustomError

from domain.owner import BoundedId, Owner

MAX_EVENT_TEXT_BYTES = 1_048_576

# The window occurred_at must fall in, [EARLIEST, LATEST). Fixed rather than relative to the wall clock so
# a stored event validates the same way when it is read back, in any process, forever. The upper bound
# leaves room for every horizon computed from evidence time (at most two years, lifecycle@2's durable
# horizon) far below datetime.max (year 9999), where expires_at would overflow.
OCCURRED_AT_EARLIEST: Final = datetime(1970, 1, 1, tzinfo=UTC)
OCCURRED_AT_LATEST: Final = datetime(2200, 1, 1, tzinfo=UTC)
# How far ahead of the server an event's occurred_at may be (time zones, a client clock a little fast).
FUTURE_TOLERANCE: Final = timedelta(days=1)
# 2**53 - 1, the largest integer a JSON number keeps exactly in every client (JavaScript's
# MAX_SAFE_INTEGER), and far below bigint's 2**63 - 1, so the watermark and seq + 1 never overflow.
MAX_SEQ: Final = 2**53 - 1


class EventRefusalReason(StrEnum):
    """Reason codes of refused input that pydantic has no type for; the others are pydantic's types."""

    INVALID_JSON = "invalid_json"
    NOT_AN_OBJECT = "not_an_object"
    NOT_UTF8 = "not_utf8"
    TEXT_CONTROL_CHARACTER = "text_control_character"
    TEXT_BLANK = "text_blank"
    TEXT_TOO_LONG = "text_too_long"
    SEQ_OUT_OF_RANGE = "seq_out_of_range"
    OCCURRED_AT_OUT_OF_RANGE = "occurred_at_out_of_range"
    # More than FUTURE_TOLERANCE ahead of the server's clock when it arrived: a wrong client clock.
    OCCURRED_AT_IN_FUTURE = "occurred_at_in_future"


def _refused(reason: EventRefusalReason, message: str) -> PydanticCustomError:
    # The message names the rule, never the value: pydantic renders it into errors a caller may print.
    return PydanticCustomError(reason.value, message)


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
    # Strict: a JSON true or "2" is not a sequence number (lax mode stored them as 1 and 2).
    seq: PositiveInt = Field(strict=True)
    kind: SourceEventKind
    text: str = Field(min_length=1)
    occurred_at: AwareDatetime

    @field_validator("seq")
    @classmethod
    def _seq_in_range(cls, seq: int) -> int:
        if seq > MAX_SEQ:
            raise _refused(EventRefusalReason.SEQ_OUT_OF_RANGE, f"seq must be at most {MAX_SEQ}")
        return seq

    @field_validator("occurred_at")
    @classmethod
    def _occurred_in_window(cls, occurred_at: datetime) -> datetime:
        if not OCCURRED_AT_EARLIEST <= occurred_at < OCCURRED_AT_LATEST:
            raise _refused(
                EventRefusalReason.OCCURRED_AT_OUT_OF_RANGE,
                f"occurred_at must be from {OCCURRED_AT_EARLIEST.isoformat()} and before "
                f"{OCCURRED_AT_LATEST.isoformat()}",
            )
        return occurred_at

    @field_validator("text")
    @classmethod
    def _bounded_non_blank(cls, text: str) -> str:
        # PostgreSQL text cannot hold NUL (every other control character it stores as given).
        if "\x00" in text:
            raise _refused(EventRefusalReason.TEXT_CONTROL_CHARACTER, "text must not contain NUL")
        # (A lone surrogate never gets here: pydantic refuses it as string_unicode.)
        if not text.strip():
            raise _refused(EventRefusalReason.TEXT_BLANK, "text must not be blank")
        if len(text.encode("utf-8")) > MAX_EVENT_TEXT_BYTES:
            raise _refused(
                EventRefusalReason.TEXT_TOO_LONG, f"text must be at most {MAX_EVENT_TEXT_BYTES} bytes"
            )
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
    seq: PositiveInt = Field(strict=True)
