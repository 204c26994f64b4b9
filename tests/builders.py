"""Small builders of domain values for tests: realistic defaults, explicit overrides."""

import json
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

from domain.beliefs.records import Authority, MemoryRecord
from domain.candidates import ClaimKind, Derivation, Longevity, Sensitivity
from domain.episodes import IntegratedEpisode, episode_derivation_key
from domain.events import EventRef, SourceEvent, SourceEventKind
from domain.owner import Owner
from domain.policy.versions import EPISODE_INTEGRATION, FORMATION_9
from domain.staging import StagedKind, StagedOutput

T0 = datetime(2026, 9, 2, 10, 0, tzinfo=UTC)
OWNER = Owner(tenant_id="t1", principal_id="p1")
OTHER_PRINCIPAL = Owner(tenant_id="t1", principal_id="p2")
OTHER_TENANT = Owner(tenant_id="t2", principal_id="p1")


def event(
    seq: int,
    text: str = "I am building a personal AI agent.",
    *,
    owner: Owner = OWNER,
    session_id: UUID,
    kind: SourceEventKind = SourceEventKind.USER_MESSAGE,
) -> SourceEvent:
    return SourceEvent(
        tenant_id=owner.tenant_id,
        principal_id=owner.principal_id,
        session_id=session_id,
        seq=seq,
        kind=kind,
        text=text,
        occurred_at=T0 + timedelta(minutes=seq),
    )


def event_line(seq: int, session: UUID, text: str = "I moved to Lisbon.") -> str:
    """One import line (JSON) of OWNER's user message, occurring seq minutes after T0."""
    return json.dumps(
        {
            "tenant_id": OWNER.tenant_id,
            "principal_id": OWNER.principal_id,
            "session_id": str(session),
            "seq": seq,
            "kind": "user_message",
            "text": text,
            "occurred_at": (T0 + timedelta(minutes=seq)).isoformat(),
        }
    )


def episode(
    seqs: tuple[int, ...],
    *,
    session_id: UUID,
    owner: Owner = OWNER,
    narrative: str = "User is building a personal AI agent.",
    subjects: tuple[str, ...] = ("project:personal-ai-agent",),
    source_chars: tuple[int, int] | None = None,
) -> IntegratedEpisode:
    return IntegratedEpisode(
        id=uuid4(),
        tenant_id=owner.tenant_id,
        principal_id=owner.principal_id,
        session_id=session_id,
        source_event_ids=seqs,
        source_chars=source_chars,
        source_started_at=T0,
        source_ended_at=T0 + timedelta(minutes=len(seqs)),
        narrative=narrative,
        subjects=subjects,
        integration_policy_version=EPISODE_INTEGRATION,
        derivation_key=episode_derivation_key(
            EPISODE_INTEGRATION, owner.tenant_id, owner.principal_id, session_id, seqs, source_chars
        ),
        created_at=T0,
    )


def belief(*, owner: Owner = OWNER, session_id: UUID | None = None, **overrides: Any) -> MemoryRecord:
    values: dict[str, Any] = {
        "id": uuid4(),
        "tenant_id": owner.tenant_id,
        "principal_id": owner.principal_id,
        "subject": "project:personal-ai-agent",
        "statement": "User is building a personal AI agent.",
        "belief_type": "ongoing_project",
        "claim_kind": ClaimKind.ONGOING_PROJECT,
        "derivation": Derivation.DIRECT,
        "longevity": Longevity.ONGOING,
        "confidence": 0.65,
        "sensitivity": Sensitivity.INTERNAL,
        "authority": Authority.AUTOMATIC,
        "source_event_ids": (EventRef(session_id=session_id or uuid4(), seq=1),),
        "formation_version": FORMATION_9,
        "valid_from": T0,
        "last_evidence_at": T0,
        "evidence_count": 1,
        "corroboration_count": 1,
        "updated_at": T0,
    }
    values.update(overrides)
    return MemoryRecord(**values)


# Thirty dishes for conflicting "My favourite food is X" sessions (the order-independence test and benchmark).
FAVOURITE_FOODS: list[str] = [
    "sushi",
    "falafel",
    "ramen",
    "pizza",
    "tacos",
    "paella",
    "curry",
    "risotto",
    "lasagne",
    "gnocchi",
    "burritos",
    "dumplings",
    "noodles",
    "pho",
    "kebab",
    "couscous",
    "hummus",
    "tapas",
    "moussaka",
    "goulash",
    "pierogi",
    "bibimbap",
    "kimchi",
    "laksa",
    "satay",
    "biryani",
    "dal",
    "samosas",
    "empanadas",
    "arepas",
]


def staged_output(owner: Owner, key: str, stage: StagedKind, document: dict[str, object]) -> StagedOutput:
    """A stage document of segment key, as a stage stages it."""
    return StagedOutput(
        tenant_id=owner.tenant_id,
        principal_id=owner.principal_id,
        session_id=uuid4(),
        segment_key=key,
        stage=stage,
        document=document,
    )
