"""Statements the belief repository builds ahead: the upsert, the batched main-verb and tombstone lookups,
the ranking page and the id check."""

import functools
from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy import and_, bindparam, case, null, select, text
from sqlalchemy.dialects.postgresql import insert

from adapters.postgres.legacy import LEGACY_DERIVATION, legacy_mapping
from adapters.postgres.repositories.rows import stored_columns
from adapters.postgres.tables import USER_CLOSED_WHERE, beliefs
from domain.beliefs.records import Authority
from domain.beliefs.relevance import MATCHES_PER_TERM
from domain.beliefs.retrieval import RankingInputs
from domain.candidates import ClaimKind, Derivation, Longevity
from domain.owner import Owner
from domain.ports import VerbKey


def _upsert_statement(
    with_match_keys: bool, with_expires_at: bool, with_recall_search: bool, with_embeddings: bool
) -> Any:
    """INSERT ... ON CONFLICT (id) DO UPDATE of every column, built once: executed with one row or many. A
    belief whose subject or statement changes loses its vector (it no longer says what was embedded)."""
    names = [c.name for c in stored_columns(with_match_keys, with_expires_at, with_recall_search)]
    statement = insert(beliefs)
    changed: dict[str, Any] = {
        n: statement.excluded[n] for n in names if n not in ("id", "tenant_id", "principal_id")
    }
    if with_embeddings:
        same_text = and_(
            beliefs.c.subject == statement.excluded.subject,
            beliefs.c.statement == statement.excluded.statement,
        )
        for name in ("embedding", "embedding_model"):
            changed[name] = case((same_text, beliefs.c[name]), else_=null())
    # The owner condition keeps an id that belongs to someone else from being overwritten.
    return statement.on_conflict_do_update(
        index_elements=[beliefs.c.id],
        set_=changed,
        where=and_(
            beliefs.c.tenant_id == statement.excluded.tenant_id,
            beliefs.c.principal_id == statement.excluded.principal_id,
        ),
    )


UPSERT = {
    (keys, expires, search, vectors): _upsert_statement(keys, expires, search, vectors)
    for keys in (True, False)
    for expires in (True, False)
    for search in (True, False)
    for vectors in (True, False)
}

# Only for a store with match keys.
# expires_at, evidence_spans and search are left out: a tombstone lookup needs none of them, and each is
# absent before its revision.
_BELIEF_COLUMNS = ", ".join(
    f"b.{c.name}"
    for c in beliefs.c
    if c.name not in ("expires_at", "evidence_spans", "search", "embedding", "embedding_model")
)


def verb_parameters(owner: Owner, wanted: Sequence[VerbKey]) -> dict[str, Any]:
    """The parameters of verb_entries_statement's branches, one verb (and its lemmas, if any) per key."""
    params: dict[str, Any] = {"tenant_id": owner.tenant_id, "principal_id": owner.principal_id}
    for i, (verb, containing) in enumerate(wanted):
        params[f"verb_{i}"] = verb[:64]
        if containing:
            params[f"terms_{i}"] = list(containing)
    return params


def has_terms(wanted: Sequence[VerbKey]) -> tuple[bool, ...]:
    return tuple(bool(containing) for _, containing in wanted)


def _verb_branches(containing: tuple[bool, ...], limit: int) -> str:
    """One branch per key, UNION ALL: each branch is planned for its own verb (a common verb walks the id
    index, a rare one reads its few rows from the verb index), which one LATERAL plan for all keys cannot
    do. The limit is a literal: a generic plan for a prepared statement would assume a LIMIT parameter reads
    a tenth of the rows and sort them all."""
    branches = []
    for i, with_terms in enumerate(containing):
        terms = f" AND terms @> CAST(:terms_{i} AS text[])" if with_terms else ""
        branches.append(
            f"(SELECT {i} AS key_index, id, statement, terms FROM beliefs"
            " WHERE tenant_id = :tenant_id AND principal_id = :principal_id AND valid_to IS NULL"
            f" AND main_verb = :verb_{i}{terms} ORDER BY id LIMIT {int(limit)})"
        )
    return " UNION ALL ".join(branches)


@functools.cache
def verb_entries_statement(containing: tuple[bool, ...], limit: int) -> Any:
    """Each key's live beliefs as (key_index, id, statement, terms), by id (_verb_branches). Cached by
    which keys carry content lemmas."""
    return text(f"SELECT * FROM ({_verb_branches(containing, limit)}) AS found ORDER BY key_index, id")


