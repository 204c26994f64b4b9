"""Committing a segment: one short unit of work that turns staged stage outputs into beliefs.

Idempotent: a retried commit for the same run returns what the first one recorded, and a later pass over
the same source (a replay or a re-pass) reinforces rather than duplicates, because provenance is a set
and the evidence clock is a maximum over world time.

Bounded: every store read is an indexed lookup for the batch's few subjects and main verbs (plus the
user's tombstones under them), never a page through the principal's memory, so commit time does not grow
with the number of live beliefs."""

import uuid
from datetime import datetime
from typing import Any
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt

from domain.beliefs import Authority, ClosedReason, MemoryRecord
from domain.candidates import Derivation, Longevity, MemoryCandidate, Polarity, Sensitivity
from domain.episodes import IntegratedEpisode
from domain.equivalence import match_keys, retraction_ends, same_claim
from domain.events import COMMUNICATION_KINDS, EventRef, SourceEvent
from domain.grounding import admitted_sources, span_rejection
from domain.merging import distinct_key, file_second_claims, merge_batch
from domain.ports import EpisodePut, UnitOfWork
from domain.ranking import MAX_PROPOSALS_PER_CONSOLIDATION, select
from domain.segments import SegmentRef
from domain.staging import StagedKind
from domain.telemetry import AuditKind, CoverageDisposition, FormationAudit, ReasonCategory
from domain.versions import LIFECYCLE

# The reference's table of initial automatic confidence; explicit remember (0.95) lives in governed.py.
CONFIDENCE: dict[Derivation, float] = {Derivation.DIRECT: 0.65, Derivation.HYPOTHESIS: 0.35}
# Independent cues may raise a hypothesis, but never to where it reads as confident as a stated fact.
HYPOTHESIS_STEP = 0.05
HYPOTHESIS_CEILING = 0.5
MAX_RETRACTION_TARGETS = 4
# Bounds on the indexed lookups: how many same-verb beliefs a candidate is compared against, and how many
# tombstones; a principal's memory can be large, a commit must not be.
MATCH_POOL = 64
TOMBSTONE_POOL = 32
_BELIEF_NAMESPACE = uuid.UUID("5b0f6a52-4a77-4c0e-9a43-3f1f3d1f0b9e")


