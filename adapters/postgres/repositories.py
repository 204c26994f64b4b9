"""PostgreSQL repositories: every statement scoped by tenant and principal, rows translated by hand."""

import functools
import json
from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any, Final, Literal
from uuid import UUID

from sqlalchemy import Connection, Row, and_, case, delete, false, func, or_, select, text, tuple_, update
from sqlalchemy.dialects.postgresql import insert

from adapters.postgres.legacy import BACKFILL_LIFECYCLE_VERSION, LEGACY_DERIVATION, legacy_mapping
from adapters.postgres.tables import (
    USER_CLOSED_WHERE,
    beliefs,
    consolidation_runs,
    formation_audits,
    integrated_episodes,
    source_events,
    staged_outputs,
    watermarks,
)
from domain.beliefs.lifecycle import (
    DURABLE_HORIZON_DAYS,
    HYPOTHESIS_HORIZON,
    ONGOING_HORIZON,
    SWEEP_PAGE_SIZE,
    WHOLE_ID_SPACE,
    ExpiryCursor,
    ExpiryCutoffs,
    ExpiryFacts,
    Retirement,
    SweepLane,
    SweepPage,
    UsageUpdate,
    expires_at,
)
from domain.beliefs.records import USER_CLOSED_REASONS, Authority, ClosedReason, MemoryRecord
from domain.beliefs.retrieval import RankingInputs
from domain.candidates import ClaimKind, Derivation, Longevity, Sensitivity
from domain.episodes import IntegratedEpisode
from domain.errors import EventConflict
from domain.events import EventRef, SourceEvent, SourceEventKind
from domain.formation.equivalence import match_keys
from domain.owner import Owner
from domain.policy.versions import LIFECYCLE
from domain.ports import AppendResult, EpisodePut, Tombstones, VerbEntry, VerbKey
from domain.staging import StagedKind, StagedOutput
from domain.telemetry import (
    AuditKind,
    ConsolidationRun,
    CoverageDisposition,
    FormationAudit,
    ReasonCategory,
    RunOutcome,
    Stage,
    StageMetrics,
)


class _Repo:
    def __init__(self, connection: Connection) -> None:
        self._c = connection


def _owned(table: Any, owner: Owner) -> Any:
    return and_(table.c.tenant_id == owner.tenant_id, table.c.principal_id == owner.principal_id)


# --- source events ---------------------------------------------------------------------------------


# The primary key, in its order.
_EVENT_KEY = (
    source_events.c.tenant_id,
    source_events.c.principal_id,
    source_events.c.session_id,
    source_events.c.seq,
)
_EventKey = tuple[str, str, UUID, int]


def _event_key(event: SourceEvent) -> _EventKey:
    return (event.tenant_id, event.principal_id, event.session_id, event.seq)


# The stored kind and text under each offered key: the keys travel as four arrays and are joined to the
# primary key, so the read stays one index probe per key however many were offered.
_STORED_EVENTS = text(
    """
    SELECT s.tenant_id, s.principal_id, s.session_id, s.seq, s.kind, s.text
      FROM unnest(CAST(:tenants AS text[]), CAST(:principals AS text[]), CAST(:sessions AS uuid[]),
                  CAST(:seqs AS bigint[])) AS k(tenant_id, principal_id, session_id, seq)
      JOIN source_events AS s USING (tenant_id, principal_id, session_id, seq)
    """
)


def _event(row: Row[Any]) -> SourceEvent:
    return SourceEvent(
        tenant_id=row.tenant_id,
        principal_id=row.principal_id,
        session_id=row.session_id,
        seq=row.seq,
        kind=SourceEventKind(row.kind),
        text=row.text,
        occurred_at=row.occurred_at,
    )


class PostgresSourceEvents(_Repo):
    def append(self, events: Sequence[SourceEvent]) -> AppendResult:
        if not events:
            return AppendResult(appended=0, already_present=0)
        # A savepoint makes the append all-or-nothing even if the caller goes on to commit other work.
        savepoint = self._c.begin_nested()
        try:
            inserted = self._c.execute(
                insert(source_events)
                .values(
                    [
                        {
                            "tenant_id": e.tenant_id,
                            "principal_id": e.principal_id,
                            "session_id": e.session_id,
                            "seq": e.seq,
                            "kind": e.kind.value,
                            "text": e.text,
                            "occurred_at": e.occurred_at,
                        }
                        for e in events
                    ]
                )
                .on_conflict_do_nothing()
                .returning(*_EVENT_KEY)
            ).all()
            fresh = {tuple(row) for row in inserted}
            offered = {_event_key(e): e for e in events}
            present = {key: e for key, e in offered.items() if key not in fresh}
            if present:
                self._check_same(present)
        except BaseException:
            savepoint.rollback()
            raise
        savepoint.commit()
        return AppendResult(appended=len(fresh), already_present=len(events) - len(fresh))

    def _check_same(self, present: dict[_EventKey, SourceEvent]) -> None:
        """One read for every offered event already stored (a re-import is all of them), not one per event."""
        tenants, principals, sessions, seqs = (list(column) for column in zip(*present, strict=True))
        rows = self._c.execute(
            _STORED_EVENTS,
            {"tenants": tenants, "principals": principals, "sessions": sessions, "seqs": seqs},
        )
        stored = {(row.tenant_id, row.principal_id, row.session_id, row.seq): row for row in rows}
        for key, event in present.items():
            row = stored[key]
            if row.text != event.text or row.kind != event.kind.value:
                raise EventConflict(f"seq {event.seq} already holds a different event")

    def read_range(self, owner: Owner, session_id: UUID, after_seq: int, limit: int) -> list[SourceEvent]:
        rows = self._c.execute(
            select(source_events)
            .where(
                _owned(source_events, owner),
                source_events.c.session_id == session_id,
                source_events.c.seq > after_seq,
            )
            .order_by(source_events.c.seq)
            .limit(max(limit, 0))
        )
        return [_event(row) for row in rows]

    def read_before(self, owner: Owner, session_id: UUID, before_seq: int, limit: int) -> list[SourceEvent]:
        rows = self._c.execute(
            select(source_events)
            .where(
                _owned(source_events, owner),
                source_events.c.session_id == session_id,
                source_events.c.seq < before_seq,
            )
            .order_by(source_events.c.seq.desc())
            .limit(max(limit, 0))
        )
        return [_event(row) for row in reversed(rows.all())]

    def max_seq(self, owner: Owner, session_id: UUID) -> int:
        found = self._c.execute(
            select(source_events.c.seq)
            .where(_owned(source_events, owner), source_events.c.session_id == session_id)
            .order_by(source_events.c.seq.desc())
            .limit(1)
        ).scalar()
        return int(found or 0)


# --- integrated episodes ---------------------------------------------------------------------------


