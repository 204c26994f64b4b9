"""Integrated episodes: derived, rebuildable narratives over a segment's user events."""

import hashlib
import uuid
from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, PositiveInt, model_validator

from domain.events import MAX_EVENT_TEXT_BYTES, SourceEvent
from domain.owner import BoundedId
from domain.policy.versions import EPISODE_INTEGRATION

MAX_SEGMENT_EVENTS = 256
CITATION_PREFIX_BYTES = 16
# The largest single user message plus one citation prefix per event of a full segment.
MAX_NARRATIVE_BYTES = MAX_EVENT_TEXT_BYTES + CITATION_PREFIX_BYTES * MAX_SEGMENT_EVENTS
MAX_SUBJECT_CHARS = 120


def episode_derivation_key(
    policy_version: str,
    tenant_id: str,
    principal_id: str,
    session_id: UUID,
    source_event_ids: tuple[int, ...],
) -> str:
    material = "\x1f".join(
        [
            policy_version,
            tenant_id,
            principal_id,
            str(session_id),
            ",".join(str(seq) for seq in source_event_ids),
        ]
    )
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


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
        expected = episode_derivation_key(
            self.integration_policy_version, self.tenant_id, self.principal_id, self.session_id, ids
        )
        if self.derivation_key != expected:
            raise ValueError("derivation_key does not match policy, owner, session and source ids")
        return self

    def same_content(self, other: "IntegratedEpisode") -> bool:
        return (self.narrative, self.subjects, self.source_event_ids) == (
            other.narrative,
            other.subjects,
            other.source_event_ids,
        )


def integrated_episode(
    cited: Sequence[SourceEvent], narrative: str, subjects: tuple[str, ...], created_at: datetime
) -> IntegratedEpisode:
    """The episode over ``cited`` (events of one owner's session): its source ids, key, id and time span all
    follow from them, so a retried stage re-derives the same episode."""
    first = cited[0]
    ids = tuple(sorted({event.seq for event in cited}))
    key = episode_derivation_key(
        EPISODE_INTEGRATION, first.tenant_id, first.principal_id, first.session_id, ids
    )
    return IntegratedEpisode(
        id=episode_id(key),
        tenant_id=first.tenant_id,
        principal_id=first.principal_id,
        session_id=first.session_id,
        source_event_ids=ids,
        source_started_at=min(event.occurred_at for event in cited),
        source_ended_at=max(event.occurred_at for event in cited),
        narrative=narrative,
        subjects=subjects,
        integration_policy_version=EPISODE_INTEGRATION,
        derivation_key=key,
        created_at=created_at,
    )
