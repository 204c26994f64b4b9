"""In-memory repositories: the design's second store, held to the same contract as PostgreSQL."""

import copy
import threading
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from itertools import islice
from types import TracebackType
from typing import Any, Self
from uuid import UUID

import numpy as np
from numpy.typing import NDArray

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
    expiry_facts,
)
from domain.beliefs.records import USER_CLOSED_REASONS, ClosedReason, MemoryRecord
from domain.beliefs.relevance import MATCHES_PER_TERM, Match, SearchedTerm, held_terms, term_weight
from domain.beliefs.retrieval import RankingInputs, ranking_inputs
from domain.beliefs.sweep import sweep_page_by_facts
from domain.candidates import Sensitivity
from domain.episodes import IntegratedEpisode
from domain.errors import EventConflict
from domain.events import EventRef, SourceEvent
from domain.formation.equivalence import match_keys
from domain.formation.segments import SegmentRef
from domain.owner import Owner
from domain.policy.alternatives import FormationChoice
from domain.ports import (
    ALL_SENSITIVITIES,
    AppendResult,
    BeliefLookups,
    EpisodePut,
    ErasureCounts,
    EventFacts,
    LookedUp,
    SegmentReads,
    Tombstones,
    VerbEntry,
    VerbKey,
    look_up_each,
    segment_reads_each,
)
from domain.staging import StagedKind, StagedOutput
from domain.telemetry import AuditKind, ConsolidationRun, FormationAudit

OwnerKey = tuple[str, str]


def _key(owner: Owner) -> OwnerKey:
    return (owner.tenant_id, owner.principal_id)


@dataclass
class MemoryState:
    events: dict[tuple[str, str, UUID, int], SourceEvent] = field(default_factory=dict)
    # The keys of late events not consolidated yet (a dict, so a unit of work copies it like the others).
    late: dict[tuple[str, str, UUID, int], None] = field(default_factory=dict)
    # When each event was stored, on this process's clock (the store is the server here).
    received: dict[tuple[str, str, UUID, int], datetime] = field(default_factory=dict)
    episodes: dict[UUID, IntegratedEpisode] = field(default_factory=dict)
    beliefs: dict[UUID, MemoryRecord] = field(default_factory=dict)
    watermarks: dict[tuple[str, str, UUID], int] = field(default_factory=dict)
    runs: dict[UUID, ConsolidationRun] = field(default_factory=dict)
    audits: dict[tuple[str, str, str], FormationAudit] = field(default_factory=dict)
    staged: dict[tuple[str, str, str, StagedKind], StagedOutput] = field(default_factory=dict)
    staged_at: dict[tuple[str, str, str, StagedKind], datetime] = field(default_factory=dict)
    formation_choices: dict[OwnerKey, FormationChoice] = field(default_factory=dict)
    # A belief's vector beside it, as PostgreSQL keeps it: (model, unit vector); dropped when its text changes.
    embeddings: dict[UUID, tuple[str, NDArray[np.float32]]] = field(default_factory=dict)


class _Repo:
    def __init__(self, state: MemoryState) -> None:
        self._s = state