def _episode(row: Row[Any]) -> IntegratedEpisode:
    return IntegratedEpisode(
        id=row.id,
        tenant_id=row.tenant_id,
        principal_id=row.principal_id,
        session_id=row.session_id,
        source_event_ids=tuple(int(seq) for seq in row.source_event_ids),
        source_started_at=row.source_started_at,
        source_ended_at=row.source_ended_at,
        narrative=row.narrative,
        subjects=tuple(str(s) for s in row.subjects),
        integration_policy_version=row.integration_policy_version,
        derivation_key=row.derivation_key,
        created_at=row.created_at,
    )


class PostgresEpisodes(_Repo):
    def put(self, episode: IntegratedEpisode) -> EpisodePut:
        stored_id = self._c.execute(
            insert(integrated_episodes)
            .values(
                id=episode.id,
                tenant_id=episode.tenant_id,
                principal_id=episode.principal_id,
                session_id=episode.session_id,
                source_event_ids=list(episode.source_event_ids),
                source_started_at=episode.source_started_at,
                source_ended_at=episode.source_ended_at,
                narrative=episode.narrative,
                subjects=list(episode.subjects),
                integration_policy_version=episode.integration_policy_version,
                derivation_key=episode.derivation_key,
                created_at=episode.created_at,
            )
            .on_conflict_do_nothing()
            .returning(integrated_episodes.c.id)
        ).scalar()
        if stored_id is not None:
            return EpisodePut.STORED
        owner = Owner(tenant_id=episode.tenant_id, principal_id=episode.principal_id)
        stored = self.get_by_derivation(owner, episode.derivation_key)
        if stored is not None and stored.same_content(episode):
            return EpisodePut.UNCHANGED
        # Either different content under the key, or the id is taken by another episode: keep what is stored.
        return EpisodePut.DERIVATION_CONFLICT

    def get(self, owner: Owner, episode_id: UUID) -> IntegratedEpisode | None:
        row = self._c.execute(
            select(integrated_episodes).where(
                _owned(integrated_episodes, owner), integrated_episodes.c.id == episode_id
            )
        ).first()
        return _episode(row) if row else None

    def get_by_derivation(self, owner: Owner, derivation_key: str) -> IntegratedEpisode | None:
        row = self._c.execute(
            select(integrated_episodes).where(
                _owned(integrated_episodes, owner), integrated_episodes.c.derivation_key == derivation_key
            )
        ).first()
        return _episode(row) if row else None

    def for_session(self, owner: Owner, session_id: UUID) -> list[IntegratedEpisode]:
        rows = self._c.execute(
            select(integrated_episodes).where(
                _owned(integrated_episodes, owner), integrated_episodes.c.session_id == session_id
            )
        )
        return sorted((_episode(row) for row in rows), key=lambda e: (e.source_event_ids[0], str(e.id)))

    def delete_for_session(self, owner: Owner, session_id: UUID) -> int:
        result = self._c.execute(
            delete(integrated_episodes).where(
                _owned(integrated_episodes, owner), integrated_episodes.c.session_id == session_id
            )
        )
        return result.rowcount


# --- beliefs ---------------------------------------------------------------------------------------


def _belief(row: Row[Any]) -> MemoryRecord:
    # A row the backfill has not reached yet reads with the values the backfill will give it.
    claim_kind, longevity = legacy_mapping(row.belief_type)
    provenance = row.source_events if isinstance(row.source_events, list) else []
    return MemoryRecord(
        id=row.id,
        tenant_id=row.tenant_id,
        principal_id=row.principal_id,
        subject=row.subject,
        statement=row.statement,
        belief_type=row.belief_type,
        claim_kind=ClaimKind(row.claim_kind) if row.claim_kind else claim_kind,
        derivation=Derivation(row.derivation) if row.derivation else LEGACY_DERIVATION,
        longevity=Longevity(row.longevity) if row.longevity else longevity,
        confidence=row.confidence,
        sensitivity=Sensitivity(row.sensitivity),
        authority=Authority(row.authority),
        source_event_ids=tuple(
            EventRef(session_id=UUID(str(ref["session_id"])), seq=int(ref["seq"])) for ref in provenance
        ),
        formation_version=row.formation_version,
        lifecycle_policy_version=row.lifecycle_policy_version or BACKFILL_LIFECYCLE_VERSION,
        valid_from=row.valid_from,
        valid_to=row.valid_to,
        closed_reason=ClosedReason(row.closed_reason) if row.closed_reason else None,
        last_evidence_at=row.last_evidence_at or row.valid_from,
        last_used_at=row.last_used_at,
        last_reinforced_at=row.last_reinforced_at,
        evidence_count=row.evidence_count or max(1, len(provenance)),
        corroboration_count=row.corroboration_count,
        utility=row.utility,
        channel=row.channel,
        updated_at=row.updated_at
        or max(t for t in (row.valid_from, row.last_reinforced_at, row.valid_to) if t is not None),
        version=row.version,
    )


def _belief_row(
    record: MemoryRecord, *, with_match_keys: bool = True, with_expires_at: bool = True
) -> dict[str, Any]:
    keys: dict[str, Any] = {}
    if with_match_keys:
        verb, terms = match_keys(record.statement)
        keys = {"main_verb": verb[:64] if verb else None, "terms": list(terms)}
    if with_expires_at:
        keys["expires_at"] = expires_at(record)
    return {
        **keys,
        "id": record.id,
        "tenant_id": record.tenant_id,
        "principal_id": record.principal_id,
        "belief_type": record.belief_type,
        "statement": record.statement,
        "subject": record.subject,
        "confidence": record.confidence,
        "source_events": [{"session_id": str(r.session_id), "seq": r.seq} for r in record.source_event_ids],
        "valid_from": record.valid_from,
        "valid_to": record.valid_to,
        "closed_reason": record.closed_reason.value if record.closed_reason else None,
        "last_reinforced_at": record.last_reinforced_at,
        "corroboration_count": record.corroboration_count,
        "formation_version": record.formation_version,
        "claim_kind": record.claim_kind.value,
        "derivation": record.derivation.value,
        "longevity": record.longevity.value,
        "last_evidence_at": record.last_evidence_at,
        "last_used_at": record.last_used_at,
        "evidence_count": record.evidence_count,
        "lifecycle_policy_version": record.lifecycle_policy_version,
        "sensitivity": record.sensitivity.value,
        "authority": record.authority.value,
        "utility": record.utility,
        "channel": record.channel,
        "updated_at": record.updated_at,
        "version": record.version,
    }


def _stored_columns(with_match_keys: bool, with_expires_at: bool) -> list[Any]:
    absent = set() if with_match_keys else {"main_verb", "terms"}
    if not with_expires_at:
        absent.add("expires_at")
    return [c for c in beliefs.c if c.name not in absent]


