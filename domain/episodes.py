"""Integrated episodes: derived, rebuildable narratives over a segment's user events."""

import hashlib
import uuid
from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, NonNegativeInt, PositiveInt, model_validator

from domain.events import MAX_EVENT_TEXT_BYTES, SourceEvent
from domain.owner import BoundedId
from domain.policy.versions import EPISODE_INTEGRATION

MAX_SEGMENT_EVENTS = 256
CITATION_PREFIX_BYTES = 16
# The largest single user message plus one citation prefix per event of a full segment.
MAX_NARRATIVE_BYTES = MAX_EVENT_TEXT_BYTES + CITATION_PREFIX_BYTES * MAX_SEGMENT_EVENTS
MAX_SUBJECT_CHARS = 120

# A half-open [start, end) range of character offsets in one event's text.
CharRange = tuple[NonNegativeInt, NonNegativeInt]


def episode_derivation_key(
    policy_version: str,
    tenant_id: str,
    principal_id: str,
    session_id: UUID,
    source_event_ids: tuple[int, ...],
    source_chars: CharRange | None = None,
) -> str:
    parts = [
        policy_version,
        tenant_id,
        principal_id,
        str(session_id),
        ",".join(str(seq) for seq in source_event_ids),
    ]
    # An episode over whole events keeps the key it always had; the pieces of one event share its seq, so
    # each adds the characters it covers.
    if source_chars is not None:
        parts.append(f"chars:{source_chars[0]}-{source_chars[1]}")
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


_EPISODE_NAMESPACE = uuid.UUID("6f1c2a8e-5b0d-4f3e-9a57-0d9e1b7c4a21")


def episode_id(derivation_key: str) -> UUID:
    """Episode ids follow from their derivation key, so a retried stage re-derives the same episode."""
    return uuid.uuid5(_EPISODE_NAMESPACE, derivation_key)


class IntegratedEpisode(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    id: UUID
    tenant_id: str = BoundedId
    principal_id: str = BoundedId
    session_id: UUID
    source_event_ids: tuple[PositiveInt, ...] = Field(min_length=1)
    # The piece of its one source event this episode covers, when that event was formed in pieces.
    source_chars: CharRange | None = None
    source_started_at: AwareDatetime
    source_ended_at: AwareDatetime
    narrative: str = Field(min_length=1)
    subjects: tuple[str, ...]
    integration_policy_version: str = EPISODE_INTEGRATION
    derivation_key: str = Field(pattern=r"^[0-9a-f]{64}$")
    created_at: AwareDatetime

    @model_validator(mode="after")
    def _consistent(self) -> "IntegratedEpisode":
        ids = self.source_event_ids
        if list(ids) != sorted(set(ids)):
            raise ValueError("source_event_ids must be ordered and unique")
        if len(set(self.subjects)) != len(self.subjects):
            raise ValueError("subjects must be unique")
        if any(not s.strip() or len(s) > MAX_SUBJECT_CHARS for s in self.subjects):
            raise ValueError("subjects must be non-blank and bounded")
        if len(self.narrative.encode("utf-8")) > MAX_NARRATIVE_BYTES:
            raise ValueError(f"narrative exceeds {MAX_NARRATIVE_BYTES} bytes")
        if self.source_ended_at < self.source_started_at:
            raise ValueError("source_ended_at precedes source_started_at")
        if self.source_chars is not None and (len(ids) != 1 or self.source_chars[0] >= self.source_chars[1]):
            raise ValueError("source_chars is a non-empty range of one source event")
        expected = episode_derivation_key(
            self.integration_policy_version,
            self.tenant_id,
            self.principal_id,
            self.session_id,
            ids,
            self.source_chars,
        )
        if self.derivation_key != expected:
            raise ValueError("derivation_key does not match policy, owner, session, source ids and piece")
        return self

    def same_content(self, other: "IntegratedEpisode") -> bool:
        return (self.narrative, self.subjects, self.source_event_ids) == (
            other.narrative,
            other.subjects,
            other.source_event_ids,
        )


def integrated_episode(
    cited: Sequence[SourceEvent],
    narrative: str,
    subjects: tuple[str, ...],
    created_at: datetime,
    source_chars: CharRange | None = None,
) -> IntegratedEpisode:
    """The episode over ``cited`` (events of one owner's session, or the piece source_chars of one event):
    its source ids, key, id and time span all follow from them, so a retried stage re-derives the same
    episode."""
    first = cited[0]
    ids = tuple(sorted({event.seq for event in cited}))
    key = episode_derivation_key(
        EPISODE_INTEGRATION, first.tenant_id, first.principal_id, first.session_id, ids, source_chars
    )
    return IntegratedEpisode(
        id=episode_id(key),
        tenant_id=first.tenant_id,
        principal_id=first.principal_id,
        session_id=first.session_id,
        source_event_ids=ids,
        source_chars=source_chars,
        source_started_at=min(event.occurred_at for event in cited),
        source_ended_at=max(event.occurred_at for event in cited),
        narrative=narrative,
        subjects=subjects,
        integration_policy_version=EPISODE_INTEGRATION,
        derivation_key=key,
        created_at=created_at,
    )