class InMemorySourceEvents(_Repo):
    def __init__(self, state: MemoryState, clock: Callable[[], datetime]) -> None:
        super().__init__(state)
        self._clock = clock

    @property
    def accepts_late(self) -> bool:
        return True

    def append(self, events: Sequence[SourceEvent], *, late: bool = False) -> AppendResult:
        appended = present = 0
        for event in events:
            key = (event.tenant_id, event.principal_id, event.session_id, event.seq)
            stored = self._s.events.get(key)
            if stored is None:
                self._s.events[key] = event
                self._s.received[key] = self._clock()
                if late:
                    self._s.late[key] = None
                appended += 1
            elif stored.text != event.text or stored.kind != event.kind:
                raise EventConflict(f"seq {event.seq} already holds a different event")
            else:
                present += 1
        return AppendResult(appended=appended, already_present=present)

    def _session(self, owner: Owner, session_id: UUID) -> list[SourceEvent]:
        return sorted(
            (e for (t, p, s, _), e in self._s.events.items() if (t, p) == _key(owner) and s == session_id),
            key=lambda e: e.seq,
        )

    def read_range(self, owner: Owner, session_id: UUID, after_seq: int, limit: int) -> list[SourceEvent]:
        return [e for e in self._session(owner, session_id) if e.seq > after_seq][:limit]

    def received_at(self, owner: Owner, session_id: UUID, seqs: Sequence[int]) -> dict[int, datetime]:
        keys = ((*_key(owner), session_id, seq) for seq in seqs)
        return {key[3]: self._s.received[key] for key in keys if key in self._s.received}

    def late_pending(self, owner: Owner, session_id: UUID, limit: int) -> list[SourceEvent]:
        keys = sorted(k for k in self._s.late if k[:3] == (*_key(owner), session_id))
        return [self._s.events[k] for k in keys[: max(limit, 0)]]

    def settle_late(self, owner: Owner, session_id: UUID, first_seq: int, last_seq: int) -> int:
        settled = [
            k for k in self._s.late if k[:3] == (*_key(owner), session_id) and first_seq <= k[3] <= last_seq
        ]
        for k in settled:
            del self._s.late[k]
        return len(settled)

    def mark_late(self, owner: Owner, session_id: UUID, ranges: Sequence[tuple[int, int]]) -> int:
        keys = [
            (*_key(owner), session_id, e.seq)
            for e in self._session(owner, session_id)
            if any(first <= e.seq <= last for first, last in ranges)
        ]
        flagged = [k for k in keys if k not in self._s.late]
        for k in flagged:
            self._s.late[k] = None
        return len(flagged)

    def read_before(self, owner: Owner, session_id: UUID, before_seq: int, limit: int) -> list[SourceEvent]:
        earlier = [e for e in self._session(owner, session_id) if e.seq < before_seq]
        return earlier[-limit:] if limit > 0 else []

    def page(self, owner: Owner, after: EventRef | None, limit: int) -> list[SourceEvent]:
        start = (-1, -1) if after is None else (after.session_id.int, after.seq)
        owned = sorted(
            (e for (t, p, _, _), e in self._s.events.items() if (t, p) == _key(owner)),
            key=lambda e: (e.session_id.int, e.seq),
        )
        return [e for e in owned if (e.session_id.int, e.seq) > start][: max(limit, 0)]

    def facts(self, owner: Owner, refs: Sequence[EventRef]) -> list[EventFacts]:
        found = (
            self._s.events.get((*_key(owner), r.session_id, r.seq))
            for r in {(r.session_id, r.seq): r for r in refs}.values()
        )
        return sorted(
            (EventFacts(e.session_id, e.seq, e.kind, e.occurred_at) for e in found if e is not None),
            key=lambda f: (f.session_id, f.seq),
        )


class InMemoryEpisodes(_Repo):
    def put(self, episode: IntegratedEpisode) -> EpisodePut:
        owner = Owner(tenant_id=episode.tenant_id, principal_id=episode.principal_id)
        stored = self.get_by_derivation(owner, episode.derivation_key)
        if stored is None:
            self._s.episodes[episode.id] = episode
            return EpisodePut.STORED
        return EpisodePut.UNCHANGED if stored.same_content(episode) else EpisodePut.DERIVATION_CONFLICT

    def get(self, owner: Owner, episode_id: UUID) -> IntegratedEpisode | None:
        episode = self._s.episodes.get(episode_id)
        return episode if episode and (episode.tenant_id, episode.principal_id) == _key(owner) else None

    def get_by_derivation(self, owner: Owner, derivation_key: str) -> IntegratedEpisode | None:
        return next(
            (
                e
                for e in self._s.episodes.values()
                if (e.tenant_id, e.principal_id) == _key(owner) and e.derivation_key == derivation_key
            ),
            None,
        )

    def for_session(self, owner: Owner, session_id: UUID) -> list[IntegratedEpisode]:
        found = [
            e
            for e in self._s.episodes.values()
            if (e.tenant_id, e.principal_id) == _key(owner) and e.session_id == session_id
        ]
        return sorted(found, key=lambda e: (e.source_event_ids[0], str(e.id)))

    def delete_for_session(self, owner: Owner, session_id: UUID) -> int:
        doomed = [e.id for e in self.for_session(owner, session_id)]
        for episode_id in doomed:
            del self._s.episodes[episode_id]
        return len(doomed)


