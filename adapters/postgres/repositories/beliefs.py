"""The belief repository: memory records read and written by owner; only the retirement sweep's scan and
close (expiry_candidates, retire) reach every owner's rows."""

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy import Connection, func, select, tuple_, update

from adapters.postgres.repositories.belief_statements import (
    EXISTING_IDS,
    PENDING_EMBEDDINGS,
    RANKING_PAGE,
    STORE_EMBEDDINGS,
    UPSERT,
    closed_by_user_each_statement,
    get_many_statement,
    has_terms,
    look_up_statement,
    matching_statement,
    most_recent_statement,
    nearest_statement,
    ranking_inputs_of,
    verb_entries_statement,
    verb_parameters,
)
from adapters.postgres.repositories.retirement import FACT_COLUMNS, RETIRE, expired_sql, expiry_facts_of
from adapters.postgres.repositories.rows import Repo, belief_row, memory_record, owned, stored_columns
from adapters.postgres.tables import INDEXED_EMBEDDING_MODELS, beliefs
from domain.beliefs.embedding import Neighbour, PendingEmbedding
from domain.beliefs.lifecycle import (
    WHOLE_ID_SPACE,
    ExpiryCursor,
    ExpiryCutoffs,
    ExpiryFacts,
    Retirement,
    SweepLane,
    UsageUpdate,
)
from domain.beliefs.records import USER_CLOSED_REASONS, ClosedReason, MemoryRecord
from domain.beliefs.relevance import Match, SearchedTerm
from domain.beliefs.retrieval import RankingInputs
from domain.candidates import Sensitivity
from domain.errors import WrongSchemaRevision
from domain.formation.equivalence import match_keys
from domain.owner import Owner
from domain.ports import (
    ALL_SENSITIVITIES,
    BeliefLookups,
    LookedUp,
    Tombstones,
    VerbEntry,
    VerbKey,
    look_up_each,
)