class PostgresBeliefs(_Repo):
    def __init__(
        self, connection: Connection, *, with_match_keys: bool = True, with_expires_at: bool = True
    ) -> None:
        super().__init__(connection)
        # False only between the structural revision and the additive match-keys (expires_at) revision.
        self._keys = with_match_keys
        self._expires = with_expires_at and with_match_keys
        self._columns = _stored_columns(self._keys, self._expires)

    def _row(self, record: MemoryRecord) -> dict[str, Any]:
        return _belief_row(record, with_match_keys=self._keys, with_expires_at=self._expires)

    def get(self, owner: Owner, belief_id: UUID) -> MemoryRecord | None:
        row = self._c.execute(
            select(*self._columns).where(_owned(beliefs, owner), beliefs.c.id == belief_id)
        ).first()
        return _belief(row) if row else None

    def in_id_range(self, owner: Owner, first: UUID, last: UUID, limit: int) -> list[MemoryRecord]:
        rows = self._c.execute(
            select(*self._columns)
            .where(_owned(beliefs, owner), beliefs.c.id.between(first, last))
            .order_by(beliefs.c.id)
            .limit(max(limit, 0))
        )
        return [_belief(row) for row in rows]

    def page(
        self, owner: Owner, after_id: UUID | None, limit: int, *, live_only: bool = True
    ) -> list[MemoryRecord]:
        query = select(*self._columns).where(_owned(beliefs, owner))
        if live_only:
            query = query.where(beliefs.c.valid_to.is_(None))
        if after_id is not None:
            query = query.where(beliefs.c.id > after_id)
        rows = self._c.execute(query.order_by(beliefs.c.id).limit(max(limit, 0)))
        return [_belief(row) for row in rows]

    def ranking_page(self, owner: Owner, after_id: UUID | None, limit: int) -> list[RankingInputs]:
        params: dict[str, Any] = {
            "tenant_id": owner.tenant_id,
            "principal_id": owner.principal_id,
            "limit": max(limit, 0),
        }
        if after_id is not None:
            params["after"] = after_id
        result = self._c.execute(_RANKING_PAGE[after_id is not None], params)
        # The driver's plain tuples: building 10,000 Row objects would cost more than the query.
        rows = result.cursor.fetchall() if result.cursor is not None else []
        return [_ranking_inputs(*row) for row in rows]

    def most_recent(
        self, owner: Owner, limit: int, sensitivities: Collection[Sensitivity]
    ) -> list[MemoryRecord]:
        wanted = sorted({s.value for s in sensitivities})
        if not wanted or limit <= 0:
            return []
        # Walks beliefs_owner_recent_live (revision 0008) from its newest entry and stops after limit
        # matches: the read is bounded by limit (plus any more sensitive beliefs skipped on the way), not by
        # the owner's size. Before revision 0008 the same query is answered without that index; between the
        # structural revision and the backfill a row with no updated_at yet sorts first (DESC NULLS FIRST).
        rows = self._c.execute(
            select(*self._columns)
            .where(
                _owned(beliefs, owner),
                beliefs.c.valid_to.is_(None),
                beliefs.c.sensitivity.in_(wanted),
            )
            .order_by(beliefs.c.updated_at.desc(), beliefs.c.id.desc())
            .limit(limit)
        )
        return [_belief(row) for row in rows]

    def get_many(self, owner: Owner, ids: Sequence[UUID]) -> list[MemoryRecord]:
        if not ids:
            return []
        rows = self._c.execute(
            select(*self._columns)
            .where(_owned(beliefs, owner), beliefs.c.id.in_(list(set(ids))))
            .order_by(beliefs.c.id)
        )
        return [_belief(row) for row in rows]

    def by_subject(self, owner: Owner, subject: str) -> list[MemoryRecord]:
        rows = self._c.execute(
            select(*self._columns)
            .where(_owned(beliefs, owner), beliefs.c.subject == subject, beliefs.c.valid_to.is_(None))
            .order_by(beliefs.c.id)
        )
        return [_belief(row) for row in rows]

    def by_subjects(self, owner: Owner, subjects: Sequence[str]) -> list[MemoryRecord]:
        if not subjects:
            return []
        rows = self._c.execute(
            select(*self._columns)
            .where(
                _owned(beliefs, owner),
                beliefs.c.subject.in_(list(dict.fromkeys(subjects))),
                beliefs.c.valid_to.is_(None),
            )
            .order_by(beliefs.c.id)
        )
        return [_belief(row) for row in rows]

    def by_main_verb(
        self, owner: Owner, verb: str, *, containing: Sequence[str] = (), limit: int
    ) -> list[MemoryRecord]:
        if not self._keys:
            live = select(*self._columns).where(_owned(beliefs, owner), beliefs.c.valid_to.is_(None))
            found = []
            for b in (_belief(row) for row in self._c.execute(live.order_by(beliefs.c.id))):
                b_verb, b_terms = match_keys(b.statement)
                if b_verb == verb and set(containing) <= set(b_terms):
                    found.append(b)
            return found[: max(limit, 0)]
        query = select(*self._columns).where(
            _owned(beliefs, owner), beliefs.c.main_verb == verb[:64], beliefs.c.valid_to.is_(None)
        )
        if containing:
            query = query.where(beliefs.c.terms.contains(list(containing)))
        rows = self._c.execute(query.order_by(beliefs.c.id).limit(max(limit, 0)))
        return [_belief(row) for row in rows]

    def closed_by_user(
        self, owner: Owner, *, subjects: Sequence[str], verbs: Sequence[str], limit: int
    ) -> list[MemoryRecord]:
        reasons = sorted(r.value for r in USER_CLOSED_REASONS)
        if not self._keys:
            closed = select(*self._columns).where(
                _owned(beliefs, owner), beliefs.c.closed_reason.in_(reasons)
            )
            rows = self._c.execute(closed.order_by(beliefs.c.valid_to.desc(), beliefs.c.id.desc()))
            found = [
                b
                for b in (_belief(row) for row in rows)
                if b.subject in subjects or match_keys(b.statement)[0] in verbs
            ]
            return found[: max(limit, 0)]
        keyed = []
        if subjects:
            keyed.append(beliefs.c.subject.in_(list(subjects)))
        if verbs:
            keyed.append(beliefs.c.main_verb.in_([v[:64] for v in verbs]))
        if not keyed:
            return []
        rows = self._c.execute(
            select(*self._columns)
            .where(_owned(beliefs, owner), beliefs.c.closed_reason.in_(reasons), or_(*keyed))
            .order_by(beliefs.c.valid_to.desc(), beliefs.c.id.desc())
            .limit(max(limit, 0))
        )
        return [_belief(row) for row in rows]

    def by_main_verbs(
        self, owner: Owner, keys: Sequence[VerbKey], *, limit_per_key: int
    ) -> dict[VerbKey, list[MemoryRecord]]:
        wanted = list(dict.fromkeys((verb, tuple(containing)) for verb, containing in keys))
        if not self._keys:
            return {
                (verb, containing): self.by_main_verb(owner, verb, containing=containing, limit=limit_per_key)
                for verb, containing in wanted
            }
        found: dict[VerbKey, list[MemoryRecord]] = {key: [] for key in wanted}
        if not wanted or limit_per_key <= 0:
            return found
        params = _verb_parameters(owner, wanted)
        statement = _by_main_verbs(_has_terms(wanted), limit_per_key)
        for row in self._c.execute(statement, params):
            found[wanted[row.key_index]].append(_belief(row))
        return found

    def verb_entries(
        self, owner: Owner, keys: Sequence[VerbKey], *, limit_per_key: int
    ) -> dict[VerbKey, list[VerbEntry]]:
        wanted = list(dict.fromkeys((verb, tuple(containing)) for verb, containing in keys))
        if not self._keys:
            return {
                key: [VerbEntry(b.id, b.statement, match_keys(b.statement)[1]) for b in found]
                for key, found in self.by_main_verbs(owner, wanted, limit_per_key=limit_per_key).items()
            }
        entries: dict[VerbKey, list[VerbEntry]] = {key: [] for key in wanted}
        if not wanted or limit_per_key <= 0:
            return entries
        params = _verb_parameters(owner, wanted)
        statement = _by_main_verbs(_has_terms(wanted), limit_per_key, _ENTRY_COLUMNS)
        for key_index, belief_id, text_, stored_terms in self._c.execute(statement, params):
            entries[wanted[key_index]].append(VerbEntry(belief_id, text_, tuple(stored_terms or ())))
        return entries

    def closed_by_user_each(
        self, owner: Owner, *, subjects: Sequence[str], verbs: Sequence[str], limit_per_key: int
    ) -> Tombstones:
        subjects, verbs = list(dict.fromkeys(subjects)), list(dict.fromkeys(verbs))
        if not self._keys:
            return Tombstones(
                by_subject={
                    s: self.closed_by_user(owner, subjects=[s], verbs=[], limit=limit_per_key)
                    for s in subjects
                },
                by_verb={
                    v: self.closed_by_user(owner, subjects=[], verbs=[v], limit=limit_per_key) for v in verbs
                },
            )
        by_subject: dict[str, list[MemoryRecord]] = {s: [] for s in subjects}
        by_verb: dict[str, list[MemoryRecord]] = {v: [] for v in verbs}
        if (not subjects and not verbs) or limit_per_key <= 0:
            return Tombstones(by_subject=by_subject, by_verb=by_verb)
        rows = self._c.execute(
            _closed_by_user_each(limit_per_key),
            {
                "tenant_id": owner.tenant_id,
                "principal_id": owner.principal_id,
                "subjects": subjects,
                "verbs": list(dict.fromkeys(v[:64] for v in verbs)),
            },
        )
        by_stored_verb: dict[str, list[MemoryRecord]] = {}
        for row in rows:
            if row.key_kind == "subject":
                by_subject[row.key_value].append(_belief(row))
            else:
                by_stored_verb.setdefault(row.key_value, []).append(_belief(row))
        for verb in verbs:
            by_verb[verb] = list(by_stored_verb.get(verb[:64], []))
        return Tombstones(by_subject=by_subject, by_verb=by_verb)

    def existing_ids(self, owner: Owner, ids: Sequence[UUID]) -> set[UUID]:
        if not ids:
            return set()
        rows = self._c.execute(
            _EXISTING_IDS,
            {"tenant_id": owner.tenant_id, "principal_id": owner.principal_id, "ids": list(set(ids))},
        )
        return {row.id for row in rows}

    def upsert(self, record: MemoryRecord) -> None:
        self._c.execute(_UPSERT[self._keys, self._expires], self._row(record))

    def upsert_many(self, records: Sequence[MemoryRecord]) -> None:
        latest = {record.id: record for record in records}
        if latest:
            rows = [self._row(record) for record in latest.values()]
            self._c.execute(_UPSERT[self._keys, self._expires], rows)

    def close_validity(
        self, owner: Owner, belief_id: UUID, at: datetime, reason: ClosedReason
    ) -> MemoryRecord | None:
        row = self._c.execute(
            update(beliefs)
            .where(_owned(beliefs, owner), beliefs.c.id == belief_id, beliefs.c.valid_to.is_(None))
            .values(valid_to=at, closed_reason=reason.value, updated_at=at, version=beliefs.c.version + 1)
            .returning(*self._columns)
        ).first()
        return _belief(row) if row else None

    def expiry_candidates(
        self, cutoffs: ExpiryCutoffs, after: ExpiryCursor | None, limit: int, lane: SweepLane = WHOLE_ID_SPACE
    ) -> list[ExpiryFacts]:
        query = (
            select(*_FACT_COLUMNS)
            .where(
                beliefs.c.valid_to.is_(None),
                # The range bound (and the cursor's lower bound below) is what lets the partial
                # expiry index on last_evidence_at drive the scan.
                beliefs.c.last_evidence_at <= cutoffs.scan_until,
                beliefs.c.derivation.is_not(None),
                beliefs.c.longevity.is_not(None),
                beliefs.c.claim_kind.is_not(None),
                _expired(cutoffs),
            )
            .order_by(beliefs.c.last_evidence_at, beliefs.c.id)
            .limit(max(limit, 0))
        )
        if self._expires:
            # From revision 0007 on no index covers last_evidence_at: read beliefs_expires_live's expired
            # range (expires_at is last_evidence_at + the horizon, so this only narrows) and filter there.
            query = query.where(beliefs.c.expires_at.is_not(None), beliefs.c.expires_at <= cutoffs.now)
        if lane != WHOLE_ID_SPACE:
            query = query.where(beliefs.c.id >= lane.first_id)
            if (end := lane.end_id) is not None:
                query = query.where(beliefs.c.id < end)
        if after is not None:
            query = query.where(
                beliefs.c.last_evidence_at >= after.last_evidence_at,
                tuple_(beliefs.c.last_evidence_at, beliefs.c.id) > tuple_(after.last_evidence_at, after.id),
            )
        return [_facts(row) for row in self._c.execute(query)]

    def retire(self, retirements: Sequence[Retirement]) -> list[Retirement]:
        if not retirements:
            return []
        facts = [r.facts for r in retirements]
        closed = self._c.execute(
            _RETIRE,
            {
                "ids": [f.id for f in facts],
                "tenants": [f.tenant_id for f in facts],
                "principals": [f.principal_id for f in facts],
                "valid_tos": [r.valid_to for r in retirements],
                "reasons": [r.reason.value for r in retirements],
                "evidence": [f.last_evidence_at for f in facts],
                "authorities": [f.authority.value for f in facts],
                "derivations": [f.derivation.value for f in facts],
                "longevities": [f.longevity.value for f in facts],
                "kinds": [f.claim_kind.value for f in facts],
            },
        )
        done = {row.id for row in closed}
        return [r for r in retirements if r.facts.id in done]

    def record_usage(self, owner: Owner, belief_id: UUID, usage: UsageUpdate, at: datetime) -> bool:
        values: dict[str, Any] = {
            "utility": beliefs.c.utility + usage.weight * (usage.reward - beliefs.c.utility)
        }
        if usage.used_at is not None:
            values["last_used_at"] = func.greatest(
                func.coalesce(beliefs.c.last_used_at, usage.used_at), usage.used_at
            )
        row = self._c.execute(
            update(beliefs)
            .where(_owned(beliefs, owner), beliefs.c.id == belief_id, beliefs.c.valid_to.is_(None))
            .values(values)
            .returning(beliefs.c.id)
        ).first()
        return row is not None