class InMemoryBeliefs(_Repo):
    def _owned(self, owner: Owner) -> list[MemoryRecord]:
        return [b for b in self._s.beliefs.values() if (b.tenant_id, b.principal_id) == _key(owner)]

    def get(self, owner: Owner, belief_id: UUID) -> MemoryRecord | None:
        belief = self._s.beliefs.get(belief_id)
        return belief if belief and (belief.tenant_id, belief.principal_id) == _key(owner) else None

    def in_id_range(self, owner: Owner, first: UUID, last: UUID, limit: int) -> list[MemoryRecord]:
        found = sorted(
            (
                b
                for b in self._s.beliefs.values()
                if (b.tenant_id, b.principal_id) == _key(owner) and first <= b.id <= last
            ),
            key=lambda b: b.id,
        )
        return found[: max(limit, 0)]

    def page(
        self, owner: Owner, after_id: UUID | None, limit: int, *, live_only: bool = True
    ) -> list[MemoryRecord]:
        rows = sorted(
            (
                b
                for b in self._owned(owner)
                if (b.is_live or not live_only) and (after_id is None or b.id > after_id)
            ),
            key=lambda b: b.id,
        )
        return rows[:limit]

    def ranking_page(
        self,
        owner: Owner,
        after_id: UUID | None,
        limit: int,
        sensitivities: Collection[Sensitivity] = ALL_SENSITIVITIES,
    ) -> list[RankingInputs]:
        rows = sorted(
            (
                b
                for b in self._owned(owner)
                if b.is_live and b.sensitivity in sensitivities and (after_id is None or b.id > after_id)
            ),
            key=lambda b: b.id,
        )
        return [ranking_inputs(b) for b in rows[: max(limit, 0)]]

    def matching(
        self,
        owner: Owner,
        terms: Sequence[SearchedTerm],
        limit: int,
        sensitivities: Collection[Sensitivity],
        *,
        bounded: bool = True,
    ) -> list[Match]:
        words = [term.words for term in terms]
        related = [term.relatives for term in terms]
        # per belief: the terms it holds directly, the terms it holds through a relative
        held = [
            (held_terms(words, b.subject, b.statement), held_terms(related, b.subject, b.statement), b)
            for b in sorted(self._owned(owner), key=lambda b: b.id)
            if b.is_live and b.sensitivity in sensitivities
        ]
        # bounded, each term's words and its relatives are read apart, at most MATCHES_PER_TERM holders each
        # (here the first by id), as PostgreSQL does, so the holders of a common relative cannot crowd out
        # those of the word itself; a sample is cut when at least that many of the matches read hold it
        per_sample = MATCHES_PER_TERM if bounded else None
        read = {
            b.id
            for i in range(len(terms))
            for side in (0, 1)
            for *_, b in islice((entry for entry in held if i in entry[side]), per_sample)
        }
        matched = [entry for entry in held if entry[2].id in read]
        direct_cut = _cut(Counter(i for directly, _, _ in matched for i in directly), bounded)
        related_cut = _cut(Counter(i for _, through, _ in matched for i in through), bounded)

        def by_bound(directly: frozenset[int], through: frozenset[int]) -> bool:
            return all(i in direct_cut if i in directly else i in related_cut for i in directly | through)

        flagged = [by_bound(directly, through) for directly, through, _ in matched]
        if bounded and matched and all(flagged):
            # recall would read every holder again: read them here instead, as PostgreSQL does
            matched = [entry for entry in held if entry[0] | entry[1]]
            flagged = [False] * len(matched)
        holding = Counter(i for directly, through, _ in matched for i in directly | through)
        weights = {i: term_weight(len(matched), n) for i, n in holding.items()}
        ranked = sorted(
            (
                Match(
                    ranking_inputs(b),
                    len(directly | through),
                    len(directly),
                    sum(weights[i] for i in sorted(directly | through)),
                    b.subject,
                    b.statement,
                    bound,
                )
                for (directly, through, b), bound in zip(matched, flagged, strict=True)
            ),
            key=lambda m: (
                -m.coverage,
                -m.direct,
                -m.weight,
                -m.inputs.last_evidence_at.timestamp(),
                m.inputs.id,
            ),
        )
        return ranked[: max(limit, 0)]

    def most_recent(
        self, owner: Owner, limit: int, sensitivities: Collection[Sensitivity]
    ) -> list[MemoryRecord]:
        wanted = set(sensitivities)
        rows = sorted(
            (b for b in self._owned(owner) if b.is_live and b.sensitivity in wanted),
            key=lambda b: (b.updated_at, b.id),
            reverse=True,
        )
        return rows[: max(limit, 0)]

    def get_many(self, owner: Owner, ids: Sequence[UUID]) -> list[MemoryRecord]:
        found = (self.get(owner, i) for i in set(ids))
        return sorted((b for b in found if b is not None), key=lambda b: b.id)

    def by_subjects(self, owner: Owner, subjects: Sequence[str]) -> list[MemoryRecord]:
        wanted = set(subjects)
        return sorted(
            (b for b in self._owned(owner) if b.is_live and b.subject in wanted), key=lambda b: b.id
        )

    def verb_entries(
        self, owner: Owner, keys: Sequence[VerbKey], *, limit_per_key: int
    ) -> dict[VerbKey, list[VerbEntry]]:
        return {
            (verb, tuple(containing)): [
                VerbEntry(b.id, b.statement, match_keys(b.statement)[1])
                for b in self._by_main_verb(owner, verb, containing, limit_per_key)
            ]
            for verb, containing in keys
        }

    def _by_main_verb(
        self, owner: Owner, verb: str, containing: Sequence[str], limit: int
    ) -> list[MemoryRecord]:
        found = []
        for belief in sorted(self._owned(owner), key=lambda b: b.id):
            if not belief.is_live:
                continue
            belief_verb, belief_terms = match_keys(belief.statement)
            if belief_verb == verb and set(containing) <= set(belief_terms):
                found.append(belief)
        return found[: max(limit, 0)]

    def closed_by_user_each(
        self, owner: Owner, *, subjects: Sequence[str], verbs: Sequence[str], limit_per_key: int
    ) -> Tombstones:
        return Tombstones(
            by_subject={
                s: self._closed_by_user(owner, subjects=[s], verbs=[], limit=limit_per_key) for s in subjects
            },
            by_verb={
                v: self._closed_by_user(owner, subjects=[], verbs=[v], limit=limit_per_key) for v in verbs
            },
        )

    def _closed_by_user(
        self, owner: Owner, *, subjects: Sequence[str], verbs: Sequence[str], limit: int
    ) -> list[MemoryRecord]:
        found = [
            b
            for b in self._owned(owner)
            if b.closed_reason in USER_CLOSED_REASONS
            and (b.subject in subjects or match_keys(b.statement)[0] in verbs)
        ]
        found.sort(key=lambda b: (b.valid_to, b.id), reverse=True)
        return found[: max(limit, 0)]

    def existing_ids(self, owner: Owner, ids: Sequence[UUID]) -> set[UUID]:
        return {i for i in ids if self.get(owner, i) is not None}

    def look_up(self, owner: Owner, wanted: BeliefLookups) -> LookedUp:
        return look_up_each(self, owner, wanted)

    def upsert(self, record: MemoryRecord) -> None:
        before = self._s.beliefs.get(record.id)
        if before is None or (before.subject, before.statement) != (record.subject, record.statement):
            self._s.embeddings.pop(record.id, None)
        self._s.beliefs[record.id] = record

    def nearest(
        self,
        owner: Owner,
        model: str,
        vector: Sequence[float],
        limit: int,
        sensitivities: Collection[Sensitivity],
    ) -> list[Neighbour]:
        found = [
            (b, self._s.embeddings[b.id][1])
            for b in sorted(self._owned(owner), key=lambda b: b.id)
            if b.is_live
            and b.sensitivity in sensitivities
            and self._s.embeddings.get(b.id, ("", None))[0] == model
        ]
        if not found or limit <= 0:
            return []
        similarity = np.stack([v for _, v in found]) @ np.asarray(vector, dtype=np.float32)
        # a stable sort of the id-ordered rows: equal similarities stay in id order
        order = np.argsort(-similarity, kind="stable")[:limit]
        return [Neighbour(ranking_inputs(found[i][0]), float(similarity[i])) for i in order]

    def pending_embeddings(
        self, model: str, after_id: UUID | None, limit: int, owner: Owner | None = None
    ) -> list[PendingEmbedding]:
        rows = sorted(
            (
                b
                for b in (self._owned(owner) if owner else self._s.beliefs.values())
                if b.is_live
                and (after_id is None or b.id > after_id)
                and self._s.embeddings.get(b.id, ("", None))[0] != model
            ),
            key=lambda b: b.id,
        )
        return [
            PendingEmbedding(
                b.id, Owner(tenant_id=b.tenant_id, principal_id=b.principal_id), b.subject, b.statement
            )
            for b in rows[: max(limit, 0)]
        ]

    def store_embeddings(
        self, model: str, embedded: Sequence[tuple[PendingEmbedding, Sequence[float]]]
    ) -> int:
        stored = 0
        for work, vector in embedded:
            belief = self._s.beliefs.get(work.id)
            if (
                belief
                and belief.is_live
                and (belief.subject, belief.statement) == (work.subject, work.statement)
            ):
                self._s.embeddings[work.id] = (model, np.asarray(vector, dtype=np.float32))
                stored += 1
        return stored

    def upsert_many(self, records: Sequence[MemoryRecord]) -> None:
        for record in records:
            self.upsert(record)

    def close_validity(
        self, owner: Owner, belief_id: UUID, at: datetime, reason: ClosedReason
    ) -> MemoryRecord | None:
        belief = self.get(owner, belief_id)
        if belief is None or not belief.is_live:
            return None
        closed = belief.closed(at, reason)
        self._s.beliefs[belief_id] = closed
        return closed

    def expiry_candidates(
        self, cutoffs: ExpiryCutoffs, after: ExpiryCursor | None, limit: int, lane: SweepLane = WHOLE_ID_SPACE
    ) -> list[ExpiryFacts]:
        after_key = (after.last_evidence_at, after.id) if after else None
        found = sorted(
            (
                facts
                for facts in map(_expiry_facts, self._s.beliefs.values())
                if facts is not None
                and lane.holds(facts.id)
                and (after_key is None or (facts.last_evidence_at, facts.id) > after_key)
                and cutoffs.expired(facts)
            ),
            key=lambda f: (f.last_evidence_at, f.id),
        )
        return found[: max(limit, 0)]

    def retire(self, retirements: Sequence[Retirement]) -> list[Retirement]:
        done: list[Retirement] = []
        for retirement in retirements:
            stored = self._s.beliefs.get(retirement.facts.id)
            if stored is None or _expiry_facts(stored) != retirement.facts:
                continue
            self._s.beliefs[stored.id] = stored.closed(retirement.valid_to, retirement.reason)
            done.append(retirement)
        return done

    def record_usage(self, owner: Owner, belief_id: UUID, usage: UsageUpdate, at: datetime) -> bool:
        belief = self.get(owner, belief_id)
        if belief is None or not belief.is_live:
            return False
        self._s.beliefs[belief_id] = belief.model_copy(
            update={
                "utility": usage.next_utility(belief.utility),
                "last_used_at": usage.next_last_used(belief.last_used_at),
            }
        )
        return True


