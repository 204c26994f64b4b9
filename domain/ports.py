"""Ports: what the domain needs from storage. Adapters implement these; one contract suite tests them."""

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from types import TracebackType
from typing import Any, NamedTuple, Protocol, Self
from uuid import UUID

from domain.beliefs.embedding import Neighbour, PendingEmbedding
from domain.beliefs.lifecycle import (
    WHOLE_ID_SPACE,
    ExpiryCursor,
    ExpiryCutoffs,
    ExpiryFacts,
    Retirement,
    SweepLane,
    SweepPage,
    UsageUpdate,
)
from domain.beliefs.records import ClosedReason, MemoryRecord
from domain.beliefs.relevance import Match, SearchedTerm
from domain.beliefs.retrieval import RankingInputs
from domain.candidates import Sensitivity
from domain.episodes import IntegratedEpisode
from domain.events import EventRef, SourceEvent, SourceEventKind
from domain.formation.segments import SegmentRef, segment_events
from domain.owner import Owner
from domain.policy.alternatives import FormationChoice
from domain.staging import StagedKind, StagedOutput
from domain.telemetry import AuditKind, ConsolidationRun, FormationAudit

ALL_SENSITIVITIES: frozenset[Sensitivity] = frozenset(Sensitivity)


@dataclass(frozen=True)
class AppendResult:
    appended: int
    already_present: int


class EpisodePut(StrEnum):
    STORED = "stored"
    UNCHANGED = "unchanged"
    DERIVATION_CONFLICT = "derivation_conflict"


@dataclass(frozen=True)
class ErasureCounts:
    events: int
    episodes: int
    beliefs: int
    audits: int
    runs: int
    staged: int
    watermarks: int


class EventFacts(NamedTuple):
    """What provenance shows of a source event besides the cited span: never its text."""

    session_id: UUID
    seq: int
    kind: SourceEventKind
    occurred_at: datetime


class SourceEventRepository(Protocol):
    @property
    def accepts_late(self) -> bool:
        """Whether append can store late events (not on a database before the late-events revision)."""
        ...

    def append(self, events: Sequence[SourceEvent], *, late: bool = False) -> AppendResult:
        """Idempotent on (tenant, principal, session, seq); a different text raises EventConflict. late:
        the events arrive below their session's watermark and wait, flagged, for the next round (an event
        already stored keeps what it was); without accepts_late, late raises WrongSchemaRevision."""
        ...

    def read_range(self, owner: Owner, session_id: UUID, after_seq: int, limit: int) -> list[SourceEvent]:
        """Events with seq > after_seq in seq order, at most limit. UnreadableEvent names the first stored
        event in the page that no longer validates."""
        ...

    def received_at(self, owner: Owner, session_id: UUID, seqs: Sequence[int]) -> dict[int, datetime]:
        """When the store received each of the session's events among seqs, on the server's clock (a
        store from before it recorded that: none)."""
        ...

    def late_pending(self, owner: Owner, session_id: UUID, limit: int) -> list[SourceEvent]:
        """The session's late events not consolidated yet, in seq order, at most limit."""
        ...

    def settle_late(self, owner: Owner, session_id: UUID, first_seq: int, last_seq: int) -> int:
        """Clear the late flag of the session's events in [first_seq, last_seq] (their segment committed);
        how many were still flagged."""
        ...

    def mark_late(self, owner: Owner, session_id: UUID, ranges: Sequence[tuple[int, int]]) -> int:
        """Flag the session's stored events in the inclusive ranges late (the watermark passed them and no
        segment held them); how many were newly flagged. Without accepts_late, nothing is flagged."""
        ...

    def read_before(self, owner: Owner, session_id: UUID, before_seq: int, limit: int) -> list[SourceEvent]:
        """The latest events with seq < before_seq, at most limit, in seq order. Context only, so a stored
        event that no longer validates (quarantined, never consolidated) is left out."""
        ...

    def page(self, owner: Owner, after: EventRef | None, limit: int) -> list[SourceEvent]:
        """The owner's events of every session in (session_id, seq) order, strictly after ``after``, at most
        limit (a range of the primary key): how everything held about a principal is read out."""
        ...

    def facts(self, owner: Owner, refs: Sequence[EventRef]) -> list[EventFacts]:
        """The owner's events among refs as EventFacts, in (session_id, seq) order; unknown and foreign refs
        are left out (one indexed query, no text read)."""
        ...