def _tombstone_branch(kind: str, column: str, keys: str, columns: str, limit: int) -> str:
    """Each key's newest tombstones, through the partial indexes (whose predicate is spelled here as they
    spell it); the limit is a literal for the reason _verb_branches gives."""
    return f"""
        SELECT '{kind}' AS key_kind, k.key_value, {columns}
          FROM unnest(CAST(:{keys} AS text[])) AS k(key_value)
         CROSS JOIN LATERAL (
               SELECT * FROM beliefs
                WHERE tenant_id = :tenant_id AND principal_id = :principal_id AND {USER_CLOSED_WHERE}
                  AND {column} = k.key_value
                ORDER BY valid_to DESC, id DESC
                LIMIT {int(limit)}) AS b"""


@functools.cache
def get_many_statement(columns: tuple[Any, ...]) -> Any:
    """The owner's rows of a list of ids, every column given, by id: a statement built once (recall reads its
    top ten with it), where a select built per call cost more than the rows it read."""
    names = ", ".join(column.name for column in columns)
    return text(
        f"SELECT {names} FROM beliefs WHERE tenant_id = :tenant_id AND principal_id = :principal_id"
        " AND id = ANY(CAST(:ids AS uuid[])) ORDER BY id"
    ).columns(*columns)


@functools.cache
def closed_by_user_each_statement(limit: int) -> Any:
    """Each subject's and each verb's newest tombstones."""
    return text(
        f"""
        {_tombstone_branch("subject", "subject", "subjects", _BELIEF_COLUMNS, limit)}
        UNION ALL
        {_tombstone_branch("verb", "main_verb", "verbs", _BELIEF_COLUMNS, limit)}
        ORDER BY key_kind, key_value, valid_to DESC, id DESC
        """
    )


@functools.cache
def most_recent_statement(columns: tuple[Any, ...]) -> Any:
    """BeliefRepository.most_recent's read, built once per column set: two stages of every segment read
    their cue pool with it, and built anew for each read it took 40% more CPU (reading ten beliefs)."""
    return (
        select(*columns)
        .where(
            beliefs.c.tenant_id == bindparam("tenant_id"),
            beliefs.c.principal_id == bindparam("principal_id"),
            beliefs.c.valid_to.is_(None),
            beliefs.c.sensitivity.in_(bindparam("sensitivities", expanding=True)),
        )
        .order_by(beliefs.c.updated_at.desc(), beliefs.c.id.desc())
        .limit(bindparam("limit"))
    )


@functools.cache
def look_up_statement(
    columns: tuple[str, ...], containing: tuple[bool, ...], match_limit: int, tombstone_limit: int
) -> Any:
    """BeliefRepository.look_up's four reads as one statement: the branches by_subjects, verb_entries,
    closed_by_user_each and existing_ids run alone, UNION ALL over one row shape (key_kind, key_value,
    key_index, then the belief's columns; an entry's or an id's row carries only what its read reads, NULL
    for the rest). Rows come in no particular order. Cached by the columns and which keys carry lemmas."""
    full = ", ".join(f"b.{c}" for c in columns)

    def only(kept: dict[str, str]) -> str:
        return ", ".join(kept.get(c, "NULL") for c in columns)

    owner = "b.tenant_id = :tenant_id AND b.principal_id = :principal_id"
    branches = [
        f"SELECT 'live' AS key_kind, NULL AS key_value, 0 AS key_index, {full} FROM beliefs AS b"
        f" WHERE {owner} AND b.subject = ANY(CAST(:subjects AS text[])) AND b.valid_to IS NULL",
        f"SELECT 'id', NULL, 0, {only({'id': 'b.id'})} FROM beliefs AS b"
        f" WHERE {owner} AND b.id = ANY(CAST(:ids AS uuid[]))",
    ]
    for kind, column, keys in (
        ("subject", "subject", "subjects_closed"),
        ("verb", "main_verb", "verbs_closed"),
    ):
        tombstones = _tombstone_branch(kind, column, keys, full, tombstone_limit)
        branches.append(f"SELECT b.key_kind, b.key_value, 0, {full} FROM ({tombstones}) AS b")
    if containing:
        entry = only({"id": "v.id", "statement": "v.statement", "terms": "v.terms"})
        branches.append(
            f"SELECT 'entry', NULL, v.key_index, {entry} FROM ({_verb_branches(containing, match_limit)}) AS v"
        )
    return text(" UNION ALL ".join(f"({branch})" for branch in branches))