def _cut(holding: Counter[int], bounded: bool) -> set[int]:
    """The terms whose sample reached the bound: at least MATCHES_PER_TERM of the matches read hold it."""
    return {i for i, n in holding.items() if bounded and n >= MATCHES_PER_TERM}


def _expiry_facts(belief: MemoryRecord) -> ExpiryFacts | None:
    return expiry_facts(belief) if belief.is_live else None


class InMemoryWatermarks(_Repo):
    def get(self, owner: Owner, session_id: UUID) -> int:
        return self._s.watermarks.get((*_key(owner), session_id), 0)

    def compare_and_set(self, owner: Owner, session_id: UUID, expected: int, new: int) -> bool:
        if new <= expected or self.get(owner, session_id) != expected:
            return False
        self._s.watermarks[(*_key(owner), session_id)] = new
        return True


class InMemoryRuns(_Repo):
    def record(self, run: ConsolidationRun) -> bool:
        if run.id in self._s.runs:
            return False
        self._s.runs[run.id] = run
        return True

    def for_session(self, owner: Owner, session_id: UUID) -> list[ConsolidationRun]:
        found = [
            r
            for r in self._s.runs.values()
            if (r.tenant_id, r.principal_id) == _key(owner) and r.session_id == session_id
        ]
        return sorted(found, key=lambda r: (r.started_at, str(r.id)))