class IntegratedEpisodeRepository(Protocol):
    def put(self, episode: IntegratedEpisode) -> EpisodePut: ...

    def get(self, owner: Owner, episode_id: UUID) -> IntegratedEpisode | None: ...

    def get_by_derivation(self, owner: Owner, derivation_key: str) -> IntegratedEpisode | None: ...

    def for_session(self, owner: Owner, session_id: UUID) -> list[IntegratedEpisode]: ...

    def delete_for_session(self, owner: Owner, session_id: UUID) -> int: ...


# A main-verb lookup: the verb, and the content lemmas every belief found must include.
VerbKey = tuple[str, tuple[str, ...]]


class VerbEntry(NamedTuple):
    """What a commit compares a candidate against, before it needs the belief itself: the id, the statement
    and its content lemmas as the store keeps them (equivalence.match_keys' terms)."""

    id: UUID
    statement: str
    terms: tuple[str, ...]


@dataclass(frozen=True)
class Tombstones:
    """The user's tombstones (BeliefRepository.closed_by_user_each) for each subject and each verb on its own."""

    by_subject: dict[str, list[MemoryRecord]]
    by_verb: dict[str, list[MemoryRecord]]


@dataclass(frozen=True)
class BeliefLookups:
    """A commit's belief reads asked at once (BeliefRepository.look_up): the live beliefs under subjects
    (by_subjects), each verb key's entries (verb_entries, at most match_limit each), the tombstones of
    tombstone_subjects and tombstone_verbs (closed_by_user_each, at most tombstone_limit each) and which of
    ids exist (existing_ids)."""

    subjects: Sequence[str] = ()
    verb_keys: Sequence[VerbKey] = ()
    match_limit: int = 0
    tombstone_subjects: Sequence[str] = ()
    tombstone_verbs: Sequence[str] = ()
    tombstone_limit: int = 0
    ids: Sequence[UUID] = ()


@dataclass(frozen=True)
class LookedUp:
    """BeliefRepository.look_up's answers, each as its own read answers it."""

    live: list[MemoryRecord]
    entries: dict[VerbKey, list[VerbEntry]]
    tombstones: Tombstones
    existing: set[UUID]


def look_up_each(repository: "BeliefRepository", owner: Owner, wanted: BeliefLookups) -> LookedUp:
    """BeliefRepository.look_up as its four reads, one after another."""
    return LookedUp(
        live=repository.by_subjects(owner, wanted.subjects),
        entries=repository.verb_entries(owner, wanted.verb_keys, limit_per_key=wanted.match_limit),
        tombstones=repository.closed_by_user_each(
            owner,
            subjects=wanted.tombstone_subjects,
            verbs=wanted.tombstone_verbs,
            limit_per_key=wanted.tombstone_limit,
        ),
        existing=repository.existing_ids(owner, wanted.ids),
    )