def _upsert_statement(with_match_keys: bool, with_expires_at: bool) -> Any:
    """INSERT ... ON CONFLICT (id) DO UPDATE of every column, built once: executed with one row or many."""
    names = [c.name for c in _stored_columns(with_match_keys, with_expires_at)]
    statement = insert(beliefs)
    changed = {n: statement.excluded[n] for n in names if n not in ("id", "tenant_id", "principal_id")}
    # The owner condition keeps an id that belongs to someone else from being overwritten.
    return statement.on_conflict_do_update(
        index_elements=[beliefs.c.id],
        set_=changed,
        where=and_(
            beliefs.c.tenant_id == statement.excluded.tenant_id,
            beliefs.c.principal_id == statement.excluded.principal_id,
        ),
    )


_UPSERT = {
    (keys, expires): _upsert_statement(keys, expires) for keys in (True, False) for expires in (True, False)
}

# Only for a store with match keys.
# expires_at is left out: no reader needs it, and it is absent before its revision.
_BELIEF_COLUMNS = ", ".join(f"b.{c.name}" for c in beliefs.c if c.name != "expires_at")


_ENTRY_COLUMNS = "id, statement, terms"


def _verb_parameters(owner: Owner, wanted: Sequence[VerbKey]) -> dict[str, Any]:
    """The parameters of _by_main_verbs' branches, one verb (and its lemmas, if any) per key."""
    params: dict[str, Any] = {"tenant_id": owner.tenant_id, "principal_id": owner.principal_id}
    for i, (verb, containing) in enumerate(wanted):
        params[f"verb_{i}"] = verb[:64]
        if containing:
            params[f"terms_{i}"] = list(containing)
    return params