class InMemoryAudits(_Repo):
    def record(self, audit: FormationAudit) -> bool:
        key = (audit.tenant_id, audit.principal_id, audit.dedupe_key)
        if key in self._s.audits:
            return False
        self._s.audits[key] = audit
        return True

    def record_many(self, audits: Sequence[FormationAudit]) -> int:
        return sum(self.record(audit) for audit in audits)

    def for_owner(self, owner: Owner, kind: AuditKind | None = None) -> list[FormationAudit]:
        found = [
            a
            for (t, p, _), a in self._s.audits.items()
            if (t, p) == _key(owner) and (kind is None or a.kind == kind)
        ]
        return sorted(found, key=lambda a: (a.created_at, a.dedupe_key))

    def get(self, owner: Owner, dedupe_key: str) -> FormationAudit | None:
        return self._s.audits.get((*_key(owner), dedupe_key))


class InMemoryStaged(_Repo):
    def __init__(self, state: MemoryState, clock: Callable[[], datetime]) -> None:
        super().__init__(state)
        self._clock = clock

    def put(self, staged: StagedOutput) -> None:
        key = (staged.tenant_id, staged.principal_id, staged.segment_key, staged.stage)
        self._s.staged[key] = staged.model_copy(update={"document": copy.deepcopy(staged.document)})
        self._s.staged_at[key] = self._clock()

    def delete(self, owner: Owner, segment_key: str) -> int:
        doomed = [k for k in self._s.staged if k[:3] == (*_key(owner), segment_key)]
        return self._drop(doomed)

    def purge_stale(self, staged_before: datetime, limit: int) -> int:
        stale = [k for k, at in self._s.staged_at.items() if at < staged_before]
        return self._drop(stale[: max(limit, 0)])

    def _drop(self, keys: list[tuple[str, str, str, StagedKind]]) -> int:
        for k in keys:
            del self._s.staged[k]
            self._s.staged_at.pop(k, None)
        return len(keys)

    def get(self, owner: Owner, segment_key: str, stage: StagedKind) -> dict[str, Any] | None:
        staged = self._s.staged.get((*_key(owner), segment_key, stage))
        return copy.deepcopy(staged.document) if staged else None

    def get_all(self, owner: Owner, segment_key: str) -> dict[StagedKind, dict[str, Any]]:
        return {
            k[3]: copy.deepcopy(staged.document)
            for k, staged in self._s.staged.items()
            if k[:3] == (*_key(owner), segment_key)
        }


