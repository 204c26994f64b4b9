"""Committing a segment: one short unit of work that turns staged stage outputs into beliefs.

Idempotent: a retried commit for the same run returns what the first one recorded, and a later pass over
the same source (a replay or a re-pass) reinforces rather than duplicates, because provenance is a set
and the evidence clock is a maximum over world time.

Bounded: every store read is an indexed lookup for the batch's few subjects and main verbs (plus the
user's tombstones under them), never a page through the principal's memory, so commit time does not grow
with the number of live beliefs. And few: the segment's lookups are read up front in a handful of set-based
queries into a segment-local view (_Beliefs) that answers each rule's lookup as the store would at that point,
the commit's own writes included; the writes reach the store in one batched upsert at the end."""

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt

from domain.beliefs.ranking import MAX_PROPOSALS_PER_CONSOLIDATION, select
from domain.beliefs.records import USER_CLOSED_REASONS, Authority, ClosedReason, MemoryRecord, SourceSpan
from domain.candidates import Derivation, Longevity, MemoryCandidate, Polarity, Sensitivity
from domain.episodes import IntegratedEpisode
from domain.events import COMMUNICATION_KINDS, EventRef, SourceEvent
from domain.formation.equivalence import match_keys, retraction_ends
from domain.formation.grounding import admitted_sources, span_rejection
from domain.formation.merging import ClaimMatcher, distinct_key, file_second_claims, merge_batch
from domain.formation.segments import SegmentRef
from domain.owner import Owner
from domain.policy.versions import LIFECYCLE
from domain.ports import BeliefRepository, EpisodePut, UnitOfWork, VerbEntry, VerbKey
from domain.staging import StagedKind
from domain.telemetry import AuditKind, AuditValue, CoverageDisposition, FormationAudit, ReasonCategory

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
RETRACTION_POOL = MAX_RETRACTION_TARGETS * 8
# An id is never reused: a new belief takes the first free id of its subject's chain.
ID_ATTEMPTS = 16
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


@dataclass
class _Pool:
    """A main-verb lookup read from the store: its first beliefs by id, and the last id it read up to (None
    when it read every one), so the beliefs at or below that id are known exactly."""

    members: list[UUID]
    boundary: UUID | None