class BeliefRepository(Protocol):
    def get(self, owner: Owner, belief_id: UUID) -> MemoryRecord | None: ...

    def in_id_range(self, owner: Owner, first: UUID, last: UUID, limit: int) -> list[MemoryRecord]:
        """Owner's beliefs, live or closed, with first <= id <= last in id order, at most limit (one range
        of the primary key: how a short reference is resolved)."""
        ...

    def page(
        self, owner: Owner, after_id: UUID | None, limit: int, *, live_only: bool = True
    ) -> list[MemoryRecord]:
        """Owner's beliefs ordered by id, strictly after after_id."""
        ...

    def ranking_page(
        self,
        owner: Owner,
        after_id: UUID | None,
        limit: int,
        sensitivities: Collection[Sensitivity] = ALL_SENSITIVITIES,
    ) -> list[RankingInputs]:
        """The ranking inputs (domain.beliefs.retrieval.ranking_inputs) of the owner's live beliefs whose
        sensitivity is one of sensitivities, ordered by id, strictly after after_id, at most limit: bare
        values, never full records (one indexed query)."""
        ...

    def matching(
        self,
        owner: Owner,
        terms: Sequence[SearchedTerm],
        limit: int,
        sensitivities: Collection[Sensitivity],
        *,
        bounded: bool = True,
    ) -> list[Match]:
        """The owner's live beliefs whose sensitivity is one of sensitivities and whose subject or statement
        holds any word of any of terms (domain.beliefs.relevance.searched_terms: a term is held through its
        words, directly, or through its relatives). Bounded, each term's words and its relatives are sampled
        apart, at most domain.beliefs.relevance.MATCHES_PER_TERM holders each, so a relative held by many
        cannot crowd out the holders of the word itself; when every match read is by_bound, every holder is
        read instead, as unbounded. Each with its coverage, how many terms it holds directly, weight
        (domain.beliefs.relevance.term_weight over the matches read), subject, statement and by_bound
        (bounded, and every term it holds was held through a cut sample: domain.beliefs.relevance.Match),
        highest coverage first, then most held directly, then highest weight, then most recent evidence,
        then by id, at most limit (one query through the full-text index)."""
        ...

    def nearest(
        self,
        owner: Owner,
        model: str,
        vector: Sequence[float],
        limit: int,
        sensitivities: Collection[Sensitivity],
    ) -> list[Neighbour]:
        """The owner's live beliefs whose sensitivity is one of sensitivities and whose vector was made by
        model, most similar to vector (cosine) first, then by id: exactly limit of them whenever that many
        exist (never fewer because an index scan filtered the owner's rows out afterwards)."""
        ...

    def pending_embeddings(
        self, model: str, after_id: UUID | None, limit: int, owner: Owner | None = None
    ) -> list[PendingEmbedding]:
        """Live beliefs (of owner, or of every owner) with no vector of model (none at all, or another
        model's), ordered by id, strictly after after_id, at most limit."""
        ...

    def store_embeddings(
        self, model: str, embedded: Sequence[tuple[PendingEmbedding, Sequence[float]]]
    ) -> int:
        """Stores each vector, tagged with model, on its belief if the belief is still live and still says
        the subject and statement it was embedded from; returns how many were stored."""
        ...

    def most_recent(
        self, owner: Owner, limit: int, sensitivities: Collection[Sensitivity]
    ) -> list[MemoryRecord]:
        """The owner's live beliefs whose sensitivity is one of sensitivities, most recently updated first
        (updated_at descending, then id descending), at most limit: the anticipation and distillation cue
        pool, read as one bounded indexed query however many beliefs the owner holds."""
        ...

    def get_many(self, owner: Owner, ids: Sequence[UUID]) -> list[MemoryRecord]:
        """The owner's beliefs (live or closed) among ids, by id; unknown and foreign ids are left out
        (one indexed query)."""
        ...

    def by_subjects(self, owner: Owner, subjects: Sequence[str]) -> list[MemoryRecord]:
        """Live beliefs filed under any of a few subjects, by id (one indexed query)."""
        ...

    def verb_entries(
        self, owner: Owner, keys: Sequence[VerbKey], *, limit_per_key: int
    ) -> dict[VerbKey, list[VerbEntry]]:
        """For each (verb, containing) key, in one query: the live beliefs whose statement's main verb
        (equivalence.match_keys) is verb and whose content lemmas include every one of containing, by id, at
        most limit_per_key, each read as its VerbEntry only (no full rows); every key asked for maps to its
        own list. Full records are read afterwards (get_many) for the few that match."""
        ...

    def closed_by_user_each(
        self, owner: Owner, *, subjects: Sequence[str], verbs: Sequence[str], limit_per_key: int
    ) -> Tombstones:
        """Tombstones, in one query: for each subject alone and each verb alone, the beliefs closed for a
        USER_CLOSED_REASONS reason whose subject is that subject (or whose main verb is that verb), most
        recently closed first, at most limit_per_key; every subject and verb asked for maps to its own list."""
        ...

    def existing_ids(self, owner: Owner, ids: Sequence[UUID]) -> set[UUID]:
        """The ids among ids that name one of the owner's beliefs, live or closed (one indexed query)."""
        ...

    def look_up(self, owner: Owner, wanted: BeliefLookups) -> LookedUp:
        """by_subjects, verb_entries, closed_by_user_each and existing_ids for wanted, answered as each
        answers on its own (look_up_each), in one round trip where the store can."""
        ...

    def upsert(self, record: MemoryRecord) -> None: ...

    def upsert_many(self, records: Sequence[MemoryRecord]) -> None:
        """upsert() for every record in one round trip; when an id repeats, the last record wins."""
        ...

    def close_validity(
        self, owner: Owner, belief_id: UUID, at: datetime, reason: ClosedReason
    ) -> MemoryRecord | None:
        """Close a live belief; None when it is unknown or already closed (never closes twice)."""
        ...

    def expiry_candidates(
        self, cutoffs: ExpiryCutoffs, after: ExpiryCursor | None, limit: int, lane: SweepLane = WHOLE_ID_SPACE
    ) -> list[ExpiryFacts]:
        """Live beliefs of every owner whose id ``lane`` holds and that ``cutoffs.expired`` accepts, in
        (last_evidence_at, id) order strictly after ``after``, at most limit. Reads the expiry index range,
        never the whole table."""
        ...

    def retire(self, retirements: Sequence[Retirement]) -> list[Retirement]:
        """Close each belief with its retired_* reason, only while it is still live and its deciding facts
        are unchanged; returns the ones it closed (never closes twice)."""
        ...

    def record_usage(self, owner: Owner, belief_id: UUID, usage: UsageUpdate, at: datetime) -> bool:
        """Apply one run's usage to a live belief: utility and last_used_at only. False when not live."""
        ...


