"""Committing a segment: one short unit of work that turns staged stage outputs into beliefs.

Idempotent: a retried commit for the same run returns what the first one recorded, and a later pass over
the same source (a replay or a re-pass) reinforces rather than duplicates, because provenance is a set
and the evidence clock is a maximum over world time.

Bounded and few: the rules here read and write the principal's beliefs through the segment-local view
(domain.beliefs.segment_view.SegmentBeliefs), prefetched for the batch's few subjects and main verbs in a
handful of set-based queries and written back in one batched upsert, so commit time does not grow with the
number of live beliefs."""

import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt

from domain.beliefs.ranking import MAX_PROPOSALS_PER_CONSOLIDATION, select
from domain.beliefs.records import Authority, ClosedReason, MemoryRecord, SourceSpan
from domain.beliefs.segment_view import MATCH_POOL, TOMBSTONE_POOL, SegmentBeliefs, belief_id
from domain.candidates import Derivation, Longevity, MemoryCandidate, Polarity, Sensitivity
from domain.episodes import IntegratedEpisode
from domain.events import COMMUNICATION_KINDS, MAX_SEQ, EventRef, SourceEvent
from domain.formation.equivalence import negated, retraction_ends
from domain.formation.grounding import admitted_sources, span_rejection
from domain.formation.merging import ClaimMatcher, distinct_key, file_second_claims, merge_batch
from domain.formation.segments import SegmentRef
from domain.formation.stage_schemas import Prediction
from domain.policy.versions import LIFECYCLE
from domain.ports import EpisodePut, UnitOfWork, VerbKey
from domain.staging import AnticipationDocument, DistillationDocument, IntegrationDocument
from domain.telemetry import AuditKind, AuditValue, CoverageDisposition, FormationAudit, ReasonCategory