class _Beliefs:
    """The segment's view of the principal's beliefs.

    Prefetched with a few set-based reads (the batch's subjects, main verbs and tombstones, and the ids its
    new beliefs could take), it answers by_subject, by_main_verb, closed_by_user and get the way the store
    would answer them at that point of the commit: the commit's own writes are applied to the view at once
    and reach the store in one batched upsert (flush). A lookup the prefetch cannot answer exactly (a key it
    did not read, or a verb lookup whose read beliefs this commit closed or reworded) flushes and reads the
    store again.

    A main-verb pool is read as VerbEntry values only (id, statement, stored lemmas, which also seed the
    claim matcher); the full record of a pool member is read (get_many) only once a lookup's caller keeps
    it, so a commit compares against hundreds of same-verb beliefs but loads the few that match."""

    def __init__(self, repository: BeliefRepository, owner: Owner, claims: ClaimMatcher) -> None:
        self._repo, self._owner, self._claims = repository, owner, claims
        # Every belief the view has read or written, current as of this commit's writes.
        self._records: dict[UUID, MemoryRecord] = {}
        # Pool members read as entries only, until a lookup keeps them (then they are in _records).
        self._entries: dict[UUID, VerbEntry] = {}
        self._subject_index: dict[str, dict[UUID, None]] = {}
        # Written by this commit: their lookup keys are the statement's own (the store recomputes them).
        self._changed: dict[UUID, None] = {}
        self._pending: dict[UUID, MemoryRecord] = {}
        self._subjects: set[str] = set()
        self._pools: dict[VerbKey, _Pool] = {}
        self._tombstones_by_subject: dict[str, list[UUID]] = {}
        self._tombstones_by_verb: dict[str, list[UUID]] = {}
        self._checked_ids: set[UUID] = set()
        self._existing_ids: set[UUID] = set()
        self._keys: dict[str, tuple[str | None, tuple[str, ...]]] = {}

    def match_keys(self, statement: str) -> tuple[str | None, tuple[str, ...]]:
        keys = self._keys.get(statement)
        if keys is None:
            keys = self._keys[statement] = match_keys(statement)
        return keys

    # --- reads -------------------------------------------------------------------------------------

    def prefetch(
        self,
        *,
        subjects: Sequence[str],
        verb_keys: Sequence[VerbKey],
        tombstone_subjects: Sequence[str],
        tombstone_verbs: Sequence[str],
        ids: Sequence[UUID],
    ) -> None:
        self._load_subjects(subjects)
        self._load_pools(verb_keys)
        self._load_tombstones(tombstone_subjects, tombstone_verbs)
        self._load_ids(ids)

    def _learn(self, record: MemoryRecord) -> MemoryRecord:
        """A belief read from the store; what this commit wrote under its id stays the current state."""
        known = self._records.get(record.id)
        if known is not None:
            return known
        self._records[record.id] = record
        self._subject_index.setdefault(record.subject, {})[record.id] = None
        return record

    def _load_subjects(self, subjects: Sequence[str]) -> None:
        wanted = [s for s in dict.fromkeys(subjects) if s not in self._subjects]
        if not wanted:
            return
        self.flush()
        for record in self._repo.by_subjects(self._owner, wanted):
            self._learn(record)
        self._subjects.update(wanted)

    def _load_pools(self, keys: Sequence[VerbKey], *, again: bool = False) -> None:
        wanted = [k for k in dict.fromkeys(keys) if again or k not in self._pools]
        if not wanted:
            return
        self.flush()
        found = self._repo.verb_entries(self._owner, wanted, limit_per_key=MATCH_POOL)
        for key in wanted:
            members = []
            for entry in found.get(key, []):
                if entry.id not in self._records:
                    self._entries[entry.id] = entry
                    self._claims.learn(entry.statement, entry.terms)
                members.append(entry.id)
            boundary = members[-1] if len(members) >= MATCH_POOL else None
            self._pools[key] = _Pool(members=members, boundary=boundary)

    def _load_tombstones(self, subjects: Sequence[str], verbs: Sequence[str]) -> None:
        subjects = [s for s in dict.fromkeys(subjects) if s not in self._tombstones_by_subject]
        verbs = [v for v in dict.fromkeys(verbs) if v not in self._tombstones_by_verb]
        if not subjects and not verbs:
            return
        self.flush()
        found = self._repo.closed_by_user_each(
            self._owner, subjects=subjects, verbs=verbs, limit_per_key=TOMBSTONE_POOL
        )
        for subject in subjects:
            self._tombstones_by_subject[subject] = [
                self._learn(r).id for r in found.by_subject.get(subject, [])
            ]
        for verb in verbs:
            self._tombstones_by_verb[verb] = [self._learn(r).id for r in found.by_verb.get(verb, [])]

    def _load_ids(self, ids: Sequence[UUID]) -> None:
        # No flush: an id this commit wrote is known to the view, every other one is as it was.
        wanted = [i for i in dict.fromkeys(ids) if i not in self._checked_ids and i not in self._records]
        if wanted:
            self._existing_ids |= self._repo.existing_ids(self._owner, wanted)
            self._checked_ids.update(wanted)

    def by_subject(self, subject: str) -> list[MemoryRecord]:
        """Live beliefs filed under subject, by id."""
        self._load_subjects([subject])
        found = (self._records[i] for i in self._subject_index.get(subject, {}))
        return sorted((r for r in found if r.is_live and r.subject == subject), key=lambda r: r.id)

    def _is_member(self, record: MemoryRecord, key: VerbKey) -> bool:
        verb, terms = self.match_keys(record.statement)
        return record.is_live and verb == key[0] and set(key[1]) <= set(terms)

    def _statement(self, belief_id: UUID) -> str:
        record = self._records.get(belief_id)
        return record.statement if record is not None else self._entries[belief_id].statement

    def by_main_verb(
        self,
        verb: str,
        containing: Sequence[str],
        limit: int,
        keep: Callable[[str], bool] | None = None,
    ) -> list[MemoryRecord]:
        """Live beliefs with main verb verb and every lemma of containing, by id, at most limit; with keep,
        only those of them whose statement keep accepts (the only ones whose full record is read)."""
        key: VerbKey = (verb, tuple(containing))
        self._load_pools([key])
        for attempt in range(2):
            pool = self._pools[key]
            members = [i for i in pool.members if i not in self._changed]
            members += [c for c in self._changed if self._is_member(self._records[c], key)]
            ordered = sorted(members)
            boundary = pool.boundary
            if boundary is not None:
                known = [i for i in ordered if i <= boundary]
                if len(known) < limit and not attempt:
                    # This commit closed or reworded some of the beliefs read: read the store again.
                    self._load_pools([key], again=True)
                    continue
                ordered = known
            chosen = ordered[: max(limit, 0)]
            if keep is not None:
                chosen = [i for i in chosen if keep(self._statement(i))]
            return self._full(chosen)
        raise AssertionError("unreachable")

    def _full(self, ids: list[UUID]) -> list[MemoryRecord]:
        """The records of ids, in order, reading those known only as entries in one query."""
        missing = [i for i in ids if i not in self._records]
        if missing:
            for record in self._repo.get_many(self._owner, missing):
                self._entries.pop(record.id, None)
                self._learn(record)
        return [self._records[i] for i in ids if i in self._records]

    def closed_by_user(self, subject: str, verb: str | None, limit: int) -> list[MemoryRecord]:
        """closed_by_user(subjects=[subject], verbs=[verb] or [], limit)."""
        verbs = [verb] if verb else []
        self._load_tombstones([subject], verbs)
        read = [
            *self._tombstones_by_subject[subject],
            *(i for v in verbs for i in self._tombstones_by_verb[v]),
        ]
        ids = dict.fromkeys(i for i in read if i not in self._changed)
        found = [self._records[i] for i in ids]
        for changed in self._changed:
            record = self._records[changed]
            if record.closed_reason in USER_CLOSED_REASONS and (
                record.subject == subject or (verb and self.match_keys(record.statement)[0] == verb)
            ):
                found.append(record)
        found.sort(key=lambda r: (r.valid_to, r.id), reverse=True)
        return found[: max(limit, 0)]

    def taken(self, ids: Sequence[UUID]) -> set[UUID]:
        """The ids among ids that name one of the owner's beliefs, live or closed, this commit's included."""
        self._load_ids(ids)
        return {i for i in ids if i in self._records or i in self._existing_ids}

    # --- writes ------------------------------------------------------------------------------------

    def put(self, record: MemoryRecord) -> None:
        previous = self._records.get(record.id)
        if previous is not None and previous.subject != record.subject:
            self._subject_index.get(previous.subject, {}).pop(record.id, None)
        self._records[record.id] = record
        self._subject_index.setdefault(record.subject, {})[record.id] = None
        self._changed[record.id] = None
        self._pending[record.id] = record

    def close(self, belief_id: UUID, at: datetime, reason: ClosedReason) -> MemoryRecord | None:
        """close_validity: None when unknown or already closed (never closes twice)."""
        current = self._records.get(belief_id)
        if current is None or not current.is_live:
            return None
        closed = current.closed(at, reason)
        self.put(closed)
        return closed

    def flush(self) -> None:
        if self._pending:
            self._repo.upsert_many(list(self._pending.values()))
            self._pending.clear()


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
        self.claims = ClaimMatcher()
        self.beliefs = _Beliefs(uow.beliefs, ref.owner, self.claims)
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
        found = self._fresh(self.beliefs.by_subject(subject))
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
        found = self._fresh(self.beliefs.by_main_verb(verb, containing, limit, keep))
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
        verb, content = self.beliefs.match_keys(candidate.statement)
        targets = sorted(
            (
                b
                for b in self.same_verb(verb, content, lambda s: retraction_ends(candidate.statement, s))
                if retraction_ends(candidate.statement, b.statement)
            ),
            key=lambda b: b.id,
        )[:MAX_RETRACTION_TARGETS]
        if not targets:
            self.tally.add(ReasonCategory.SKIPPED_UNMATCHED_RETRACTION)
            return
        _, corrected_at = self.evidence(candidate)
        for belief in targets:
            # The user's own correction is a tombstone dated when the user said it: older evidence replayed
            # later cannot recreate the belief, and a restatement made after the correction still can.
            closed = self.beliefs.close(
                belief.id, max(corrected_at, belief.valid_from), ClosedReason.RETRACTED
            )
            if closed is not None:
                self.touched[closed.id] = closed
        self.tally.add(ReasonCategory.SUPERSEDED)

    # --- assertion ---------------------------------------------------------------------------------

    def forbidden_by_user(self, candidate: MemoryCandidate, evidence_at: datetime) -> bool:
        """A user's rejection, deletion, edit or correction forbids the claim unless the user has said it
        again since: only evidence later than the tombstone may form it anew."""
        verb, _ = self.beliefs.match_keys(candidate.statement)
        tombstones = self.beliefs.closed_by_user(candidate.subject, verb, TOMBSTONE_POOL)
        tombstones += [b for b in self.touched.values() if b.closed_reason is ClosedReason.RETRACTED]
        return any(
            t.valid_to is not None
            and evidence_at <= t.valid_to
            and self.claims.same(t.statement, candidate.statement)
            for t in tombstones
        )

    def assert_claim(self, candidate: MemoryCandidate) -> None:
        refs, evidence_at = self.evidence(candidate)
        if self.forbidden_by_user(candidate, evidence_at):
            self.tally.add(ReasonCategory.REJECTED_CORRECTION)
            return
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
        self, candidate: MemoryCandidate, refs: tuple[EventRef, ...], evidence_at: datetime
    ) -> MemoryRecord:
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
            updated = self.supported(match, refs, self.spans(candidate), evidence_at)
            if updated.corroboration_count > match.corroboration_count:
                raised = min(HYPOTHESIS_CEILING, round(match.confidence + HYPOTHESIS_STEP, 4))
                updated = updated.model_copy(update={"confidence": max(match.confidence, raised)})
            category = ReasonCategory.REINFORCED
        else:
            updated = self.supported(match, refs, self.spans(candidate), evidence_at)
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

    def store_episodes(self, episodes: list[IntegratedEpisode]) -> tuple[int, int]:
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
        coverage={CoverageDisposition(k): int(v) for k, v in distillation.get("coverage", {}).items()},
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
    return result