class WatermarkRepository(Protocol):
    def get(self, owner: Owner, session_id: UUID) -> int: ...

    def compare_and_set(self, owner: Owner, session_id: UUID, expected: int, new: int) -> bool:
        """Advance from expected to new; refuses a move that is not forward or not from expected."""
        ...


class ConsolidationRunRepository(Protocol):
    def record(self, run: ConsolidationRun) -> bool:
        """Idempotent on run id; True when newly recorded."""
        ...

    def for_session(self, owner: Owner, session_id: UUID) -> list[ConsolidationRun]: ...


class FormationAuditRepository(Protocol):
    def record(self, audit: FormationAudit) -> bool:
        """Idempotent on the owner's dedupe_key; True when newly recorded."""
        ...

    def record_many(self, audits: Sequence[FormationAudit]) -> int:
        """record() for many audits in one round trip; returns how many were newly recorded."""
        ...

    def for_owner(self, owner: Owner, kind: AuditKind | None = None) -> list[FormationAudit]: ...

    def get(self, owner: Owner, dedupe_key: str) -> FormationAudit | None:
        """The owner's audit recorded under dedupe_key (the unique key, so one indexed read)."""
        ...


class StagedOutputRepository(Protocol):
    def put(self, staged: StagedOutput) -> None:
        """Replaces an earlier output of the same segment and stage (a retried stage wins)."""
        ...

    def get(self, owner: Owner, segment_key: str, stage: StagedKind) -> dict[str, Any] | None: ...

    def get_all(self, owner: Owner, segment_key: str) -> dict[StagedKind, dict[str, Any]]:
        """Every stage's document of the segment, in one read (a stage that staged nothing is absent)."""
        ...

    def delete(self, owner: Owner, segment_key: str) -> int:
        """Remove every stage's document of the segment (it committed, or nothing will read it again);
        how many were removed."""
        ...

    def purge_stale(self, staged_before: datetime, limit: int) -> int:
        """Remove at most limit documents, of any owner, last staged before staged_before (left by a
        segment that never committed); how many were removed."""
        ...