# The reference's table of initial automatic confidence; explicit remember (0.95) lives in governed.py.
CONFIDENCE: dict[Derivation, float] = {Derivation.DIRECT: 0.65, Derivation.HYPOTHESIS: 0.35}
# Independent cues may raise a hypothesis, but never to where it reads as confident as a stated fact.
HYPOTHESIS_STEP = 0.05
HYPOTHESIS_CEILING = 0.5
MAX_RETRACTION_TARGETS = 4
# How many same-verb beliefs a correction is compared against (the view bounds the other lookups).
RETRACTION_POOL = MAX_RETRACTION_TARGETS * 8
# An id is never reused: a new belief takes the first free id of its subject's chain.
ID_ATTEMPTS = 16
# A stated correction's record takes an id derived from what it retracts and where it was said.
_CORRECTION_NAMESPACE = uuid.UUID("0c6f2d4e-8b1a-4f57-a3c9-6e2d71b5f804")
# The order evidence was said in: time, session id, seq, place in the message.
Rank = tuple[datetime, str, int, int]
# Above every session id: a governed act forbids all evidence up to its time.
_AFTER_ALL = "~"


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
        self,
        uow: UnitOfWork,
        ref: SegmentRef,
        run_id: UUID,
        now: datetime,
        predictions: Sequence[Prediction],
        events: list[SourceEvent],
    ) -> None:
        self.uow, self.ref, self.run_id, self.now = uow, ref, run_id, now
        self.admitted: dict[int, SourceEvent] = admitted_sources(ref, events)
        self.tally = _Tally()
        # The anticipation's attributed predictions: memory id -> the statements it was predicted to hold.
        self.attributed: dict[str, list[str]] = {}
        for prediction in predictions:
            if prediction.memory_id:
                self.attributed.setdefault(prediction.memory_id, []).append(prediction.statement)
        # Beliefs this commit already read or wrote, by id, so later candidates see earlier ones.
        self.touched: dict[UUID, MemoryRecord] = {}
        self.claims = ClaimMatcher()
        self.beliefs = SegmentBeliefs(uow.beliefs, ref.owner, self.claims)
        self.audits: list[FormationAudit] = []

    def prefetch(self, candidates: Sequence[MemoryCandidate]) -> None:
        """Read up front, in a few set-based queries, everything the candidates' rules will look up."""
        subjects: list[str] = []
        verb_keys: list[VerbKey] = []
        verbs: list[str] = []
        ids: list[UUID] = []
        for candidate in candidates:
            verb, content = self.beliefs.match_keys(candidate.statement)
            if candidate.polarity is Polarity.RETRACT:
                if verb is not None:
                    verb_keys.append((verb, content))
                continue
            subjects.append(candidate.subject)
            if verb is not None:
                verb_keys.append((verb, ()))
                verbs.append(verb)
            ids += self.id_chain(candidate.subject, candidate.statement)
        self.beliefs.prefetch(
            subjects=subjects,
            verb_keys=verb_keys,
            tombstone_subjects=subjects,
            tombstone_verbs=verbs,
            ids=ids,
        )

    def id_chain(self, subject: str, statement: str) -> list[UUID]:
        """The ids a new belief under subject may take, in order: the first free one of the first
        ID_ATTEMPTS, else the one after them."""
        chain = [belief_id(self.ref, subject)]
        for _ in range(ID_ATTEMPTS):
            chain.append(uuid.uuid5(chain[-1], statement))
        return chain

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

    def spans(self, candidate: MemoryCandidate) -> tuple[SourceSpan, ...]:
        """The exact cited text of each source event, kept with the belief as its provenance."""
        return tuple(
            SourceSpan(session_id=self.ref.session_id, seq=span.seq, text=span.text)
            for span in candidate.evidence_spans
        )

    def evidence(self, candidate: MemoryCandidate) -> tuple[tuple[EventRef, ...], datetime]:
        """Provenance and world time of the cited events (grounded, so every one is present)."""
        refs = tuple(EventRef(session_id=self.ref.session_id, seq=seq) for seq in candidate.source_event_ids)
        return refs, max(self.admitted[seq].occurred_at for seq in candidate.source_event_ids)

    # --- lookups -----------------------------------------------------------------------------------

    def _fresh(self, beliefs: list[MemoryRecord]) -> list[MemoryRecord]:
        fresh = [self.touched.get(b.id, b) for b in beliefs]
        return [b for b in fresh if b.is_live]

    def same_subject(self, subject: str) -> list[MemoryRecord]:
        found = self._fresh(self.beliefs.live_under_subject(subject))
        known = {b.id for b in found}
        found += [
            b for b in self.touched.values() if b.is_live and b.subject == subject and b.id not in known
        ]
        return found

    def same_verb(
        self,
        verb: str | None,
        containing: tuple[str, ...] = (),
        keep: Callable[[str], bool] | None = None,
    ) -> list[MemoryRecord]:
        """Live beliefs with verb (and containing) among the bounded pool, this commit's writes included;
        with keep, only the store's beliefs whose statement keep accepts (the caller still filters)."""
        if verb is None:
            return []
        limit = RETRACTION_POOL if containing else MATCH_POOL
        found = self._fresh(self.beliefs.matching_verb(verb, containing, limit, keep))
        known = {b.id for b in found}
        for belief in self.touched.values():
            keys = self.beliefs.match_keys(belief.statement)
            if (
                belief.is_live
                and belief.id not in known
                and keys[0] == verb
                and set(containing) <= set(keys[1])
            ):
                found.append(belief)
        return found

    def store(self, belief: MemoryRecord) -> None:
        self.beliefs.put(belief)
        self.touched[belief.id] = belief

    # --- retraction --------------------------------------------------------------------------------

    def retract(self, candidate: MemoryCandidate) -> None:
        """A stated correction ends the evidence said before it, never what was said after it (then the
        user said it again): evidence decides, in the order it was said (time, then session, then seq, then
        place in the message), never which session committed first. It is kept as a tombstone of its own,
        dated when the user said it, so a claim from before it that commits later does not form, and one
        from after it still does."""
        verb, content = self.beliefs.match_keys(candidate.statement)
        targets = sorted(
            (
                b
                for b in self.same_verb(verb, content, lambda s: retraction_ends(candidate.statement, s))
                if retraction_ends(candidate.statement, b.statement)
            ),
            key=lambda b: b.id,
        )[:MAX_RETRACTION_TARGETS]
        refs, corrected_at = self.evidence(candidate)
        said = self.said_rank(candidate)
        ended = sum(self.end_before(belief, said) for belief in targets)
        self.record_correction(candidate, refs, corrected_at)
        self.tally.add(ReasonCategory.SUPERSEDED if ended else ReasonCategory.SKIPPED_UNMATCHED_RETRACTION)

    def place(self, session_id: UUID, seq: int, spans: Sequence[str]) -> int:
        """Where in its message a cited span starts, when this segment holds the message (otherwise the
        message is another event, and its time, session or seq already orders it)."""
        source = self.admitted.get(seq) if session_id == self.ref.session_id else None
        if source is None:
            return 0
        return min((source.text.find(span) for span in spans if span in source.text), default=0)

    def ranked_seqs(self, candidate: MemoryCandidate) -> dict[int, Rank]:
        """The order each of the candidate's source events was said in."""
        return {
            seq: (
                self.admitted[seq].occurred_at,
                str(self.ref.session_id),
                seq,
                self.place(
                    self.ref.session_id, seq, [s.text for s in candidate.evidence_spans if s.seq == seq]
                ),
            )
            for seq in candidate.source_event_ids
        }

    def said_rank(self, candidate: MemoryCandidate) -> Rank:
        return max(self.ranked_seqs(candidate).values())

    def record_rank(self, record: MemoryRecord, at: datetime) -> Rank:
        """The order a stored record's evidence was said in, its events dated at (a correction's own)."""
        return max(
            (
                at,
                str(ref.session_id),
                ref.seq,
                self.place(
                    ref.session_id,
                    ref.seq,
                    [
                        s.text
                        for s in record.evidence_spans
                        if (s.session_id, s.seq) == (ref.session_id, ref.seq)
                    ],
                ),
            )
            for ref in record.source_event_ids
        )

    def end_before(self, belief: MemoryRecord, correction: Rank) -> bool:
        """Drop the belief's evidence said before the correction; close it when none is left. Whether
        anything was ended."""
        when = {
            (f.session_id, f.seq): f.occurred_at
            for f in self.uow.events.facts(self.ref.owner, belief.source_event_ids)
        }

        def said_at(ref: EventRef) -> datetime:
            return when.get((ref.session_id, ref.seq), belief.last_evidence_at)

        def rank(ref: EventRef) -> Rank:
            spans = [
                s.text for s in belief.evidence_spans if (s.session_id, s.seq) == (ref.session_id, ref.seq)
            ]
            return (said_at(ref), str(ref.session_id), ref.seq, self.place(ref.session_id, ref.seq, spans))

        kept = tuple(r for r in belief.source_event_ids if rank(r) > correction)
        # A governed write cites no event: its own evidence time decides.
        if kept == belief.source_event_ids and (kept or belief.last_evidence_at > correction[0]):
            return False
        if not kept:
            # Superseded by the correction: the correction's own record is the user's tombstone.
            closed = self.beliefs.close(
                belief.id, max(correction[0], belief.valid_from), ClosedReason.SUPERSEDED
            )
            if closed is not None:
                self.touched[closed.id] = closed
            return True
        held = {(r.session_id, r.seq) for r in kept}
        self.store(
            belief.model_copy(
                update={
                    "source_event_ids": kept,
                    "evidence_spans": tuple(
                        s for s in belief.evidence_spans if (s.session_id, s.seq) in held
                    ),
                    "evidence_count": len(kept),
                    "corroboration_count": len({r.session_id for r in kept}),
                    "last_evidence_at": max(said_at(r) for r in kept),
                    "lifecycle_policy_version": LIFECYCLE,
                    "updated_at": self.now,
                    "version": belief.version + 1,
                }
            )
        )
        return True

    def record_correction(
        self, candidate: MemoryCandidate, refs: tuple[EventRef, ...], corrected_at: datetime
    ) -> None:
        """The correction as a closed record of what the user said, valid at the moment they said it: the
        tombstone forbidden_by_user reads. One per correction, however often it is replayed."""
        identity = uuid.uuid5(
            _CORRECTION_NAMESPACE,
            f"{self.ref.tenant_id}/{self.ref.principal_id}/{candidate.statement}/"
            + ",".join(f"{r.session_id}:{r.seq}" for r in refs),
        )
        if self.beliefs.taken([identity]):
            return
        record = self.new_belief(candidate, refs, corrected_at, identity=identity)
        self.store(
            record.model_copy(
                update={
                    "valid_from": corrected_at,
                    "valid_to": corrected_at,
                    "closed_reason": ClosedReason.RETRACTED,
                }
            )
        )

    # --- assertion ---------------------------------------------------------------------------------

    def forbidden_by_user(self, candidate: MemoryCandidate) -> Rank | None:
        """A user's rejection, deletion, edit or correction forbids the claim unless the user has said it
        again since: only evidence said after the tombstone may form it anew. The latest tombstone of the
        claim, as the order its correction was said in (an act forbids all evidence up to its time), or
        None."""
        verb, _ = self.beliefs.match_keys(candidate.statement)
        tombstones = self.beliefs.user_closed(candidate.subject, verb, TOMBSTONE_POOL)
        tombstones += [b for b in self.touched.values() if b.closed_reason is ClosedReason.RETRACTED]
        cutoffs: list[Rank] = []
        for t in tombstones:
            if t.valid_to is None:
                continue
            if negated(t.statement) and retraction_ends(t.statement, candidate.statement):
                # A stated correction's record, in its own negated words, ends what was said before it.
                cutoffs.append(self.record_rank(t, t.valid_to))
            elif self.claims.same(t.statement, candidate.statement):
                cutoffs.append((t.valid_to, _AFTER_ALL, MAX_SEQ, 0))
        return max(cutoffs, default=None)

    def said_after(self, candidate: MemoryCandidate, cutoff: Rank) -> MemoryCandidate | None:
        """The candidate resting only on its evidence said after cutoff (a claim heard before and after a
        tombstone keeps the later evidence alone, as it would had the tombstone committed first), or None
        when nothing is left."""
        ranks = self.ranked_seqs(candidate)
        kept = tuple(seq for seq in candidate.source_event_ids if ranks[seq] > cutoff)
        if not kept:
            return None
        if kept == candidate.source_event_ids:
            return candidate
        return candidate.model_copy(
            update={
                "source_event_ids": kept,
                "evidence_spans": tuple(s for s in candidate.evidence_spans if s.seq in kept),
            }
        )

    def assert_claim(self, candidate: MemoryCandidate) -> None:
        cutoff = self.forbidden_by_user(candidate)
        if cutoff is not None:
            after = self.said_after(candidate, cutoff)
            if after is None:
                self.tally.add(ReasonCategory.REJECTED_CORRECTION)
                return
            candidate = after
        refs, evidence_at = self.evidence(candidate)
        same_subject = self.same_subject(candidate.subject)
        match = next((b for b in same_subject if self.claims.same(b.statement, candidate.statement)), None)
        if match is None:
            verb, _ = self.beliefs.match_keys(candidate.statement)
            same = self.claims.same
            match = next(
                (
                    b
                    for b in self.same_verb(verb, (), lambda s: same(s, candidate.statement))
                    if same(b.statement, candidate.statement)
                ),
                None,
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
        self,
        candidate: MemoryCandidate,
        refs: tuple[EventRef, ...],
        evidence_at: datetime,
        identity: UUID | None = None,
    ) -> MemoryRecord:
        if identity is None:
            # An id is never reused: a closed record under it may be the user's tombstone.
            chain = self.id_chain(candidate.subject, candidate.statement)
            taken = self.beliefs.taken(chain[:ID_ATTEMPTS]) | set(self.touched)
            identity = next((i for i in chain[:ID_ATTEMPTS] if i not in taken), chain[ID_ATTEMPTS])
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
            evidence_spans=self.spans(candidate),
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
        self,
        belief: MemoryRecord,
        refs: tuple[EventRef, ...],
        spans: tuple[SourceSpan, ...],
        evidence_at: datetime,
        **changes: Any,
    ) -> MemoryRecord:
        """Later evidence: provenance is a set, so a replay adds nothing and moves no clock."""
        merged = tuple(dict.fromkeys((*belief.source_event_ids, *refs)))
        if merged == belief.source_event_ids and not changes:
            return belief
        sessions = len({r.session_id for r in merged})
        return belief.model_copy(
            update={
                "source_event_ids": merged,
                "evidence_spans": tuple(dict.fromkeys((*belief.evidence_spans, *spans))),
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
                self.spans(candidate),
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
            updated = self.supported(
                match, refs, self.spans(candidate), evidence_at, **self.later_wording(match, candidate)
            )
            if updated.corroboration_count > match.corroboration_count:
                raised = min(HYPOTHESIS_CEILING, round(match.confidence + HYPOTHESIS_STEP, 4))
                updated = updated.model_copy(update={"confidence": max(match.confidence, raised)})
            category = ReasonCategory.REINFORCED
        else:
            updated = self.supported(
                match, refs, self.spans(candidate), evidence_at, **self.later_wording(match, candidate)
            )
            category = ReasonCategory.REINFORCED
            if self.is_attributed(match, candidate):
                category = ReasonCategory.REDUNDANT_ATTRIBUTED
                self.audit_redundancy(match.id)
        if updated is not match:
            self.store(updated)
        else:
            self.touched.setdefault(match.id, match)
        self.tally.add(category)

    def later_wording(self, belief: MemoryRecord, candidate: MemoryCandidate) -> dict[str, Any]:
        """The candidate's wording when its evidence outranks every wording the belief was formed from:
        the later evidence time, then the session id, then the seq, never which commit came first, so the
        same claims give the same belief in whatever order their sessions commit. A user's wording stays."""
        if belief.authority is not Authority.AUTOMATIC or candidate.statement == belief.statement:
            return {}
        if self.evidence_rank(candidate) <= self.belief_rank(belief):
            return {}
        wording: dict[str, Any] = {"statement": candidate.statement}
        # The key follows the wording, unless another live claim is filed under it.
        if candidate.subject != belief.subject and not self.same_subject(candidate.subject):
            wording["subject"] = candidate.subject
        return wording

    def evidence_rank(self, candidate: MemoryCandidate) -> tuple[datetime, str, int]:
        return max(
            (self.admitted[seq].occurred_at, str(self.ref.session_id), seq)
            for seq in candidate.source_event_ids
        )

    def belief_rank(self, belief: MemoryRecord) -> tuple[datetime, str, int]:
        """The rank of the latest evidence the belief holds: its wording is that evidence's."""
        facts = self.uow.events.facts(self.ref.owner, belief.source_event_ids)
        return max(
            ((f.occurred_at, str(f.session_id), f.seq) for f in facts),
            default=(belief.last_evidence_at, "", 0),
        )

    def is_attributed(self, memory: MemoryRecord, candidate: MemoryCandidate) -> bool:
        """The anticipation named this memory and predicted what the candidate states."""
        return any(
            self.claims.same(memory.statement, predicted) and self.claims.same(predicted, candidate.statement)
            for predicted in self.attributed.get(str(memory.id), [])
        )

    def audit(self, kind: AuditKind, dedupe_key: str, details: dict[str, AuditValue]) -> FormationAudit:
        """A content-free audit of this segment's session, dated at the commit."""
        return FormationAudit(
            id=uuid.uuid4(),
            tenant_id=self.ref.tenant_id,
            principal_id=self.ref.principal_id,
            session_id=self.ref.session_id,
            kind=kind,
            dedupe_key=dedupe_key,
            details=details,
            created_at=self.now,
        )

    def audit_redundancy(self, memory_id: UUID) -> None:
        self.audits.append(
            self.audit(
                AuditKind.SEGMENT_COMMITTED,
                f"redundant/{self.run_id}/{self.ref.segment_key}/{memory_id}",
                {"reason": ReasonCategory.REDUNDANT_ATTRIBUTED.value, "memory_id": str(memory_id)},
            )
        )

    def store_episodes(self, episodes: Sequence[IntegratedEpisode]) -> tuple[int, int]:
        stored = conflicts = 0
        for episode in episodes:
            outcome = self.uow.episodes.put(episode)
            stored += outcome is EpisodePut.STORED
            if outcome is EpisodePut.DERIVATION_CONFLICT:
                conflicts += 1
                self.uow.audits.record(
                    self.audit(
                        AuditKind.DERIVATION_CONFLICT,
                        f"derivation_conflict/{self.run_id}/{episode.derivation_key}",
                        {"derivation_key": episode.derivation_key, "segment_index": self.ref.index},
                    )
                )
        return stored, conflicts


def _commit_key(ref: SegmentRef, run_id: UUID) -> str:
    return f"segment_committed/{run_id}/{ref.segment_key}"


def commit_segment(
    uow: UnitOfWork, ref: SegmentRef, run_id: UUID, *, now: datetime, admitted_before: int = 0
) -> CommitReport:
    """Commit one segment's staged outputs; the caller commits the unit of work."""
    # First: the beliefs this commit matches against include every commit of the principal before it.
    uow.serialize_principal(ref.owner)
    # Then, in one read: the report a commit of this run and segment recorded, the staged documents and the
    # segment's events (read here, in this transaction: what it grounds is what the store holds now).
    reads = uow.segment_reads(ref, _commit_key(ref, run_id))
    if reads.recorded is not None:
        return CommitReport.model_validate_json(str(reads.recorded.details["report"]))

    staged = reads.staged
    integration = IntegrationDocument.of(staged)
    anticipation = AnticipationDocument.of(staged)
    distillation = DistillationDocument.of(staged)

    work = _SegmentCommit(uow, ref, run_id, now, anticipation.predictions, reads.events)
    stored, conflicts = work.store_episodes(integration.episodes)
    proposed = distillation.candidates
    rejections = distillation.rejections
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
    admitted = sorted(selection.admitted, key=lambda c: (c.source_event_ids[-1], position[id(c)]))
    work.prefetch(admitted)
    for candidate in admitted:
        if candidate.polarity is Polarity.RETRACT:
            work.retract(candidate)
        else:
            work.assert_claim(candidate)
    work.beliefs.flush()

    provider_invalid = rejections.get(ReasonCategory.PROVIDER_INVALID, 0)
    result = CommitReport(
        segment_index=ref.index,
        episodes_stored=stored,
        derivation_conflicts=conflicts,
        proposals=len(proposed) + sum(rejections.values()) - provider_invalid,
        provider_invalid=provider_invalid,
        admitted=len(selection.admitted),
        categories=work.tally.categories,
        coverage=distillation.coverage,
        direct_proposed=sum(c.derivation is Derivation.DIRECT for c in proposed),
        direct_committed=work.tally.direct_committed,
        hypothesis_proposed=sum(c.derivation is Derivation.HYPOTHESIS for c in proposed),
        hypothesis_committed=work.tally.hypothesis_committed,
        attributed_redundancies=work.tally.redundant,
        rejected_provider_candidates=sum(rejections.values()),
    )
    work.audits.append(
        work.audit(
            AuditKind.SEGMENT_COMMITTED,
            _commit_key(ref, run_id),
            {"segment_index": ref.index, "report": result.model_dump_json()},
        )
    )
    uow.audits.record_many(work.audits)
    # A late segment's events are consolidated with it: no later round plans them again.
    # Only the runs it held: an event in one of its gaps may be waiting as late for a segment of its own.
    # Committed: no later step reads this segment's documents (a re-pass stages its own), so the
    # conversation text and candidates they hold leave the store with this transaction.
    uow.staged.delete(ref.owner, ref.segment_key)
    # A piece settles its event only when it is the event's last.
    if ref.last_piece:
        for first, last in ref.held_runs():
            uow.events.settle_late(ref.owner, ref.session_id, first, last)
    return result