# The ranking inputs of a row: the four shape columns travel as one string (a principal's rows have a
# handful of shapes, decoded once each); a row the lifecycle@2 backfill has not reached reads as
# memory_record reads it (its belief_type's legacy mapping, evidence at valid_from).
_RANKING_COLUMNS = (
    "id, coalesce(last_evidence_at, valid_from) AS last_evidence_at, confidence, utility,"
    " concat_ws('|', coalesce(claim_kind, ''), coalesce(longevity, ''), coalesce(derivation, ''),"
    " authority, CASE WHEN claim_kind IS NULL OR longevity IS NULL THEN belief_type ELSE '' END) AS shape"
)
_WITHIN = "valid_to IS NULL AND sensitivity = ANY(CAST(:sensitivities AS text[]))"
_LIVE_WITHIN = f"tenant_id = :tenant_id AND principal_id = :principal_id AND {_WITHIN}"
# The same rows, for a read through beliefs_owner_search_live: the tenant compared in a form that index
# cannot use, so the scan intersects the principal's and the words' posting lists and not also the
# tenant's, the longest of all (every principal's rows: in a store of 1M beliefs it doubled the scan's time).
# The row's tenant is still compared, on the row.
_SEARCHED_WITHIN = f"tenant_id || '' = :tenant_id AND principal_id = :principal_id AND {_WITHIN}"
# For a read through beliefs_owner_words_live (revision 0017): the owner is in every key that index reads,
# so both owner columns are compared on the row only (a form no other index of the table can use).
_OWNED_WITHIN = f"tenant_id || '' = :tenant_id AND principal_id || '' = :principal_id AND {_WITHIN}"
# The owner's key as belief_owner_search (revision 0017) prefixes each of its lexemes.
_OWNER_KEY = (
    "translate(left(md5(CAST(:tenant_id AS text) || '/' || CAST(:principal_id AS text)), 12),"
    " '0123456789', 'ghijklmnop')"
)


def _ranking_page_statement(with_after: bool) -> Any:
    """Only the ranking inputs, through beliefs_owner_id in id order."""
    after = " AND id > :after" if with_after else ""
    return text(
        f"SELECT {_RANKING_COLUMNS} FROM beliefs WHERE {_LIVE_WITHIN}{after} ORDER BY id LIMIT :limit"
    )


RANKING_PAGE = {with_after: _ranking_page_statement(with_after) for with_after in (False, True)}


# What the walk passes up for _RANKING_COLUMNS and _LIVE_WITHIN to read.
_WALKED_COLUMNS = (
    "id, tenant_id, principal_id, valid_to, sensitivity, last_evidence_at, valid_from, confidence, utility,"
    " claim_kind, longevity, derivation, authority, belief_type"
)
# The walk reads at most this many rows in distance order, pgvector's default bound on what an iterative scan
# visits (hnsw.max_scan_tuples): the planner weighs the index against sorting the table by that many.
_WALKED_UP_TO = 20_000