class PostgresBeliefs(Repo):
    def __init__(
        self,
        connection: Connection,
        *,
        with_match_keys: bool = True,
        with_expires_at: bool = True,
        with_recall_search: bool = True,
        with_embeddings: bool = True,
        with_owner_words: bool = True,
    ) -> None:
        super().__init__(connection)
        self._vectors = with_embeddings
        # False until beliefs_owner_words_live (revision 0017) is built: the words are read through the index
        # before it.
        self._owner_words = with_owner_words
        # False only between the structural revision and the additive match-keys (expires_at, recall-search)
        # revision.
        self._keys = with_match_keys
        self._expires = with_expires_at and with_match_keys
        self._search = with_recall_search and self._expires
        self._columns = tuple(stored_columns(self._keys, self._expires, self._search))

    def _row(self, record: MemoryRecord) -> dict[str, Any]:
        return belief_row(
            record, with_match_keys=self._keys, with_expires_at=self._expires, with_recall_search=self._search
        )

    def get(self, owner: Owner, belief_id: UUID) -> MemoryRecord | None:
        row = self._c.execute(
            select(*self._columns).where(owned(beliefs, owner), beliefs.c.id == belief_id)
        ).first()
        return memory_record(row) if row else None

    def in_id_range(self, owner: Owner, first: UUID, last: UUID, limit: int) -> list[MemoryRecord]:
        rows = self._c.execute(
            select(*self._columns)
            .where(owned(beliefs, owner), beliefs.c.id.between(first, last))
            .order_by(beliefs.c.id)
            .limit(max(limit, 0))
        )
        return [memory_record(row) for row in rows]

    def page(
        self, owner: Owner, after_id: UUID | None, limit: int, *, live_only: bool = True
    ) -> list[MemoryRecord]:
        query = select(*self._columns).where(owned(beliefs, owner))
        if live_only:
            query = query.where(beliefs.c.valid_to.is_(None))
        if after_id is not None:
            query = query.where(beliefs.c.id > after_id)
        rows = self._c.execute(query.order_by(beliefs.c.id).limit(max(limit, 0)))
        return [memory_record(row) for row in rows]

    def ranking_page(
        self,
        owner: Owner,
        after_id: UUID | None,
        limit: int,
        sensitivities: Collection[Sensitivity] = ALL_SENSITIVITIES,
    ) -> list[RankingInputs]:
        params = self._within(owner, limit, sensitivities)
        if after_id is not None:
            params["after"] = after_id
        return [
            ranking_inputs_of(*row) for row in self._plain_rows(RANKING_PAGE[after_id is not None], params)
        ]

    def matching(
        self,
        owner: Owner,
        terms: Sequence[SearchedTerm],
        limit: int,
        sensitivities: Collection[Sensitivity],
        *,
        bounded: bool = True,
    ) -> list[Match]:
        if not self._search:
            raise WrongSchemaRevision(
                "recall with a query needs the recall-search revision; run `agent db upgrade`"
            )
        if not terms:
            return []
        params = {
            **self._within(owner, limit, sensitivities),
            "words": [" ".join(term.words) for term in terms],
            "relatives": [" ".join(term.relatives) for term in terms],
        }
        statement = matching_statement(
            tuple(bool(term.relatives) for term in terms), bounded, self._owner_words
        )
        # coverage, direct, weight, subject, statement and by_bound follow the ranking inputs, as Match has them
        return [Match(ranking_inputs_of(*row[:5]), *row[5:]) for row in self._plain_rows(statement, params)]

    def nearest(
        self,
        owner: Owner,
        model: str,
        vector: Sequence[float],
        limit: int,
        sensitivities: Collection[Sensitivity],
    ) -> list[Neighbour]:
        if not self._vectors or limit <= 0:
            return []
        params = {**self._within(owner, limit, sensitivities), "model": model, "vector": _literal(vector)}
        dimension = INDEXED_EMBEDDING_MODELS.get(model)
        if dimension != len(vector):  # no index for this model: the exact scan
            return [_neighbour(row) for row in self._plain_rows(nearest_statement(None), params)]
        # A candidate list wider than the default 40 keeps the index's answer close to the exact one.
        params |= {"ef_search": str(max(HNSW_EF_SEARCH, limit)), "exact_up_to": EXACT_NEAREST_UP_TO}
        return [_neighbour(row) for row in self._plain_rows(nearest_statement((model, dimension)), params)]

    def pending_embeddings(
        self, model: str, after_id: UUID | None, limit: int, owner: Owner | None = None
    ) -> list[PendingEmbedding]:
        if not self._vectors:
            raise WrongSchemaRevision("embeddings need the embeddings revision; run `agent db upgrade`")
        params: dict[str, Any] = {"model": model, "limit": max(limit, 0), "after": after_id}
        if owner is not None:
            params |= {"tenant_id": owner.tenant_id, "principal_id": owner.principal_id}
        rows = self._plain_rows(PENDING_EMBEDDINGS[after_id is not None, owner is not None], params)
        return [
            PendingEmbedding(row[0], Owner(tenant_id=row[1], principal_id=row[2]), row[3], row[4])
            for row in rows
        ]

    def store_embeddings(
        self, model: str, embedded: Sequence[tuple[PendingEmbedding, Sequence[float]]]
    ) -> int:
        if not embedded:
            return 0
        params = {
            "model": model,
            "ids": [work.id for work, _ in embedded],
            "subjects": [work.subject for work, _ in embedded],
            "statements": [work.statement for work, _ in embedded],
            "vectors": [_literal(vector) for _, vector in embedded],
        }
        return int(self._c.execute(STORE_EMBEDDINGS, params).rowcount)

    @staticmethod
    def _within(owner: Owner, limit: int, sensitivities: Collection[Sensitivity]) -> dict[str, Any]:
        return {
            "tenant_id": owner.tenant_id,
            "principal_id": owner.principal_id,
            "limit": max(limit, 0),
            "sensitivities": sorted(s.value for s in sensitivities),
        }

    def _plain_rows(self, statement: Any, params: dict[str, Any]) -> Sequence[Any]:
        result = self._c.execute(statement, params)
        # The driver's plain tuples: building 10,000 Row objects would cost more than the query.
        return result.cursor.fetchall() if result.cursor is not None else []

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
            most_recent_statement(self._columns),
            {
                "tenant_id": owner.tenant_id,
                "principal_id": owner.principal_id,
                "sensitivities": wanted,
                "limit": limit,
            },
        )
        return [memory_record(row) for row in rows]

    def get_many(self, owner: Owner, ids: Sequence[UUID]) -> list[MemoryRecord]:
        if not ids:
            return []
        params = {"tenant_id": owner.tenant_id, "principal_id": owner.principal_id, "ids": list(set(ids))}
        return [
            memory_record(row) for row in self._c.execute(get_many_statement(self._columns), params).all()
        ]

    def by_subjects(self, owner: Owner, subjects: Sequence[str]) -> list[MemoryRecord]:
        if not subjects:
            return []
        rows = self._c.execute(
            select(*self._columns)
            .where(
                owned(beliefs, owner),
                beliefs.c.subject.in_(list(dict.fromkeys(subjects))),
                beliefs.c.valid_to.is_(None),
            )
            .order_by(beliefs.c.id)
        )
        return [memory_record(row) for row in rows]

    def verb_entries(
        self, owner: Owner, keys: Sequence[VerbKey], *, limit_per_key: int
    ) -> dict[VerbKey, list[VerbEntry]]:
        wanted = list(dict.fromkeys((verb, tuple(containing)) for verb, containing in keys))
        if not self._keys:
            return {
                (verb, containing): [
                    VerbEntry(b.id, b.statement, match_keys(b.statement)[1])
                    for b in self._unkeyed_by_main_verb(owner, verb, containing, limit_per_key)
                ]
                for verb, containing in wanted
            }
        entries: dict[VerbKey, list[VerbEntry]] = {key: [] for key in wanted}
        if not wanted or limit_per_key <= 0:
            return entries
        params = verb_parameters(owner, wanted)
        statement = verb_entries_statement(has_terms(wanted), limit_per_key)
        for key_index, belief_id, text_, stored_terms in self._c.execute(statement, params):
            entries[wanted[key_index]].append(VerbEntry(belief_id, text_, tuple(stored_terms or ())))
        return entries

    def _unkeyed_by_main_verb(
        self, owner: Owner, verb: str, containing: Sequence[str], limit: int
    ) -> list[MemoryRecord]:
        """Before the match-keys revision no column holds a main verb: every live belief's is computed."""
        live = select(*self._columns).where(owned(beliefs, owner), beliefs.c.valid_to.is_(None))
        found = []
        for b in (memory_record(row) for row in self._c.execute(live.order_by(beliefs.c.id))):
            b_verb, b_terms = match_keys(b.statement)
            if b_verb == verb and set(containing) <= set(b_terms):
                found.append(b)
        return found[: max(limit, 0)]

    def closed_by_user_each(
        self, owner: Owner, *, subjects: Sequence[str], verbs: Sequence[str], limit_per_key: int
    ) -> Tombstones:
        subjects, verbs = list(dict.fromkeys(subjects)), list(dict.fromkeys(verbs))
        if not self._keys:
            return Tombstones(
                by_subject={
                    s: self._unkeyed_closed_by_user(owner, subjects=[s], verbs=[], limit=limit_per_key)
                    for s in subjects
                },
                by_verb={
                    v: self._unkeyed_closed_by_user(owner, subjects=[], verbs=[v], limit=limit_per_key)
                    for v in verbs
                },
            )
        by_subject: dict[str, list[MemoryRecord]] = {s: [] for s in subjects}
        by_verb: dict[str, list[MemoryRecord]] = {v: [] for v in verbs}
        if (not subjects and not verbs) or limit_per_key <= 0:
            return Tombstones(by_subject=by_subject, by_verb=by_verb)
        rows = self._c.execute(
            closed_by_user_each_statement(limit_per_key),
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
                by_subject[row.key_value].append(memory_record(row))
            else:
                by_stored_verb.setdefault(row.key_value, []).append(memory_record(row))
        for verb in verbs:
            by_verb[verb] = list(by_stored_verb.get(verb[:64], []))
        return Tombstones(by_subject=by_subject, by_verb=by_verb)

    def _unkeyed_closed_by_user(
        self, owner: Owner, *, subjects: Sequence[str], verbs: Sequence[str], limit: int
    ) -> list[MemoryRecord]:
        """Before the match-keys revision: the owner's tombstones newest first, each main verb computed."""
        reasons = sorted(r.value for r in USER_CLOSED_REASONS)
        closed = select(*self._columns).where(owned(beliefs, owner), beliefs.c.closed_reason.in_(reasons))
        rows = self._c.execute(closed.order_by(beliefs.c.valid_to.desc(), beliefs.c.id.desc()))
        found = [
            b
            for b in (memory_record(row) for row in rows)
            if b.subject in subjects or match_keys(b.statement)[0] in verbs
        ]
        return found[: max(limit, 0)]

    def existing_ids(self, owner: Owner, ids: Sequence[UUID]) -> set[UUID]:
        if not ids:
            return set()
        rows = self._c.execute(
            EXISTING_IDS,
            {"tenant_id": owner.tenant_id, "principal_id": owner.principal_id, "ids": list(set(ids))},
        )
        return {row.id for row in rows}

    def look_up(self, owner: Owner, wanted: BeliefLookups) -> LookedUp:
        if not self._keys or wanted.match_limit <= 0 or wanted.tombstone_limit <= 0:
            return look_up_each(self, owner, wanted)
        keys = list(dict.fromkeys((verb, tuple(containing)) for verb, containing in wanted.verb_keys))
        subjects = list(dict.fromkeys(wanted.tombstone_subjects))
        verbs = list(dict.fromkeys(wanted.tombstone_verbs))
        statement = look_up_statement(
            tuple(c.name for c in self._columns), has_terms(keys), wanted.match_limit, wanted.tombstone_limit
        )
        params = verb_parameters(owner, keys) | {
            "subjects": list(dict.fromkeys(wanted.subjects)),
            "ids": list(set(wanted.ids)),
            "subjects_closed": subjects,
            "verbs_closed": list(dict.fromkeys(v[:64] for v in verbs)),
        }
        live: list[MemoryRecord] = []
        entries: dict[VerbKey, list[VerbEntry]] = {key: [] for key in keys}
        by_subject: dict[str, list[MemoryRecord]] = {s: [] for s in subjects}
        by_stored_verb: dict[str, list[MemoryRecord]] = {}
        existing: set[UUID] = set()
        for row in self._c.execute(statement, params):
            if row.key_kind == "entry":
                entries[keys[row.key_index]].append(VerbEntry(row.id, row.statement, tuple(row.terms or ())))
            elif row.key_kind == "id":
                existing.add(row.id)
            elif row.key_kind == "live":
                live.append(memory_record(row))
            elif row.key_kind == "subject":
                by_subject[row.key_value].append(memory_record(row))
            else:
                by_stored_verb.setdefault(row.key_value, []).append(memory_record(row))
        # In the order each read answers in on its own.
        for found in (*by_subject.values(), *by_stored_verb.values()):
            found.sort(key=lambda b: (b.valid_to, b.id), reverse=True)
        for pool in entries.values():
            pool.sort(key=lambda e: e.id)
        return LookedUp(
            live=sorted(live, key=lambda b: b.id),
            entries=entries,
            tombstones=Tombstones(
                by_subject=by_subject, by_verb={v: list(by_stored_verb.get(v[:64], [])) for v in verbs}
            ),
            existing=existing,
        )

    def upsert(self, record: MemoryRecord) -> None:
        self._c.execute(UPSERT[self._keys, self._expires, self._search, self._vectors], self._row(record))

    def upsert_many(self, records: Sequence[MemoryRecord]) -> None:
        latest = {record.id: record for record in records}
        if latest:
            rows = [self._row(record) for record in latest.values()]
            self._c.execute(UPSERT[self._keys, self._expires, self._search, self._vectors], rows)

    def close_validity(
        self, owner: Owner, belief_id: UUID, at: datetime, reason: ClosedReason
    ) -> MemoryRecord | None:
        row = self._c.execute(
            update(beliefs)
            .where(owned(beliefs, owner), beliefs.c.id == belief_id, beliefs.c.valid_to.is_(None))
            .values(valid_to=at, closed_reason=reason.value, updated_at=at, version=beliefs.c.version + 1)
            .returning(*self._columns)
        ).first()
        return memory_record(row) if row else None

    def expiry_candidates(
        self, cutoffs: ExpiryCutoffs, after: ExpiryCursor | None, limit: int, lane: SweepLane = WHOLE_ID_SPACE
    ) -> list[ExpiryFacts]:
        query = (
            select(*FACT_COLUMNS)
            .where(
                beliefs.c.valid_to.is_(None),
                # The range bound (and the cursor's lower bound below) is what lets the partial
                # expiry index on last_evidence_at drive the scan.
                beliefs.c.last_evidence_at <= cutoffs.scan_until,
                beliefs.c.derivation.is_not(None),
                beliefs.c.longevity.is_not(None),
                beliefs.c.claim_kind.is_not(None),
                expired_sql(cutoffs),
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
        return [expiry_facts_of(row) for row in self._c.execute(query)]

    def retire(self, retirements: Sequence[Retirement]) -> list[Retirement]:
        if not retirements:
            return []
        facts = [r.facts for r in retirements]
        closed = self._c.execute(
            RETIRE,
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
            .where(owned(beliefs, owner), beliefs.c.id == belief_id, beliefs.c.valid_to.is_(None))
            .values(values)
            .returning(beliefs.c.id)
        ).first()
        return row is not None


# pgvector's default is 40. In the 1M store 200 finds more of a 100k owner's exact nearest 50 than 100 (33.7
# against 30.4 of them) for about half a millisecond more a recall; 400 finds 34.9 for about 1.3 ms, 800 37.5
# for about 2 ms (recall's goal is 20 ms at that owner; docs/evaluation/recall-by-meaning.md).
HNSW_EF_SEARCH = 200
# An owner holding at most this many live beliefs has its nearest read by an exact scan of its rows, a larger
# one through the model's HNSW index. In a store of 1M beliefs the two cost the same at about 10,000 rows
# (the scan about 2 us a row; the index walk passes over every other owner's vectors it meets, so its cost
# falls as the owner's share of the index grows), and the scan gives the exact order the index only
# approaches (docs/evaluation/recall-by-meaning.md).
EXACT_NEAREST_UP_TO = 10_000


def _literal(vector: Sequence[float]) -> str:
    """pgvector's text form, cast in the statement: no adapter registration on the connection needed."""
    return "[" + ",".join(f"{float(x):.7g}" for x in vector) + "]"


def _neighbour(row: Sequence[Any]) -> Neighbour:
    return Neighbour(ranking_inputs_of(*row[:5]), float(row[5]))
