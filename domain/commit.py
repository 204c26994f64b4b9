"""Committing a segment: one short unit of work that turns staged stage outputs into beliefs.

Idempotent: a retried commit for the same run returns what the first one recorded, and a later pass over
the same source (a replay or a re-pass) reinforces rather than duplicates, because provenance is a set
and the evidence clock is a maximum over world time."""

import uuid
from datetime import datetime
from typing import Any
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt

from domain.beliefs import Authority, ClosedReason, MemoryRecord
from domain.candidates import Derivation, MemoryCandidate, Polarity
from domain.episodes import IntegratedEpisode
from domain.equivalence import retraction_ends, same_claim
from domain.events import EventRef, SourceEvent
from domain.ports import EpisodePut, UnitOfWork
from domain.ranking import MAX_PROPOSALS_PER_CONSOLIDATION, select
from domain.segments import SegmentRef
from domain.staging import StagedKind
from domain.telemetry import AuditKind, CoverageDisposition, FormationAudit, ReasonCategory
from domain.versions import LIFECYCLE

CONFIDENCE: dict[Derivation, float] = {Derivation.DIRECT: 0.65, Derivation.HYPOTHESIS: 0.35}
MAX_RETRACTION_TARGETS = 4
BELIEF_PAGE = 1_000
_BELIEF_NAMESPACE = uuid.UUID("5b0f6a52-4a77-4c0e-9a43-3f1f3d1f0b9e")