class InMemoryFormationChoices(_Repo):
    def get(self, owner: Owner) -> FormationChoice | None:
        return self._s.formation_choices.get(_key(owner))

    def put(self, choice: FormationChoice) -> None:
        self._s.formation_choices[_key(choice.owner)] = choice

    def clear(self, owner: Owner) -> bool:
        return self._s.formation_choices.pop(_key(owner), None) is not None


def _erase(state: MemoryState, keep: Callable[[str, str], bool]) -> ErasureCounts:
    def purge(table: dict[Any, Any], owner_of: Any) -> int:
        doomed = [k for k, v in table.items() if not keep(*owner_of(k, v))]
        for k in doomed:
            del table[k]
        return len(doomed)

    purge(state.late, lambda k, v: (k[0], k[1]))
    purge(state.formation_choices, lambda k, v: k)
    purge(state.staged_at, lambda k, v: (k[0], k[1]))
    counts = ErasureCounts(
        events=purge(state.events, lambda k, v: (k[0], k[1])),
        episodes=purge(state.episodes, lambda k, v: (v.tenant_id, v.principal_id)),
        beliefs=purge(state.beliefs, lambda k, v: (v.tenant_id, v.principal_id)),
        audits=purge(state.audits, lambda k, v: (k[0], k[1])),
        runs=purge(state.runs, lambda k, v: (v.tenant_id, v.principal_id)),
        staged=purge(state.staged, lambda k, v: (k[0], k[1])),
        watermarks=purge(state.watermarks, lambda k, v: (k[0], k[1])),
    )
    for erased in state.embeddings.keys() - state.beliefs.keys():  # a vector goes with its belief
        del state.embeddings[erased]
    return counts


