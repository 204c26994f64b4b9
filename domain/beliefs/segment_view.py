"""The segment-local belief view a commit reads and writes through (SegmentBeliefs), and belief ids.

A commit's rules look beliefs up by subject, by main verb and among the user's tombstones. The view
prefetches those lookups for the whole batch in a few set-based reads, answers each rule's lookup as the
store would at that point of the commit (the commit's own writes included), and writes back in one batched
upsert. Every read is an indexed lookup bounded by MATCH_POOL or TOMBSTONE_POOL, never a page through the
principal's memory."""

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from domain.beliefs.records import USER_CLOSED_REASONS, ClosedReason, MemoryRecord
from domain.formation.equivalence import match_keys
from domain.formation.merging import ClaimMatcher
from domain.formation.segments import SegmentRef
from domain.owner import Owner
from domain.ports import BeliefLookups, BeliefRepository, Tombstones, VerbEntry, VerbKey

# Bounds on the indexed lookups: how many same-verb beliefs a candidate is compared against, and how many
# tombstones; a principal's memory can be large, a commit must not be.
MATCH_POOL = 64
TOMBSTONE_POOL = 32
_BELIEF_NAMESPACE = uuid.UUID("5b0f6a52-4a77-4c0e-9a43-3f1f3d1f0b9e")


def belief_id(ref: SegmentRef, subject: str) -> UUID:
    """The first id of a subject's id chain: derived, so a replay of the same claim finds the same belief."""
    return uuid.uuid5(_BELIEF_NAMESPACE, f"{ref.tenant_id}/{ref.principal_id}/{subject}")


@dataclass
class _Pool:
    """A main-verb lookup read from the store: its first beliefs by id, and the last id it read up to (None
    when it read every one), so the beliefs at or below that id are known exactly."""

    members: list[UUID]
    boundary: UUID | None


class SegmentBeliefs:
    """The segment's view of the principal's beliefs.

    Prefetched with a few set-based reads (the batch's subjects, main verbs and tombstones, and the ids its
    new beliefs could take), it answers live_under_subject, matching_verb, user_closed and taken the way the store
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
        """Every lookup the batch will make, in one read of the store (BeliefRepository.look_up)."""
        wanted = BeliefLookups(
            subjects=self._unread_subjects(subjects),
            verb_keys=self._unread_pools(verb_keys),
            match_limit=MATCH_POOL,
            tombstone_subjects=[
                s for s in dict.fromkeys(tombstone_subjects) if s not in self._tombstones_by_subject
            ],
            tombstone_verbs=[v for v in dict.fromkeys(tombstone_verbs) if v not in self._tombstones_by_verb],
            tombstone_limit=TOMBSTONE_POOL,
            ids=self._unread_ids(ids),
        )
        if not (wanted.subjects or wanted.verb_keys or wanted.tombstone_subjects or wanted.tombstone_verbs):
            self._load_ids(wanted.ids)
            return
        self.flush()
        found = self._repo.look_up(self._owner, wanted)
        self._learn_subjects(wanted.subjects, found.live)
        self._learn_pools(wanted.verb_keys, found.entries)
        self._learn_tombstones(wanted.tombstone_subjects, wanted.tombstone_verbs, found.tombstones)
        self._learn_ids(wanted.ids, found.existing)

    def _learn(self, record: MemoryRecord) -> MemoryRecord:
        """A belief read from the store; what this commit wrote under its id stays the current state."""
        known = self._records.get(record.id)
        if known is not None:
            return known
        self._records[record.id] = record
        self._subject_index.setdefault(record.subject, {})[record.id] = None
        return record

    def _unread_subjects(self, subjects: Sequence[str]) -> list[str]:
        return [s for s in dict.fromkeys(subjects) if s not in self._subjects]

    def _load_subjects(self, subjects: Sequence[str]) -> None:
        wanted = self._unread_subjects(subjects)
        if not wanted:
            return
        self.flush()
        self._learn_subjects(wanted, self._repo.by_subjects(self._owner, wanted))

    def _learn_subjects(self, wanted: Sequence[str], found: Sequence[MemoryRecord]) -> None:
        for record in found:
            self._learn(record)
        self._subjects.update(wanted)

    def _unread_pools(self, keys: Sequence[VerbKey], *, again: bool = False) -> list[VerbKey]:
        return [k for k in dict.fromkeys(keys) if again or k not in self._pools]

    def _load_pools(self, keys: Sequence[VerbKey], *, again: bool = False) -> None:
        wanted = self._unread_pools(keys, again=again)
        if not wanted:
            return
        self.flush()
        self._learn_pools(wanted, self._repo.verb_entries(self._owner, wanted, limit_per_key=MATCH_POOL))

    def _learn_pools(self, wanted: Sequence[VerbKey], found: dict[VerbKey, list[VerbEntry]]) -> None:
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
        self._learn_tombstones(subjects, verbs, found)

    def _learn_tombstones(self, subjects: Sequence[str], verbs: Sequence[str], found: Tombstones) -> None:
        for subject in subjects:
            self._tombstones_by_subject[subject] = [
                self._learn(r).id for r in found.by_subject.get(subject, [])
            ]
        for verb in verbs:
            self._tombstones_by_verb[verb] = [self._learn(r).id for r in found.by_verb.get(verb, [])]

    def _unread_ids(self, ids: Sequence[UUID]) -> list[UUID]:
        return [i for i in dict.fromkeys(ids) if i not in self._checked_ids and i not in self._records]

    def _load_ids(self, ids: Sequence[UUID]) -> None:
        # No flush: an id this commit wrote is known to the view, every other one is as it was.
        wanted = self._unread_ids(ids)
        if wanted:
            self._learn_ids(wanted, self._repo.existing_ids(self._owner, wanted))

    def _learn_ids(self, wanted: Sequence[UUID], existing: set[UUID]) -> None:
        self._existing_ids |= existing
        self._checked_ids.update(wanted)

    def live_under_subject(self, subject: str) -> list[MemoryRecord]:
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

    def matching_verb(
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

    def user_closed(self, subject: str, verb: str | None, limit: int) -> list[MemoryRecord]:
        """What the store's closed_by_user(subjects=[subject], verbs=[verb] or [], limit) answers."""
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