@functools.cache
def nearest_statement(indexed: tuple[str, int] | None) -> Any:
    """An owner's live beliefs of one model nearest a query vector (cosine distance), then by id, in one
    statement. Without an index for the model: an exact scan of the owner's rows (the plain expression, which
    no index serves). With one, indexed = (model, dimension) of tables.INDEXED_EMBEDDING_MODELS: the owner's
    live rows are counted up to exact_up_to + 1 (an index-only read) and only one of two branches runs, each
    gated on that count: the exact scan for a small owner, or the index walk for a large one, which sets
    pgvector's iterative scan (relaxed order, so the rows are sorted again by exact distance) and its
    candidate list for this transaction before its first row is read. The walk is the index in distance
    order, at most _WALKED_UP_TO rows of it, with the owner filtered above it: the subquery's LIMIT keeps the
    filter out of the scan, where the planner would weigh an exact scan of the owner's rows against the index
    (and a prepared statement's generic plan, which knows no owner, would choose one for every owner); the
    model is a literal so that plan too proves the partial index's predicate. When the walk finds fewer
    than limit rows, the exact scan runs instead."""
    columns = f"{_RANKING_COLUMNS}, embedding <=> CAST(:vector AS vector) AS distance"
    exact = f"""
            SELECT {columns}
              FROM beliefs
             WHERE {_LIVE_WITHIN} AND embedding_model = :model{{gate}}
             ORDER BY embedding <=> CAST(:vector AS vector)
             LIMIT :limit"""
    if indexed is None:
        return text(
            f"""
            WITH near AS MATERIALIZED ({exact.format(gate="")})
            SELECT id, last_evidence_at, confidence, utility, shape, 1 - distance FROM near ORDER BY distance, id
            """
        )
    model, dimension = indexed
    if "'" in model:
        raise ValueError(f"an indexed model's name is written into SQL: {model!r}")
    distance = f"embedding::vector({dimension}) <=> CAST(:vector AS vector({dimension}))"
    return text(
        f"""
        WITH owned AS MATERIALIZED (
            SELECT count(*) > :exact_up_to AS large
              FROM (SELECT FROM beliefs
                     WHERE tenant_id = :tenant_id AND principal_id = :principal_id AND valid_to IS NULL
                     LIMIT :exact_up_to + 1) AS live
        ),
        walked AS MATERIALIZED (
            SELECT {_RANKING_COLUMNS}, distance
              FROM (SELECT {_WALKED_COLUMNS}, {distance} AS distance
                      FROM beliefs
                     WHERE valid_to IS NULL AND embedding_model = '{model}'
                       AND (SELECT large AND set_config('hnsw.iterative_scan', 'relaxed_order', true) <> ''
                                 AND set_config('hnsw.ef_search', :ef_search, true) <> '' FROM owned)
                     ORDER BY {distance}
                     LIMIT {_WALKED_UP_TO}) AS walk
             WHERE {_LIVE_WITHIN}
             LIMIT :limit
        ),
        near AS MATERIALIZED (
            SELECT * FROM walked WHERE (SELECT count(*) FROM walked) = :limit
            UNION ALL
            ({exact.format(gate=" AND (SELECT count(*) FROM walked) < :limit")})
        )
        SELECT id, last_evidence_at, confidence, utility, shape, 1 - distance FROM near ORDER BY distance, id
        """
    )


PENDING_EMBEDDINGS = {
    (with_after, with_owner): text(
        "SELECT id, tenant_id, principal_id, subject, statement FROM beliefs"
        " WHERE valid_to IS NULL AND embedding_model IS DISTINCT FROM :model"
        + (" AND tenant_id = :tenant_id AND principal_id = :principal_id" if with_owner else "")
        + (" AND id > :after" if with_after else "")
        + " ORDER BY id LIMIT :limit"
    )
    for with_after in (False, True)
    for with_owner in (False, True)
}

# Only where the belief still says what was embedded: an edit in between keeps its vector NULL.
STORE_EMBEDDINGS = text(
    """
    UPDATE beliefs AS b SET embedding = CAST(v.vector AS vector), embedding_model = :model
      FROM unnest(CAST(:ids AS uuid[]), CAST(:subjects AS text[]), CAST(:statements AS text[]),
                  CAST(:vectors AS text[])) AS v(id, subject, statement, vector)
     WHERE b.id = v.id AND b.valid_to IS NULL AND b.subject = v.subject AND b.statement = v.statement
    """
)