def _has_terms(wanted: Sequence[VerbKey]) -> tuple[bool, ...]:
    return tuple(bool(containing) for _, containing in wanted)


@functools.cache
def _by_main_verbs(containing: tuple[bool, ...], limit: int, columns: str = "*") -> Any:
    """One branch per key, UNION ALL: each branch is planned for its own verb (a common verb walks the id
    index, a rare one reads its few rows from the verb index), which one LATERAL plan for all keys cannot
    do. The limit is a literal: a generic plan for a prepared statement would assume a LIMIT parameter
    reads a tenth of the rows and sort them all. Cached by which keys carry content lemmas."""
    branches = []
    for i, has_terms in enumerate(containing):
        terms = f" AND terms @> CAST(:terms_{i} AS text[])" if has_terms else ""
        branches.append(
            f"(SELECT {i} AS key_index, {columns} FROM beliefs"
            " WHERE tenant_id = :tenant_id AND principal_id = :principal_id AND valid_to IS NULL"
            f" AND main_verb = :verb_{i}{terms} ORDER BY id LIMIT {int(limit)})"
        )
    return text(f"SELECT * FROM ({' UNION ALL '.join(branches)}) AS found ORDER BY key_index, id")


@functools.cache
def _closed_by_user_each(limit: int) -> Any:
    """Each subject's and each verb's newest tombstones, through the partial indexes (whose predicate is
    spelled here as they spell it); the limit is a literal for the reason _by_main_verbs gives."""
    return text(
        f"""
        SELECT 'subject' AS key_kind, k.key_value, {_BELIEF_COLUMNS}
          FROM unnest(CAST(:subjects AS text[])) AS k(key_value)
         CROSS JOIN LATERAL (
               SELECT * FROM beliefs
                WHERE tenant_id = :tenant_id AND principal_id = :principal_id AND {USER_CLOSED_WHERE}
                  AND subject = k.key_value
                ORDER BY valid_to DESC, id DESC
                LIMIT {int(limit)}) AS b
        UNION ALL
        SELECT 'verb' AS key_kind, k.key_value, {_BELIEF_COLUMNS}
          FROM unnest(CAST(:verbs AS text[])) AS k(key_value)
         CROSS JOIN LATERAL (
               SELECT * FROM beliefs
                WHERE tenant_id = :tenant_id AND principal_id = :principal_id AND {USER_CLOSED_WHERE}
                  AND main_verb = k.key_value
                ORDER BY valid_to DESC, id DESC
                LIMIT {int(limit)}) AS b
        ORDER BY key_kind, key_value, valid_to DESC, id DESC
        """
    )


def _ranking_page_statement(with_after: bool) -> Any:
    """Only the ranking inputs, through beliefs_owner_id in id order. The four shape columns travel as one
    string (a principal's rows have a handful of shapes, decoded once each); a row the lifecycle@2 backfill
    has not reached reads as _belief reads it (its belief_type's legacy mapping, evidence at valid_from)."""
    after = " AND id > :after" if with_after else ""
    return text(
        "SELECT id, coalesce(last_evidence_at, valid_from) AS last_evidence_at, confidence, utility,"
        " concat_ws('|', coalesce(claim_kind, ''), coalesce(longevity, ''), coalesce(derivation, ''),"
        " authority, CASE WHEN claim_kind IS NULL OR longevity IS NULL THEN belief_type ELSE '' END) AS shape"
        " FROM beliefs WHERE tenant_id = :tenant_id AND principal_id = :principal_id AND valid_to IS NULL"
        f"{after} ORDER BY id LIMIT :limit"
    )


_RANKING_PAGE = {with_after: _ranking_page_statement(with_after) for with_after in (False, True)}

_Shape = tuple[ClaimKind, Longevity, Derivation, Authority]


@functools.lru_cache(maxsize=4096)
def _shape(shape: str) -> _Shape:
    claim_kind, longevity, derivation, authority, belief_type = shape.split("|", 4)
    legacy_kind, legacy_longevity = legacy_mapping(belief_type)
    return (
        ClaimKind(claim_kind) if claim_kind else legacy_kind,
        Longevity(longevity) if longevity else legacy_longevity,
        Derivation(derivation) if derivation else LEGACY_DERIVATION,
        Authority(authority),
    )


def _ranking_inputs(
    belief_id: UUID, last_evidence_at: datetime, confidence: float, utility: float, shape: str
) -> RankingInputs:
    kind, longevity, derivation, authority = _shape(shape)
    return RankingInputs(
        belief_id, kind, longevity, derivation, authority, last_evidence_at, confidence, utility
    )


_EXISTING_IDS = text(
    """
    SELECT id FROM beliefs
     WHERE tenant_id = :tenant_id AND principal_id = :principal_id AND id = ANY(CAST(:ids AS uuid[]))
    """
)


