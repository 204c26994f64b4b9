"""Stages hand-made stage outputs for one segment and commits it, the way the commit activity does."""

from datetime import datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

from domain.beliefs.commit import CommitReport, commit_segment
from domain.candidates import (
    CandidateOrigin,
    ClaimKind,
    Derivation,
    EvidenceSpan,
    Longevity,
    MemoryCandidate,
    Polarity,
    Sensitivity,
)
from domain.events import SourceEvent
from domain.formation.segments import SegmentRef, segment_key
from domain.owner import Owner
from domain.policy.versions import FORMATION_9
from domain.ports import UnitOfWorkFactory
from domain.staging import StagedKind, StagedOutput
from tests.builders import OWNER, T0

LATER = T0 + timedelta(days=1)


def candidate(
    seq: int,
    span: str,
    statement: str,
    *,
    subject: str = "project:personal-ai-agent",
    kind: ClaimKind = ClaimKind.ONGOING_PROJECT,
    derivation: Derivation = Derivation.DIRECT,
    polarity: Polarity = Polarity.ASSERT,
    origin: CandidateOrigin = CandidateOrigin.PROVIDER,
    extra: tuple[tuple[int, str], ...] = (),
    channel: str | None = None,
) -> MemoryCandidate:
    spans = sorted(((seq, span), *extra))
    hypothesis = derivation is Derivation.HYPOTHESIS
    return MemoryCandidate(
        subject=subject,
        statement=statement,
        claim_kind=kind,
        derivation=derivation,
        longevity=Longevity.TENTATIVE if hypothesis else Longevity.ONGOING,
        polarity=polarity,
        source_event_ids=tuple(s for s, _ in spans),
        evidence_spans=tuple(EvidenceSpan(seq=s, text=t) for s, t in spans),
        origin=origin,
        sensitivity=Sensitivity.SENSITIVE if channel else Sensitivity.INTERNAL,
        channel=channel,
    )


def segment(session_id: UUID, seqs: list[int], owner: Owner = OWNER) -> SegmentRef:
    return SegmentRef(
        tenant_id=owner.tenant_id,
        principal_id=owner.principal_id,
        session_id=session_id,
        formation_policy=FORMATION_9,
        index=0,
        first_seq=min(seqs),
        last_seq=max(seqs),
        event_count=len(seqs),
        segment_key=segment_key(owner, session_id, FORMATION_9, seqs),
    )


def stage_and_commit(
    uow_factory: UnitOfWorkFactory,
    events: list[SourceEvent],
    candidates: list[MemoryCandidate],
    *,
    predictions: list[dict[str, Any]] | None = None,
    rejections: dict[str, int] | None = None,
    now: datetime = LATER,
    run_id: UUID | None = None,
    admitted_before: int = 0,
    owner: Owner = OWNER,
) -> CommitReport:
    session_id = events[0].session_id
    ref = segment(session_id, sorted({e.seq for e in events}), owner)
    with uow_factory() as uow:
        uow.events.append(events)
        documents: dict[StagedKind, dict[str, Any]] = {
            StagedKind.INTEGRATION: {"episodes": []},
            StagedKind.ANTICIPATION: {"predictions": predictions or []},
            StagedKind.DISTILLATION: {
                "candidates": [c.model_dump(mode="json") for c in candidates],
                "rejections": rejections or {},
                "coverage": {},
            },
        }
        for kind, document in documents.items():
            uow.staged.put(
                StagedOutput(
                    tenant_id=ref.tenant_id,
                    principal_id=ref.principal_id,
                    session_id=session_id,
                    segment_key=ref.segment_key,
                    stage=kind,
                    document=document,
                )
            )
        report = commit_segment(uow, ref, run_id or uuid4(), now=now, admitted_before=admitted_before)
        uow.commit()
    assert report.reconciles, report
    return report