class FormationChoiceRepository(Protocol):
    """One owner's chosen alternative memory tuple (ADR-0119), at most one per owner."""

    def get(self, owner: Owner) -> FormationChoice | None: ...

    def put(self, choice: FormationChoice) -> None:
        """Set or replace the owner's choice."""
        ...

    def clear(self, owner: Owner) -> bool:
        """Withdraw the owner's choice; False when there was none."""
        ...


class UnitOfWork(Protocol):
    """One short transaction over every repository; nothing is visible to others before commit."""

    # Read-only members, so an adapter may hold its own repository classes behind them.
    @property
    def events(self) -> SourceEventRepository: ...

    @property
    def episodes(self) -> IntegratedEpisodeRepository: ...

    @property
    def beliefs(self) -> BeliefRepository: ...

    @property
    def watermarks(self) -> WatermarkRepository: ...

    @property
    def runs(self) -> ConsolidationRunRepository: ...

    @property
    def audits(self) -> FormationAuditRepository: ...

    @property
    def staged(self) -> StagedOutputRepository: ...

    @property
    def formation_choices(self) -> FormationChoiceRepository: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None: ...

    def commit(self) -> None: ...

    def rollback(self) -> None: ...

    def serialize_principal(self, owner: Owner) -> None:
        """Wait for, then hold until this unit of work ends, the principal's commit lock: two commits of
        one principal (concurrent sessions) run one after the other, each seeing the other's beliefs."""
        ...

    def segment_reads(self, ref: SegmentRef, dedupe_key: str) -> "SegmentReads":
        """What a segment's commit reads after taking the principal's lock, in this transaction: the audit
        recorded under dedupe_key, the segment's staged documents and its events, answered as their own
        reads answer (segment_reads_each), in one round trip where the store can."""
        ...

    def retire_expired_page(
        self, now: datetime, after: ExpiryCursor | None, limit: int, lane: SweepLane = WHOLE_ID_SPACE
    ) -> SweepPage:
        """One retirement-sweep page of ``lane``'s ids in this transaction: the answers
        domain.beliefs.lifecycle.sweep_page_by_facts gives (which rows retire, reason, valid_to, one content-free
        memory.retired audit each), in whatever page order the store's cursor follows; at most limit rows
        examined; done when fewer were found."""
        ...

    def erase_principal(self, owner: Owner) -> ErasureCounts:
        """Remove everything derived from and about the principal, in this transaction."""
        ...

    def erase_tenant(self, tenant_id: str) -> ErasureCounts: ...


@dataclass(frozen=True)
class SegmentReads:
    """UnitOfWork.segment_reads' answers."""

    recorded: FormationAudit | None
    staged: dict[StagedKind, dict[str, Any]]
    events: list[SourceEvent]


def segment_reads_each(uow: UnitOfWork, ref: SegmentRef, dedupe_key: str) -> SegmentReads:
    """UnitOfWork.segment_reads as three reads, one after another."""
    return SegmentReads(
        recorded=uow.audits.get(ref.owner, dedupe_key),
        staged=uow.staged.get_all(ref.owner, ref.segment_key),
        events=segment_events(uow.events, ref),
    )


class UnitOfWorkFactory(Protocol):
    def __call__(self) -> UnitOfWork: ...

    def autocommit(self) -> UnitOfWork:
        """A unit of work whose every repository call is a transaction of its own: for reads that need no
        common transaction and for a single write, with no transaction to open and end around them (two round
        trips on PostgreSQL). A write is durable once its call returns; commit() and rollback() do nothing.
        Never for two writes that must land together, nor with serialize_principal."""
        ...