class CommitReport(BaseModel):
    """Content-free: counts by reason category, never a statement.

    proposals counts every claim the distiller proposed that passed structural validation (the staged
    candidates plus those it rejected for a reason other than provider_invalid); categories hold exactly one
    terminal category per proposal and per provider-invalid claim."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    segment_index: NonNegativeInt
    episodes_stored: NonNegativeInt = 0
    derivation_conflicts: NonNegativeInt = 0
    proposals: NonNegativeInt = 0
    provider_invalid: NonNegativeInt = 0
    admitted: NonNegativeInt = 0
    categories: dict[ReasonCategory, NonNegativeInt] = Field(default_factory=dict)
    coverage: dict[CoverageDisposition, NonNegativeInt] = Field(default_factory=dict)
    direct_proposed: NonNegativeInt = 0
    direct_committed: NonNegativeInt = 0
    hypothesis_proposed: NonNegativeInt = 0
    hypothesis_committed: NonNegativeInt = 0
    attributed_redundancies: NonNegativeInt = 0
    rejected_provider_candidates: NonNegativeInt = 0

    @property
    def reconciles(self) -> bool:
        return sum(self.categories.values()) == self.proposals + self.provider_invalid


def belief_id(ref: SegmentRef, subject: str) -> UUID:
    return uuid.uuid5(_BELIEF_NAMESPACE, f"{ref.tenant_id}/{ref.principal_id}/{subject}")


class _Tally:
    def __init__(self) -> None:
        self.categories: dict[ReasonCategory, int] = {}
        self.direct_committed = self.hypothesis_committed = self.redundant = 0

    def add(self, category: ReasonCategory, count: int = 1) -> None:
        if count <= 0:
            return
        self.categories[category] = self.categories.get(category, 0) + count
        if category in (ReasonCategory.COMMITTED_DIRECT, ReasonCategory.PROMOTED):
            self.direct_committed += count
        if category is ReasonCategory.COMMITTED_HYPOTHESIS:
            self.hypothesis_committed += count
        if category is ReasonCategory.REDUNDANT_ATTRIBUTED:
            self.redundant += count


class _SegmentCommit:
    def __init__(
        self, uow: UnitOfWork, ref: SegmentRef, run_id: UUID, now: datetime, predictions: list[dict[str, Any]]
    ) -> None:
        self.uow, self.ref, self.run_id, self.now = uow, ref, run_id, now
        events = uow.events.read_range(ref.owner, ref.session_id, ref.first_seq - 1, ref.event_count)
        in_segment = [
            e
            for e in events
            if ref.first_seq <= e.seq <= ref.last_seq
            and e.owner == ref.owner
            and e.session_id == ref.session_id
        ]
        self.admitted: dict[int, SourceEvent] = admitted_sources(in_segment)
        self.tally = _Tally()
        # The anticipation's attributed predictions: memory id -> the statements it was predicted to hold.
        self.attributed: dict[str, list[str]] = {}
        for prediction in predictions:
            if prediction.get("memory_id"):
                self.attributed.setdefault(str(prediction["memory_id"]), []).append(
                    str(prediction.get("statement", ""))
                )
        # Beliefs this commit already read or wrote, by id, so later candidates see earlier ones.
        self.touched: dict[UUID, MemoryRecord] = {}

    # --- grounding ---------------------------------------------------------------------------------

    def grounding_rejection(self, candidate: MemoryCandidate) -> ReasonCategory | None:
        """The trust exclusions again, at the last step: a staged document is not trusted on its word."""
        for span in candidate.evidence_spans:
            rejection = span_rejection(span, self.admitted)
            if rejection is not None:
                return rejection
        channels = {self.admitted[seq].kind for seq in candidate.source_event_ids} & COMMUNICATION_KINDS
        if channels and (
            candidate.polarity is Polarity.RETRACT
            or candidate.derivation is not Derivation.HYPOTHESIS
            or candidate.longevity is not Longevity.TENTATIVE
            or candidate.sensitivity is not Sensitivity.SENSITIVE
            or candidate.channel not in {c.value for c in channels}
        ):
            # Mail and SMS may only suggest a tentative, sensitive, channel-attributed hypothesis.
            return ReasonCategory.REJECTED_PROVENANCE
        if not channels and candidate.channel is not None:
            return ReasonCategory.REJECTED_PROVENANCE
        return None

    def evidence(self, candidate: MemoryCandidate) -> tuple[tuple[EventRef, ...], datetime]:
        """Provenance and world time of the cited events (grounded, so every one is present)."""
        refs = tuple(EventRef(session_id=self.ref.session_id, seq=seq) for seq in candidate.source_event_ids)
        return refs, max(self.admitted[seq].occurred_at for seq in candidate.source_event_ids)

    # --- lookups -----------------------------------------------------------------------------------

    def _fresh(self, beliefs: list[MemoryRecord]) -> list[MemoryRecord]:
        fresh = [self.touched.get(b.id, b) for b in beliefs]
        return [b for b in fresh if b.is_live]

    def same_subject(self, subject: str) -> list[MemoryRecord]:
        found = self._fresh(self.uow.beliefs.by_subject(self.ref.owner, subject))
        known = {b.id for b in found}
        found += [
            b for b in self.touched.values() if b.is_live and b.subject == subject and b.id not in known
        ]
        return found

    def same_verb(self, verb: str | None, containing: tuple[str, ...] = ()) -> list[MemoryRecord]:
        if verb is None:
            return []
        limit = MAX_RETRACTION_TARGETS * 8 if containing else MATCH_POOL
        found = self._fresh(
            self.uow.beliefs.by_main_verb(self.ref.owner, verb, containing=containing, limit=limit)
        )
        known = {b.id for b in found}
        for belief in self.touched.values():
            keys = match_keys(belief.statement)
            if (
                belief.is_live
                and belief.id not in known
                and keys[0] == verb
                and set(containing) <= set(keys[1])
            ):
                found.append(belief)
        return found

    def store(self, belief: MemoryRecord) -> None:
        self.uow.beliefs.upsert(belief)
        self.touched[belief.id] = belief

    # --- retraction --------------------------------------------------------------------------------

    def retract(self, candidate: MemoryCandidate) -> None:
        verb, content = match_keys(candidate.statement)
        targets = sorted(
            (b for b in self.same_verb(verb, content) if retraction_ends(candidate.statement, b.statement)),
            key=lambda b: b.id,
        )[:MAX_RETRACTION_TARGETS]
        if not targets:
            self.tally.add(ReasonCategory.SKIPPED_UNMATCHED_RETRACTION)
            return
        _, corrected_at = self.evidence(candidate)
        for belief in targets:
            # The user's own correction is a tombstone dated when the user said it: older evidence replayed
            # later cannot recreate the belief, and a restatement made after the correction still can.
            closed = self.uow.beliefs.close_validity(
                self.ref.owner, belief.id, max(corrected_at, belief.valid_from), ClosedReason.RETRACTED
            )
            if closed is not None:
                self.touched[closed.id] = closed
        self.tally.add(ReasonCategory.SUPERSEDED)

    # --- assertion ---------------------------------------------------------------------------------

    def forbidden_by_user(self, candidate: MemoryCandidate, evidence_at: datetime) -> bool:
        """A user's rejection, deletion, edit or correction forbids the claim unless the user has said it
        again since: only evidence later than the tombstone may form it anew."""
        verb, _ = match_keys(candidate.statement)
        tombstones = self.uow.beliefs.closed_by_user(
            self.ref.owner, subjects=[candidate.subject], verbs=[verb] if verb else [], limit=TOMBSTONE_POOL
        )
        tombstones += [b for b in self.touched.values() if b.closed_reason is ClosedReason.RETRACTED]
        return any(
            t.valid_to is not None
            and evidence_at <= t.valid_to
            and same_claim(t.statement, candidate.statement)
            for t in tombstones
        )

    def assert_claim(self, candidate: MemoryCandidate) -> None:
        refs, evidence_at = self.evidence(candidate)
        if self.forbidden_by_user(candidate, evidence_at):
            self.tally.add(ReasonCategory.REJECTED_CORRECTION)
            return
        same_subject = self.same_subject(candidate.subject)
        match = next((b for b in same_subject if same_claim(b.statement, candidate.statement)), None)
        if match is None:
            verb, _ = match_keys(candidate.statement)
            match = next(
                (b for b in self.same_verb(verb) if same_claim(b.statement, candidate.statement)), None
            )
        if match is not None:
            self.support(match, candidate, refs, evidence_at)
            return
        if any(b.authority is not Authority.AUTOMATIC for b in same_subject):
            self.tally.add(ReasonCategory.CONFLICTED)
            return
        subject = distinct_key(
            candidate.subject,
            candidate.statement,
            [(b.subject, b.statement) for b in same_subject if b.claim_kind is candidate.claim_kind],
        )
        self.store(self.new_belief(candidate.model_copy(update={"subject": subject}), refs, evidence_at))
        self.tally.add(
            ReasonCategory.COMMITTED_DIRECT
            if candidate.derivation is Derivation.DIRECT
            else ReasonCategory.COMMITTED_HYPOTHESIS
        )

    def new_belief(
        self, candidate: MemoryCandidate, refs: tuple[EventRef, ...], evidence_at: datetime
    ) -> MemoryRecord:
        identity = belief_id(self.ref, candidate.subject)
        # An id is never reused: a closed record under it may be the user's tombstone.
        for _ in range(16):
            if self.touched.get(identity) is None and self.uow.beliefs.get(self.ref.owner, identity) is None:
                break
            identity = uuid.uuid5(identity, candidate.statement)
        return MemoryRecord(
            id=identity,
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

    def supported(
        self, belief: MemoryRecord, refs: tuple[EventRef, ...], evidence_at: datetime, **changes: Any
    ) -> MemoryRecord:
        """Later evidence: provenance is a set, so a replay adds nothing and moves no clock."""
        merged = tuple(dict.fromkeys((*belief.source_event_ids, *refs)))
        if merged == belief.source_event_ids and not changes:
            return belief
        sessions = len({r.session_id for r in merged})
        return belief.model_copy(
            update={
                "source_event_ids": merged,
                "evidence_count": max(belief.evidence_count, len(merged)),
                "corroboration_count": max(belief.corroboration_count, sessions),
                "last_evidence_at": max(belief.last_evidence_at, evidence_at),
                "lifecycle_policy_version": LIFECYCLE,
                "updated_at": self.now,
                "version": belief.version + 1,
                **changes,
            }
        )

    def support(
        self,
        match: MemoryRecord,
        candidate: MemoryCandidate,
        refs: tuple[EventRef, ...],
        evidence_at: datetime,
    ) -> None:
        if candidate.channel is not None and match.channel is None:
            # Mail and SMS never touch owner memory; the owner's belief stands above the suggestion.
            self.tally.add(ReasonCategory.CONFLICTED)
            return
        if match.derivation is Derivation.HYPOTHESIS and candidate.derivation is Derivation.DIRECT:
            updated = self.supported(
                match,
                refs,
                evidence_at,
                derivation=Derivation.DIRECT,
                longevity=candidate.longevity,
                confidence=max(match.confidence, CONFIDENCE[Derivation.DIRECT]),
                statement=candidate.statement,
                claim_kind=candidate.claim_kind,
                belief_type=candidate.claim_kind.value,
                channel=None,
            )
            category = ReasonCategory.PROMOTED
        elif candidate.derivation is Derivation.HYPOTHESIS and match.derivation is Derivation.DIRECT:
            # An inference adds nothing to what the user stated; the stated belief's clock stays its own.
            updated, category = match, ReasonCategory.REINFORCED
        elif candidate.derivation is Derivation.HYPOTHESIS:
            updated = self.supported(match, refs, evidence_at)
            if updated.corroboration_count > match.corroboration_count:
                raised = min(HYPOTHESIS_CEILING, round(match.confidence + HYPOTHESIS_STEP, 4))
                updated = updated.model_copy(update={"confidence": max(match.confidence, raised)})
            category = ReasonCategory.REINFORCED
        else:
            updated = self.supported(match, refs, evidence_at)
            category = ReasonCategory.REINFORCED
            if self.is_attributed(match, candidate):
                category = ReasonCategory.REDUNDANT_ATTRIBUTED
                self.audit_redundancy(match.id)
        if updated is not match:
            self.store(updated)
        else:
            self.touched.setdefault(match.id, match)
        self.tally.add(category)

    def is_attributed(self, memory: MemoryRecord, candidate: MemoryCandidate) -> bool:
        """The anticipation named this memory and predicted what the candidate states."""
        return any(
            same_claim(memory.statement, predicted) and same_claim(predicted, candidate.statement)
            for predicted in self.attributed.get(str(memory.id), [])
        )

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
    recorded = uow.audits.get(ref.owner, _commit_key(ref, run_id))
    if recorded is not None:
        return CommitReport.model_validate_json(str(recorded.details["report"]))

    integration = uow.staged.get(ref.owner, ref.segment_key, StagedKind.INTEGRATION) or {}
    anticipation = uow.staged.get(ref.owner, ref.segment_key, StagedKind.ANTICIPATION) or {}
    distillation = uow.staged.get(ref.owner, ref.segment_key, StagedKind.DISTILLATION) or {}

    work = _SegmentCommit(uow, ref, run_id, now, list(anticipation.get("predictions", [])))
    stored, conflicts = work.store_episodes(
        [IntegratedEpisode.model_validate(e) for e in integration.get("episodes", [])]
    )
    proposed = [MemoryCandidate.model_validate(c) for c in distillation.get("candidates", [])]
    rejections = {ReasonCategory(k): int(v) for k, v in distillation.get("rejections", {}).items()}
    for category, count in rejections.items():
        work.tally.add(category, count)

    grounded: list[MemoryCandidate] = []
    for candidate in proposed:
        rejection = work.grounding_rejection(candidate)
        if rejection is None:
            grounded.append(candidate)
        else:
            work.tally.add(rejection)
    merged = merge_batch(grounded)
    # A folded proposal is the same claim as its survivor, whose provenance now carries its evidence.
    work.tally.add(ReasonCategory.REINFORCED, merged.merged_away)
    candidates = file_second_claims(merged.candidates)

    selection = select(candidates, max(0, MAX_PROPOSALS_PER_CONSOLIDATION - admitted_before))
    for _candidate, reason in selection.displaced:
        work.tally.add(reason)
    # Source order, so a correction ends what was said before it, even earlier in the same batch.
    position = {id(c): i for i, c in enumerate(candidates)}
    for candidate in sorted(selection.admitted, key=lambda c: (c.source_event_ids[-1], position[id(c)])):
        if candidate.polarity is Polarity.RETRACT:
            work.retract(candidate)
        else:
            work.assert_claim(candidate)

    provider_invalid = rejections.get(ReasonCategory.PROVIDER_INVALID, 0)
    result = CommitReport(
        segment_index=ref.index,
        episodes_stored=stored,
        derivation_conflicts=conflicts,
        proposals=len(proposed) + sum(rejections.values()) - provider_invalid,
        provider_invalid=provider_invalid,
        admitted=len(selection.admitted),
        categories=work.tally.categories,
        coverage={CoverageDisposition(k): int(v) for k, v in distillation.get("coverage", {}).items()},
        direct_proposed=sum(c.derivation is Derivation.DIRECT for c in proposed),
        direct_committed=work.tally.direct_committed,
        hypothesis_proposed=sum(c.derivation is Derivation.HYPOTHESIS for c in proposed),
        hypothesis_committed=work.tally.hypothesis_committed,
        attributed_redundancies=work.tally.redundant,
        rejected_provider_candidates=sum(rejections.values()),
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