# The owner's live matches, read from beliefs_owner_search_live alone. Each term's two queries, its words'
# (held directly) and its relatives' (domain.beliefs.relevance.SearchedTerm; NULL without relatives), each
# lexemes ORed, each word letters and digits only, so nothing in it is query syntax, and the OR of them all,
# are built once per call (to_tsvector leaves a stop word out silently, where plainto_tsquery would send a
# notice for every row; 'simple' only parses the lexemes; a term of stop words alone has no query and is held
# by nothing).
# A match holds a term when it satisfies either of its queries (h<k>: d<k> directly, r<k> through a
# relative); its coverage is how many terms it holds, direct how many it holds directly, its weight the sum
# of their domain.beliefs.relevance.term_weight, ln(matches + 1) - ln(matches holding the term), counted over
# every match read. The pool is the limit matches of highest coverage, then direct, then weight, freshest
# evidence first among equals: a cheap stand-in for the order the domain then applies to it, which must not
# leave out a match holding the query's word for newer ones holding only a relative. One statement per term
# count with each term spelled out (a subquery per row, to unnest the term queries or look a weight up, cost
# more than reading the row; the bound is a literal for the reason verb_entries_statement gives); every
# match is read once, keeping only its id, evidence time and which terms it holds and how, and only the
# pool's rows are read again for their ranking columns, subject and statement (for the domain's tie-breaks),
# by primary key.
# Unbounded, one scan of the OR of every query reads every holder of any term once (a branch per term and a
# UNION read a holder of two terms twice and hashed every row: 20 ms where this takes 16 for two common words
# at a 100k-belief owner). Bounded, two branches per term, its words' and its relatives', each read at most
# domain.beliefs.relevance.MATCHES_PER_TERM of the live beliefs satisfying it (in index order), so a
# relative held by thousands cannot crowd the holders of the word itself out of the sample; each row with
# which terms it holds and how, and UNION keeps each row once. A branch is cut when at least MATCHES_PER_TERM
# of the matches read satisfy it (cd<k>, cr<k>), and a match is by_bound when it holds every term it holds
# through a cut branch (directly: the words' branch; only through a relative: the relatives'). When every
# match read is by_bound, recall would read the query again unbounded: the statement does it there and then
# (`matched` runs only under that one-time condition) and returns that pool instead, none of it by_bound,
# sparing recall a second statement and a fusion of a sample it would throw away.
# Cached by which terms have relatives: a term without them (a name, a number, a word read from an idiom)
# has no relatives' branch and r<k> is false, which spares a branch's planning (about 0.15 ms each) and a
# test per row.
@functools.lru_cache(maxsize=1024)
def matching_statement(related: tuple[bool, ...], bounded: bool, by_owner_words: bool = True) -> Any:
    terms = range(1, len(related) + 1)
    if by_owner_words:
        # each query spelled again with the owner's key before every lexeme, matched against the rows'
        # lexemes keyed alike: what beliefs_owner_words_live indexes (the rows read are the same)
        within, searched, queries = (
            _OWNED_WITHIN,
            "belief_owner_search(tenant_id, principal_id, search)",
            "owned_",
        )
    else:
        within, searched, queries = _SEARCHED_WITHIN, "search", ""
    row = "id AS match_id, coalesce(last_evidence_at, valid_from) AS evidence_at, " + ", ".join(
        f"(search @@ wanted.direct[{k}]) IS TRUE AS d{k}, "
        + (f"(search @@ wanted.related[{k}]) IS TRUE" if related[k - 1] else "false")
        + f" AS r{k}"
        for k in terms
    )
    holding = ", ".join(f"ln(greatest(count(*) FILTER (WHERE d{k} OR r{k}), 1)) AS n{k}" for k in terms)
    coverage = " + ".join(f"(d{k} OR r{k})::int" for k in terms)
    direct = " + ".join(f"d{k}::int" for k in terms)
    weight = " + ".join(f"CASE WHEN d{k} OR r{k} THEN m - n{k} ELSE 0 END" for k in terms)
    every = f"SELECT {row} FROM beliefs, wanted WHERE {within} AND {searched} @@ wanted.{queries}any_term"

    def pooled(matches: str, totals: str, by_bound: str) -> str:
        return (
            f"SELECT match_id, evidence_at, {coverage} AS coverage, {direct} AS direct, {weight} AS weight,"
            f" {by_bound} AS by_bound FROM {matches}, {totals}"
        )

    if bounded:
        branches = " UNION ".join(
            f"(SELECT {row} FROM beliefs, wanted WHERE {within} AND {searched} @@ wanted.{queries}{query}[{k}]"
            f" LIMIT {MATCHES_PER_TERM})"
            for k in terms
            for query in ("direct", "related")
            if query == "direct" or related[k - 1]
        )
        counted = ", ".join(
            f"count(*) FILTER (WHERE d{k}) >= {MATCHES_PER_TERM} AS cd{k},"
            f" count(*) FILTER (WHERE r{k}) >= {MATCHES_PER_TERM} AS cr{k},"
            f" bool_or(d{k}) AS ad{k}, bool_or(r{k} AND NOT d{k}) AS ar{k}"
            for k in terms
        )
        by_bound = (
            "NOT ("
            + " OR ".join(f"(d{k} AND NOT cd{k}) OR (r{k} AND NOT d{k} AND NOT cr{k})" for k in terms)
            + ")"
        )
        # every match read is by_bound: read some, and no term held directly (ad) through an uncut words'
        # branch, nor only through its relatives (ar) through an uncut relatives' branch
        every_bound = "read > 0 AND " + " AND ".join(
            f"(cd{k} OR NOT ad{k}) AND (cr{k} OR NOT ar{k})" for k in terms
        )
        reads = f"""
        sampled AS MATERIALIZED ({branches}),
        sampled_totals AS MATERIALIZED (
            SELECT *, {every_bound} AS every_bound
              FROM (SELECT count(*) AS read, ln(count(*) + 1) AS m, {holding}, {counted} FROM sampled) AS counts),
        matched AS MATERIALIZED ({every} AND (SELECT every_bound FROM sampled_totals)),
        totals AS MATERIALIZED (SELECT ln(count(*) + 1) AS m, {holding} FROM matched),
        candidates AS (
            {pooled("sampled", "sampled_totals", by_bound)} WHERE NOT every_bound
            UNION ALL
            {pooled("matched", "totals", "false")}),"""
    else:
        reads = f"""
        matched AS MATERIALIZED ({every}),
        totals AS MATERIALIZED (SELECT ln(count(*) + 1) AS m, {holding} FROM matched),
        candidates AS ({pooled("matched", "totals", "false")}),"""
    owned = owned_each = ""
    if by_owner_words:
        # quoted lexemes cast to tsquery are taken as they are (to_tsquery would parse the keyed words)
        def keyed(lexemes: str) -> str:
            return (
                f"(SELECT string_agg(quote_literal({_OWNER_KEY} || lexeme), ' | ')"
                f" FROM unnest(tsvector_to_array({lexemes})) AS lexeme)"
            )

        owned = (
            ", array_agg(owned_direct ORDER BY n) AS owned_direct,"
            " array_agg(owned_related ORDER BY n) AS owned_related,"
            " CAST(string_agg(owned_any, ' | ') AS tsquery) AS owned_any_term"
        )
        owned_each = (
            f", CAST({keyed('w')} AS tsquery) AS owned_direct, CAST({keyed('r')} AS tsquery) AS owned_related,"
            f" {keyed('w || r')} AS owned_any"
        )
    return text(
        f"""
        WITH wanted AS MATERIALIZED (
            SELECT array_agg(direct ORDER BY n) AS direct, array_agg(related ORDER BY n) AS related,
                   to_tsquery('simple', string_agg(any_word, ' | ')) AS any_term{owned}
              FROM (SELECT t.n,
                           CASE WHEN length(w) > 0
                                THEN to_tsquery('simple', array_to_string(tsvector_to_array(w), ' | ')) END
                               AS direct,
                           CASE WHEN length(r) > 0
                                THEN to_tsquery('simple', array_to_string(tsvector_to_array(r), ' | ')) END
                               AS related,
                           nullif(array_to_string(tsvector_to_array(w || r), ' | '), '') AS any_word{owned_each}
                      FROM unnest(CAST(:words AS text[]), CAST(:relatives AS text[]))
                               WITH ORDINALITY AS t(words, relatives, n),
                           to_tsvector('english', t.words) AS w,
                           to_tsvector('english', t.relatives) AS r) AS each_term),{reads}
        pool AS MATERIALIZED (
            SELECT * FROM candidates
             ORDER BY coverage DESC, direct DESC, weight DESC, evidence_at DESC, match_id
             LIMIT :limit)
        SELECT {_RANKING_COLUMNS}, pool.coverage, pool.direct, pool.weight, beliefs.subject, beliefs.statement,
               pool.by_bound
          FROM pool JOIN beliefs ON beliefs.id = pool.match_id
         ORDER BY pool.coverage DESC, pool.direct DESC, pool.weight DESC, pool.evidence_at DESC, pool.match_id
        """
    )


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


def ranking_inputs_of(
    belief_id: UUID, last_evidence_at: datetime, confidence: float, utility: float, shape: str
) -> RankingInputs:
    kind, longevity, derivation, authority = _shape(shape)
    return RankingInputs(
        belief_id, kind, longevity, derivation, authority, last_evidence_at, confidence, utility
    )


EXISTING_IDS = text(
    """
    SELECT id FROM beliefs
     WHERE tenant_id = :tenant_id AND principal_id = :principal_id AND id = ANY(CAST(:ids AS uuid[]))
    """
)