def _snapshot(state: MemoryState) -> MemoryState:
    # Stored values are frozen, so copying the tables (not the values) isolates a unit of work.
    return MemoryState(**{f.name: dict(getattr(state, f.name)) for f in fields(state)})


class InMemoryStore:
    """Holds the committed state; each unit of work edits a private copy and swaps it in on commit."""

    def __init__(self, clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.state = MemoryState()
        self.lock = threading.Lock()
        # The "server's" clock: when an event is received (what a sequence gap's grace runs from).
        self.clock = clock

    def __call__(self) -> "InMemoryUnitOfWork":
        return InMemoryUnitOfWork(self)

    def autocommit(self) -> "InMemoryUnitOfWork":
        return _AutocommitUnitOfWork(self)


class InMemoryUnitOfWork:
    def __init__(self, store: InMemoryStore) -> None:
        self._store = store

    def __enter__(self) -> Self:
        self._store.lock.acquire()
        self._working = _snapshot(self._store.state)
        self.events = InMemorySourceEvents(self._working, self._store.clock)
        self.episodes = InMemoryEpisodes(self._working)
        self.beliefs = InMemoryBeliefs(self._working)
        self.watermarks = InMemoryWatermarks(self._working)
        self.runs = InMemoryRuns(self._working)
        self.audits = InMemoryAudits(self._working)
        self.staged = InMemoryStaged(self._working, self._store.clock)
        self.formation_choices = InMemoryFormationChoices(self._working)
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._store.lock.release()

    def commit(self) -> None:
        self._store.state = self._working
        self._working = _snapshot(self._working)
        self._rebind()

    def rollback(self) -> None:
        self._working = _snapshot(self._store.state)
        self._rebind()

    def serialize_principal(self, owner: Owner) -> None:
        """Already so: the store's one lock serializes every unit of work."""

    def segment_reads(self, ref: SegmentRef, dedupe_key: str) -> SegmentReads:
        return segment_reads_each(self, ref, dedupe_key)

    def _rebind(self) -> None:
        for repo in (
            self.events,
            self.episodes,
            self.beliefs,
            self.watermarks,
            self.runs,
            self.audits,
            self.staged,
            self.formation_choices,
        ):
            repo._s = self._working

    def retire_expired_page(
        self, now: datetime, after: ExpiryCursor | None, limit: int, lane: SweepLane = WHOLE_ID_SPACE
    ) -> SweepPage:
        return sweep_page_by_facts(self, now, after, limit, lane)

    def erase_principal(self, owner: Owner) -> ErasureCounts:
        return _erase(self._working, lambda t, p: (t, p) != _key(owner))

    def erase_tenant(self, tenant_id: str) -> ErasureCounts:
        return _erase(self._working, lambda t, p: t != tenant_id)


class _AutocommitUnitOfWork(InMemoryUnitOfWork):
    """Edits the committed state itself (under the store's lock, so no other unit of work sees it half
    done): every repository call is committed as it returns."""

    def __enter__(self) -> Self:
        super().__enter__()
        self._working = self._store.state
        self._rebind()
        return self

    def commit(self) -> None:
        """Each call was committed as it returned."""

    def rollback(self) -> None:
        """Nothing is pending."""