_FACT_COLUMNS = (
    beliefs.c.id,
    beliefs.c.tenant_id,
    beliefs.c.principal_id,
    beliefs.c.last_evidence_at,
    beliefs.c.valid_from,
    beliefs.c.authority,
    beliefs.c.derivation,
    beliefs.c.longevity,
    beliefs.c.claim_kind,
)


def _facts(row: Any) -> ExpiryFacts:
    return ExpiryFacts(
        id=row.id,
        tenant_id=row.tenant_id,
        principal_id=row.principal_id,
        last_evidence_at=row.last_evidence_at,
        valid_from=row.valid_from,
        authority=Authority(row.authority),
        derivation=Derivation(row.derivation),
        longevity=Longevity(row.longevity),
        claim_kind=ClaimKind(row.claim_kind),
    )


def _expired(cutoffs: ExpiryCutoffs) -> Any:
    """ExpiryCutoffs.expired rendered as SQL; the contract suite holds the two to the same answers."""
    evidence = beliefs.c.last_evidence_at
    durable_cutoff = case(
        {kind.value: cutoff for kind, cutoff in cutoffs.durable.items()}, value=beliefs.c.claim_kind
    )
    return case(
        (beliefs.c.authority == Authority.EXPLICIT_REMEMBER.value, false()),
        (
            or_(
                beliefs.c.derivation == Derivation.HYPOTHESIS.value,
                beliefs.c.longevity == Longevity.TENTATIVE.value,
            ),
            evidence <= cutoffs.hypothesis,
        ),
        (beliefs.c.longevity == Longevity.ONGOING.value, evidence <= cutoffs.ongoing),
        (beliefs.c.longevity == Longevity.DURABLE.value, evidence <= durable_cutoff),
        else_=false(),
    )


# Conditional on every deciding fact: a belief closed, re-evidenced, promoted or edited since the page was
# read keeps its row; two sweeps racing on one row serialize on its lock and the second finds it closed.
_RETIRE = text(
    """
    UPDATE beliefs AS b
       SET valid_to = v.valid_to, closed_reason = v.reason, updated_at = v.valid_to, version = b.version + 1
      FROM unnest(CAST(:ids AS uuid[]), CAST(:tenants AS text[]), CAST(:principals AS text[]),
                  CAST(:valid_tos AS timestamptz[]), CAST(:reasons AS text[]),
                  CAST(:evidence AS timestamptz[]), CAST(:authorities AS text[]),
                  CAST(:derivations AS text[]), CAST(:longevities AS text[]), CAST(:kinds AS text[]))
           AS v(id, tenant_id, principal_id, valid_to, reason, last_evidence_at, authority, derivation,
                longevity, claim_kind)
     WHERE b.id = v.id
       AND b.tenant_id = v.tenant_id
       AND b.principal_id = v.principal_id
       AND b.valid_to IS NULL
       AND b.last_evidence_at = v.last_evidence_at
       AND b.authority = v.authority
       AND b.derivation = v.derivation
       AND b.longevity = v.longevity
       AND b.claim_kind = v.claim_kind
    RETURNING b.id
    """
)


def _seconds(delta: Any) -> int:
    return int(delta.total_seconds())


def _horizon_sql() -> tuple[str, str]:
    """domain.beliefs.lifecycle.horizon_of rendered as SQL over the row's current facts: (seconds, reason). Built from
    the domain's constants; the contract suite holds this store's sweep to the domain's answers."""
    durable = " ".join(
        f"WHEN '{kind.value}' THEN {days * 86400}" for kind, days in DURABLE_HORIZON_DAYS.items()
    )
    guard = (
        f"b.authority = '{Authority.EXPLICIT_REMEMBER.value}' THEN NULL "
        f"WHEN b.derivation = '{Derivation.HYPOTHESIS.value}' OR b.longevity = '{Longevity.TENTATIVE.value}'"
    )
    seconds = (
        f"CASE WHEN {guard} THEN {_seconds(HYPOTHESIS_HORIZON)}"
        f" WHEN b.longevity = '{Longevity.ONGOING.value}' THEN {_seconds(ONGOING_HORIZON)}"
        f" WHEN b.longevity = '{Longevity.DURABLE.value}' THEN CASE b.claim_kind {durable} END END"
    )
    reason = (
        f"CASE WHEN {guard} THEN '{ClosedReason.RETIRED_HYPOTHESIS.value}'"
        f" WHEN b.longevity = '{Longevity.ONGOING.value}' THEN '{ClosedReason.RETIRED_ONGOING.value}'"
        f" WHEN b.longevity = '{Longevity.DURABLE.value}' THEN '{ClosedReason.RETIRED_DURABLE.value}' END"
    )
    return seconds, reason


# The lane's next expired live rows after the cursor, straight from beliefs_expires_live.
SWEEP_PAGE_CTE: Final = """page AS (
          SELECT id, expires_at FROM beliefs
           WHERE valid_to IS NULL AND expires_at IS NOT NULL AND expires_at <= :now
             AND id >= CAST(:lane_first AS uuid) AND (CAST(:lane_end AS uuid) IS NULL OR id < CAST(:lane_end AS uuid))
             AND (CAST(:after_id AS uuid) IS NULL
                  OR (expires_at, id) > (CAST(:after_expires AS timestamptz), CAST(:after_id AS uuid)))
           ORDER BY expires_at, id
           LIMIT :limit
        )"""


def _sweep_statement() -> Any:
    """One retirement page in one statement: read the lane's next expired live rows from beliefs_expires_live
    (the lane's id range filters inside the index scan), close
    each that is still live and expired on its *current* facts (the UPDATE re-checks a row changed under it),
    and write one memory.retired audit per closed row; returns the page's size, cursor and counts by reason.

    The boundary and reason come from the row's facts (expires_at only chooses the page), so a stale
    expires_at can delay a retirement but never bring one forward, and validity ends at the horizon (never
    before valid_from), as domain.beliefs.lifecycle.decide says. The audit is domain.beliefs.lifecycle.retirement_audit."""
    seconds, reason = _horizon_sql()
    boundary = f"(b.last_evidence_at + make_interval(secs => {seconds}))"
    # datetime.isoformat() of a UTC instant: microseconds only when there are any.
    iso = (
        "to_char(r.valid_to AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS')"
        " || CASE WHEN mod(date_part('microseconds', r.valid_to)::bigint, 1000000) <> 0"
        " THEN to_char(r.valid_to AT TIME ZONE 'UTC', '.US') ELSE '' END || '+00:00'"
    )
    return text(
        f"""
        /* retirement sweep page */
        WITH {SWEEP_PAGE_CTE}, retired AS (
          UPDATE beliefs AS b
             SET valid_to = greatest({boundary}, b.valid_from),
                 closed_reason = {reason},
                 updated_at = greatest({boundary}, b.valid_from),
                 version = b.version + 1
            FROM page
           WHERE b.id = page.id AND b.valid_to IS NULL AND {boundary} <= :now
          RETURNING b.id, b.tenant_id, b.principal_id, b.derivation, b.longevity, b.claim_kind, b.valid_to,
                    b.closed_reason
        ), audited AS (
          INSERT INTO formation_audits (id, tenant_id, principal_id, session_id, kind, dedupe_key, details,
                                        created_at)
          SELECT gen_random_uuid(), r.tenant_id, r.principal_id, NULL, CAST(:audit_kind AS text), 'retired/' || r.id,
                 jsonb_build_object('belief_id', r.id::text, 'reason', r.closed_reason,
                                    'derivation', r.derivation, 'longevity', r.longevity,
                                    'claim_kind', r.claim_kind, 'valid_to', {iso}, 'policy', CAST(:policy AS text)),
                 CAST(:now AS timestamptz)
            FROM retired AS r
          ON CONFLICT DO NOTHING
        )
        SELECT p.examined, p.last_expires, p.last_id, r.reason, r.n
          FROM (SELECT count(*) AS examined,
                       (array_agg(expires_at ORDER BY expires_at DESC, id DESC))[1] AS last_expires,
                       (array_agg(id ORDER BY expires_at DESC, id DESC))[1] AS last_id
                  FROM page) AS p
          LEFT JOIN (SELECT closed_reason AS reason, count(*) AS n FROM retired GROUP BY closed_reason) AS r
            ON true
        """
    )