class CommitReport(BaseModel):
    """Content-free: counts by reason category, never a statement."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    segment_index: NonNegativeInt
    episodes_stored: NonNegativeInt = 0
    derivation_conflicts: NonNegativeInt = 0
    proposals: NonNegativeInt = 0
    admitted: NonNegativeInt = 0
    categories: dict[ReasonCategory, NonNegativeInt] = Field(default_factory=dict)
    coverage: dict[CoverageDisposition, NonNegativeInt] = Field(default_factory=dict)
    direct_proposed: NonNegativeInt = 0
    direct_committed: NonNegativeInt = 0
    hypothesis_proposed: NonNegativeInt = 0
    hypothesis_committed: NonNegativeInt = 0
    attributed_redundancies: NonNegativeInt = 0
    rejected_provider_candidates: NonNegativeInt = 0


def belief_id(ref: SegmentRef, subject: str) -> UUID:
    return uuid.uuid5(_BELIEF_NAMESPACE, f"{ref.tenant_id}/{ref.principal_id}/{subject}")


def _live_beliefs(uow: UnitOfWork, ref: SegmentRef) -> list[MemoryRecord]:
    found: list[MemoryRecord] = []
    after: UUID | None = None
    while True:
        page = uow.beliefs.page(ref.owner, after, BELIEF_PAGE)
        found.extend(page)
        if len(page) < BELIEF_PAGE:
            return found
        after = page[-1].id


class _Tally:
    def __init__(self) -> None:
        self.categories: dict[ReasonCategory, int] = {}
        self.direct_committed = self.hypothesis_committed = self.redundant = 0

    def add(self, category: ReasonCategory, candidate: MemoryCandidate | None = None) -> None:
        self.categories[category] = self.categories.get(category, 0) + 1
        if candidate is not None and category in (ReasonCategory.COMMITTED_DIRECT, ReasonCategory.PROMOTED):
            self.direct_committed += 1
        if category is ReasonCategory.COMMITTED_HYPOTHESIS:
            self.hypothesis_committed += 1
        if category is ReasonCategory.REDUNDANT_ATTRIBUTED:
            self.redundant += 1


class _SegmentCommit:
    def __init__(self, uow: UnitOfWork, ref: SegmentRef, run_id: UUID, now: datetime) -> None:
        self.uow, self.ref, self.run_id, self.now = uow, ref, run_id, now
        events = uow.events.read_range(ref.owner, ref.session_id, ref.first_seq - 1, ref.event_count)
        self.events: dict[int, SourceEvent] = {e.seq: e for e in events if e.seq <= ref.last_seq}
        self.tally = _Tally()

    def evidence(self, candidate: MemoryCandidate) -> tuple[tuple[EventRef, ...], datetime]:
        refs = tuple(EventRef(session_id=self.ref.session_id, seq=seq) for seq in candidate.source_event_ids)
        times = [self.events[seq].occurred_at for seq in candidate.source_event_ids if seq in self.events]
        return refs, max(times, default=self.now)

    def new_belief(self, candidate: MemoryCandidate) -> MemoryRecord:
        refs, evidence_at = self.evidence(candidate)
        return MemoryRecord(
            id=belief_id(self.ref, candidate.subject),
            tenant_id=self.ref.tenant_id,
            principal_id=self.ref.principal_id,
            subject=candidate.subject,
            statement=candidate.statement,
            belief_type=candidate.claim_kind.value,
            claim_kind=candidate.claim_kind,
            derivation=candidate.derivation,
            longevity=candidate.longevity,
            confidence=CONFIDENCE[candidate.derivation],
            sensitivity=candidate.sensitivity,
            authority=Authority.AUTOMATIC,
            source_event_ids=refs,
            formation_version=self.ref.formation_policy,
            lifecycle_policy_version=LIFECYCLE,
            valid_from=self.now,
            last_evidence_at=evidence_at,
            evidence_count=len(refs),
            corroboration_count=1,
            channel=candidate.channel,
            updated_at=self.now,
        )

    def supported(self, belief: MemoryRecord, candidate: MemoryCandidate, **changes: Any) -> MemoryRecord:
        """Later evidence: provenance is a set, so a replay adds nothing and moves no clock."""
        refs, evidence_at = self.evidence(candidate)
        merged = tuple(dict.fromkeys((*belief.source_event_ids, *refs)))
        if merged == belief.source_event_ids and not changes:
            return belief
        return belief.model_copy(
            update={
                "source_event_ids": merged,
                "evidence_count": len(merged),
                "corroboration_count": len({r.session_id for r in merged}),
                "last_evidence_at": max(belief.last_evidence_at, evidence_at),
                "lifecycle_policy_version": LIFECYCLE,
                "updated_at": self.now,
                "version": belief.version + 1,
                **changes,
            }
        )

    def retract(self, candidate: MemoryCandidate, live: list[MemoryRecord]) -> None:
        targets = [b for b in live if b.is_live and retraction_ends(candidate.statement, b.statement)][
            :MAX_RETRACTION_TARGETS
        ]
        if not targets:
            self.tally.add(ReasonCategory.SKIPPED_UNMATCHED_RETRACTION)
            return
        for belief in targets:
            self.uow.beliefs.close_validity(self.ref.owner, belief.id, self.now, ClosedReason.SUPERSEDED)
            live.remove(belief)
        self.tally.add(ReasonCategory.SUPERSEDED)

    def assert_claim(
        self, candidate: MemoryCandidate, live: list[MemoryRecord], attributed: set[str]
    ) -> None:
        same_subject = [b for b in live if b.subject == candidate.subject]
        match = next((b for b in same_subject if same_claim(b.statement, candidate.statement)), None)
        if match is None:
            match = next((b for b in live if same_claim(b.statement, candidate.statement)), None)
        if match is not None:
            self.support(match, candidate, live, attributed)
            return
        higher = [b for b in same_subject if b.authority is not Authority.AUTOMATIC]
        if higher:
            self.tally.add(ReasonCategory.CONFLICTED)
            return
        belief = self.new_belief(candidate)
        if self.uow.beliefs.get(self.ref.owner, belief.id) is not None:
            # The subject's key was used before; keep both claims under distinct ids.
            belief = belief.model_copy(update={"id": uuid.uuid5(belief.id, candidate.statement)})
        self.uow.beliefs.upsert(belief)
        live.append(belief)
        self.tally.add(
            ReasonCategory.COMMITTED_DIRECT
            if candidate.derivation is Derivation.DIRECT
            else ReasonCategory.COMMITTED_HYPOTHESIS,
            candidate,
        )

    def support(
        self, match: MemoryRecord, candidate: MemoryCandidate, live: list[MemoryRecord], attributed: set[str]
    ) -> None:
        if match.derivation is Derivation.HYPOTHESIS and candidate.derivation is Derivation.DIRECT:
            updated = self.supported(
                match,
                candidate,
                derivation=Derivation.DIRECT,
                longevity=candidate.longevity,
                confidence=max(match.confidence, CONFIDENCE[Derivation.DIRECT]),
                statement=candidate.statement,
                claim_kind=candidate.claim_kind,
            )
            category = ReasonCategory.PROMOTED
        else:
            updated = self.supported(match, candidate)
            attributed_here = candidate.derivation is Derivation.DIRECT and str(match.id) in attributed
            category = ReasonCategory.REDUNDANT_ATTRIBUTED if attributed_here else ReasonCategory.REINFORCED
            if attributed_here:
                self.audit_redundancy(match.id)
        if updated is not match:
            self.uow.beliefs.upsert(updated)
            live[live.index(match)] = updated
        self.tally.add(category, candidate)

    def audit_redundancy(self, memory_id: UUID) -> None:
        self.uow.audits.record(
            FormationAudit(
                id=uuid.uuid4(),
                tenant_id=self.ref.tenant_id,
                principal_id=self.ref.principal_id,
                session_id=self.ref.session_id,
                kind=AuditKind.SEGMENT_COMMITTED,
                dedupe_key=f"redundant/{self.run_id}/{self.ref.segment_key}/{memory_id}",
                details={"reason": ReasonCategory.REDUNDANT_ATTRIBUTED.value, "memory_id": str(memory_id)},
                created_at=self.now,
            )
        )

    def store_episodes(self, episodes: list[IntegratedEpisode]) -> tuple[int, int]:
        stored = conflicts = 0
        for episode in episodes:
            outcome = self.uow.episodes.put(episode)
            stored += outcome is EpisodePut.STORED
            if outcome is EpisodePut.DERIVATION_CONFLICT:
                conflicts += 1
                self.uow.audits.record(
                    FormationAudit(
                        id=uuid.uuid4(),
                        tenant_id=self.ref.tenant_id,
                        principal_id=self.ref.principal_id,
                        session_id=self.ref.session_id,
                        kind=AuditKind.DERIVATION_CONFLICT,
                        dedupe_key=f"derivation_conflict/{self.run_id}/{episode.derivation_key}",
                        details={"derivation_key": episode.derivation_key, "segment_index": self.ref.index},
                        created_at=self.now,
                    )
                )
        return stored, conflicts


def _commit_key(ref: SegmentRef, run_id: UUID) -> str:
    return f"segment_committed/{run_id}/{ref.segment_key}"


def commit_segment(
    uow: UnitOfWork, ref: SegmentRef, run_id: UUID, *, now: datetime, admitted_before: int = 0
) -> CommitReport:
    """Commit one segment's staged outputs; the caller commits the unit of work."""
    recorded = next(
        (
            a
            for a in uow.audits.for_owner(ref.owner, AuditKind.SEGMENT_COMMITTED)
            if a.dedupe_key == _commit_key(ref, run_id)
        ),
        None,
    )
    if recorded is not None:
        return CommitReport.model_validate_json(str(recorded.details["report"]))

    integration = uow.staged.get(ref.owner, ref.segment_key, StagedKind.INTEGRATION) or {}
    anticipation = uow.staged.get(ref.owner, ref.segment_key, StagedKind.ANTICIPATION) or {}
    distillation = uow.staged.get(ref.owner, ref.segment_key, StagedKind.DISTILLATION) or {}

    work = _SegmentCommit(uow, ref, run_id, now)
    stored, conflicts = work.store_episodes(
        [IntegratedEpisode.model_validate(e) for e in integration.get("episodes", [])]
    )
    candidates = [MemoryCandidate.model_validate(c) for c in distillation.get("candidates", [])]
    for category, count in distillation.get("rejections", {}).items():
        work.tally.categories[ReasonCategory(category)] = count
    attributed = {str(p["memory_id"]) for p in anticipation.get("predictions", []) if p.get("memory_id")}

    selection = select(candidates, max(0, MAX_PROPOSALS_PER_CONSOLIDATION - admitted_before))
    for _candidate, reason in selection.displaced:
        work.tally.add(reason)
    live = _live_beliefs(uow, ref)
    for candidate in selection.admitted:
        if candidate.polarity is Polarity.RETRACT:
            work.retract(candidate, live)
        else:
            work.assert_claim(candidate, live, attributed)

    rejected_provider = sum(int(v) for v in distillation.get("rejections", {}).values())
    result = CommitReport(
        segment_index=ref.index,
        episodes_stored=stored,
        derivation_conflicts=conflicts,
        proposals=len(candidates),
        admitted=len(selection.admitted),
        categories=work.tally.categories,
        coverage={CoverageDisposition(k): int(v) for k, v in distillation.get("coverage", {}).items()},
        direct_proposed=sum(c.derivation is Derivation.DIRECT for c in candidates),
        direct_committed=work.tally.direct_committed,
        hypothesis_proposed=sum(c.derivation is Derivation.HYPOTHESIS for c in candidates),
        hypothesis_committed=work.tally.hypothesis_committed,
        attributed_redundancies=work.tally.redundant,
        rejected_provider_candidates=rejected_provider,
    )
    uow.audits.record(
        FormationAudit(
            id=uuid.uuid4(),
            tenant_id=ref.tenant_id,
            principal_id=ref.principal_id,
            session_id=ref.session_id,
            kind=AuditKind.SEGMENT_COMMITTED,
            dedupe_key=_commit_key(ref, run_id),
            details={"segment_index": ref.index, "report": result.model_dump_json()},
            created_at=now,
        )
    )
    return result