_SWEEP = _sweep_statement()


def _page_parameters(
    now: datetime, after: ExpiryCursor | None, limit: int, lane: SweepLane
) -> dict[str, Any]:
    return {
        "now": now,
        "limit": max(limit, 0),
        "after_id": after.id if after else None,
        "after_expires": after.expires_at if after else None,
        "lane_first": lane.first_id,
        "lane_end": lane.end_id,
        "audit_kind": AuditKind.MEMORY_RETIRED.value,
        "policy": LIFECYCLE,
    }


def _probe_by_primary_key(connection: Connection) -> None:
    """The page's rows are fetched by primary key, one probe each. Around a million rows and with default cost
    settings the planner prices a hash join over a scan of the whole table close to that and sometimes picks
    it, which reads every belief for every page (measured: 0.9 s instead of 0.2 s a page). Set for the rest
    of the transaction, which is the page's own."""
    connection.exec_driver_sql(
        "SELECT set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)"
    )


SweepPlanFormat = Literal["ANALYZE, BUFFERS", "FORMAT JSON"]


def explain_sweep_page(
    connection: Connection, now: datetime, lane: SweepLane, options: SweepPlanFormat = "FORMAT JSON"
) -> list[Any]:
    """The first page's plan as the sweep runs it: EXPLAIN's rows (text lines, or one JSON document). With
    ANALYZE the page really runs, so the caller rolls back."""
    _probe_by_primary_key(connection)
    statement = text(f"EXPLAIN ({options}) " + str(_SWEEP.text))
    return [
        row[0] for row in connection.execute(statement, _page_parameters(now, None, SWEEP_PAGE_SIZE, lane))
    ]


def retire_expired_page(
    connection: Connection, now: datetime, after: ExpiryCursor | None, limit: int, lane: SweepLane
) -> SweepPage:
    """UnitOfWork.retire_expired_page at the expires_at revision: the page in (expires_at, id) order."""
    if after is not None and after.expires_at is None:
        # A cursor in expiry_candidates' (last_evidence_at, id) order: start over (only re-examines skips).
        after = None
    _probe_by_primary_key(connection)
    rows = connection.execute(_SWEEP, _page_parameters(now, after, limit, lane)).all()
    first = rows[0]
    by_reason = {ClosedReason(row.reason): int(row.n) for row in rows if row.reason is not None}
    retired = sum(by_reason.values())
    cursor = after
    if first.last_id is not None:
        # last_evidence_at is not this order's key; it carries the horizon instant to satisfy the model.
        cursor = ExpiryCursor(
            last_evidence_at=first.last_expires, id=first.last_id, expires_at=first.last_expires
        )
    return SweepPage(
        examined=first.examined,
        retired=retired,
        skipped_changed=first.examined - retired,
        by_reason=by_reason,
        next_cursor=cursor,
        done=first.examined < limit,
    )


# --- watermarks ------------------------------------------------------------------------------------


class PostgresWatermarks(_Repo):
    def get(self, owner: Owner, session_id: UUID) -> int:
        found = self._c.execute(
            select(watermarks.c.seq).where(_owned(watermarks, owner), watermarks.c.session_id == session_id)
        ).scalar()
        return int(found or 0)

    def compare_and_set(self, owner: Owner, session_id: UUID, expected: int, new: int) -> bool:
        if new <= expected:
            return False
        if expected == 0:
            statement = insert(watermarks).values(
                tenant_id=owner.tenant_id, principal_id=owner.principal_id, session_id=session_id, seq=new
            )
            moved = self._c.execute(
                statement.on_conflict_do_update(
                    index_elements=[
                        watermarks.c.tenant_id,
                        watermarks.c.principal_id,
                        watermarks.c.session_id,
                    ],
                    set_={"seq": statement.excluded.seq},
                    where=watermarks.c.seq == 0,
                ).returning(watermarks.c.seq)
            ).first()
        else:
            moved = self._c.execute(
                update(watermarks)
                .where(
                    _owned(watermarks, owner),
                    watermarks.c.session_id == session_id,
                    watermarks.c.seq == expected,
                )
                .values(seq=new)
                .returning(watermarks.c.seq)
            ).first()
        return moved is not None


# --- consolidation runs ----------------------------------------------------------------------------


def _run(row: Row[Any], with_metrics: bool) -> ConsolidationRun:
    metrics = row.stage_metrics if with_metrics else []
    return ConsolidationRun(
        id=row.id,
        tenant_id=row.tenant_id,
        principal_id=row.principal_id,
        session_id=row.session_id,
        formation_policy=row.formation_policy,
        from_seq=row.from_seq,
        to_seq=row.to_seq,
        outcome=RunOutcome(row.outcome),
        segment_count=row.segment_count,
        episode_count=row.episode_count,
        provider_call_count=row.provider_call_count,
        fallback_stages=tuple(Stage(s) for s in row.fallback_stages),
        categories={ReasonCategory(k): int(v) for k, v in row.categories.items()},
        direct_proposed=row.direct_proposed,
        direct_committed=row.direct_committed,
        hypothesis_proposed=row.hypothesis_proposed,
        hypothesis_committed=row.hypothesis_committed,
        attributed_redundancies=row.attributed_redundancies,
        coverage={CoverageDisposition(k): int(v) for k, v in row.coverage.items()},
        rejected_provider_candidates=row.rejected_provider_candidates,
        stage_metrics=tuple(StageMetrics.model_validate(m) for m in metrics),
        started_at=row.started_at,
        completed_at=row.completed_at,
    )


class PostgresRuns(_Repo):
    def __init__(self, connection: Connection, *, with_stage_metrics: bool) -> None:
        super().__init__(connection)
        self._with_metrics = with_stage_metrics
        self._columns = [c for c in consolidation_runs.c if with_stage_metrics or c.name != "stage_metrics"]

    def record(self, run: ConsolidationRun) -> bool:
        values: dict[str, Any] = {
            "id": run.id,
            "tenant_id": run.tenant_id,
            "principal_id": run.principal_id,
            "session_id": run.session_id,
            "formation_policy": run.formation_policy,
            "from_seq": run.from_seq,
            "to_seq": run.to_seq,
            "outcome": run.outcome.value,
            "segment_count": run.segment_count,
            "episode_count": run.episode_count,
            "provider_call_count": run.provider_call_count,
            "fallback_stages": [s.value for s in run.fallback_stages],
            "categories": {k.value: v for k, v in run.categories.items()},
            "direct_proposed": run.direct_proposed,
            "direct_committed": run.direct_committed,
            "hypothesis_proposed": run.hypothesis_proposed,
            "hypothesis_committed": run.hypothesis_committed,
            "attributed_redundancies": run.attributed_redundancies,
            "coverage": {k.value: v for k, v in run.coverage.items()},
            "rejected_provider_candidates": run.rejected_provider_candidates,
            "started_at": run.started_at,
            "completed_at": run.completed_at,
        }
        if self._with_metrics:
            values["stage_metrics"] = [m.model_dump(mode="json") for m in run.stage_metrics]
        recorded = self._c.execute(
            insert(consolidation_runs)
            .values(values)
            .on_conflict_do_nothing(index_elements=[consolidation_runs.c.id])
            .returning(consolidation_runs.c.id)
        ).first()
        return recorded is not None

    def get(self, owner: Owner, run_id: UUID) -> ConsolidationRun | None:
        row = self._c.execute(
            select(*self._columns).where(_owned(consolidation_runs, owner), consolidation_runs.c.id == run_id)
        ).first()
        return _run(row, self._with_metrics) if row else None

    def for_session(self, owner: Owner, session_id: UUID) -> list[ConsolidationRun]:
        rows = self._c.execute(
            select(*self._columns).where(
                _owned(consolidation_runs, owner), consolidation_runs.c.session_id == session_id
            )
        )
        return sorted(
            (_run(row, self._with_metrics) for row in rows), key=lambda r: (r.started_at, str(r.id))
        )


# --- formation audits ------------------------------------------------------------------------------


class PostgresAudits(_Repo):
    def record(self, audit: FormationAudit) -> bool:
        recorded = self._c.execute(
            insert(formation_audits)
            .values(
                id=audit.id,
                tenant_id=audit.tenant_id,
                principal_id=audit.principal_id,
                session_id=audit.session_id,
                kind=audit.kind.value,
                dedupe_key=audit.dedupe_key,
                details=dict(audit.details),
                created_at=audit.created_at,
            )
            .on_conflict_do_nothing()
            .returning(formation_audits.c.id)
        ).first()
        return recorded is not None

    def record_many(self, audits: Sequence[FormationAudit]) -> int:
        if not audits:
            return 0
        # One parameter holding every row: a sweep page's 5,000 audits cost one short statement, where a
        # multi-row VALUES list spends most of its time building and parsing 40,000 placeholders.
        rows = json.dumps(
            [
                {
                    "id": str(audit.id),
                    "tenant_id": audit.tenant_id,
                    "principal_id": audit.principal_id,
                    "session_id": str(audit.session_id) if audit.session_id else None,
                    "kind": audit.kind.value,
                    "dedupe_key": audit.dedupe_key,
                    "details": audit.details,
                    "created_at": audit.created_at.isoformat(),
                }
                for audit in audits
            ]
        )
        recorded = self._c.execute(_RECORD_AUDITS, {"rows": rows}).all()
        return len(recorded)

    def for_owner(self, owner: Owner, kind: AuditKind | None = None) -> list[FormationAudit]:
        query = select(formation_audits).where(_owned(formation_audits, owner))
        if kind is not None:
            query = query.where(formation_audits.c.kind == kind.value)
        rows = self._c.execute(query.order_by(formation_audits.c.created_at, formation_audits.c.dedupe_key))
        return [_audit(row) for row in rows]

    def get(self, owner: Owner, dedupe_key: str) -> FormationAudit | None:
        row = self._c.execute(
            select(formation_audits).where(
                _owned(formation_audits, owner), formation_audits.c.dedupe_key == dedupe_key
            )
        ).first()
        return _audit(row) if row else None


def _audit(row: Row[Any]) -> FormationAudit:
    return FormationAudit(
        id=row.id,
        tenant_id=row.tenant_id,
        principal_id=row.principal_id,
        session_id=row.session_id,
        kind=AuditKind(row.kind),
        dedupe_key=row.dedupe_key,
        details=dict(row.details),
        created_at=row.created_at,
    )


_RECORD_AUDITS = text(
    """
    INSERT INTO formation_audits (id, tenant_id, principal_id, session_id, kind, dedupe_key, details, created_at)
    SELECT r.id, r.tenant_id, r.principal_id, r.session_id, r.kind, r.dedupe_key, r.details, r.created_at
      FROM jsonb_to_recordset(CAST(:rows AS jsonb)) AS r(id uuid, tenant_id text, principal_id text,
           session_id uuid, kind text, dedupe_key text, details jsonb, created_at timestamptz)
    ON CONFLICT DO NOTHING
    RETURNING id
    """
)


# --- staged stage outputs --------------------------------------------------------------------------


class PostgresStaged(_Repo):
    def put(self, staged: StagedOutput) -> None:
        statement = insert(staged_outputs).values(
            tenant_id=staged.tenant_id,
            principal_id=staged.principal_id,
            segment_key=staged.segment_key,
            stage=staged.stage.value,
            session_id=staged.session_id,
            document=staged.document,
        )
        self._c.execute(
            statement.on_conflict_do_update(
                index_elements=[
                    staged_outputs.c.tenant_id,
                    staged_outputs.c.principal_id,
                    staged_outputs.c.segment_key,
                    staged_outputs.c.stage,
                ],
                set_={
                    "document": statement.excluded.document,
                    "session_id": statement.excluded.session_id,
                    "updated_at": func.now(),
                },
            )
        )

    def get(self, owner: Owner, segment_key: str, stage: StagedKind) -> dict[str, Any] | None:
        document = self._c.execute(
            select(staged_outputs.c.document).where(
                _owned(staged_outputs, owner),
                staged_outputs.c.segment_key == segment_key,
                staged_outputs.c.stage == stage.value,
            )
        ).scalar()
        return dict(document) if document is not None else None

    def delete_for_segment(self, owner: Owner, segment_key: str) -> int:
        result = self._c.execute(
            delete(staged_outputs).where(
                _owned(staged_outputs, owner), staged_outputs.c.segment_key == segment_key
            )
        )
        return result.rowcount
