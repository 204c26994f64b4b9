"""PostgreSQL table definitions at the migrations' head. Rows, not domain values: repositories translate.

The migrations in ``migrations/versions`` are frozen history and do not import this module; a test
compares this metadata with the schema the migrations build, so the two cannot drift apart silently.
"""

from typing import Final

from pgvector.sqlalchemy import Vector
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Computed,
    DateTime,
    Float,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    Uuid,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, TSVECTOR

metadata = MetaData()

OWNER_ID = String(128)
# Must list domain.beliefs.records.USER_CLOSED_REASONS; spelled out because a partial index predicate is frozen SQL.
USER_CLOSED_WHERE = "closed_reason IN ('retracted', 'rejected', 'deleted', 'edited')"


def _owner_columns() -> list[Column[str]]:
    return [Column("tenant_id", OWNER_ID, nullable=False), Column("principal_id", OWNER_ID, nullable=False)]


source_events = Table(
    "source_events",
    metadata,
    *_owner_columns(),
    Column("session_id", Uuid, nullable=False),
    Column("seq", BigInteger, nullable=False),
    Column("kind", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("occurred_at", DateTime(timezone=True), nullable=False),
    # Appended below the watermark and not consolidated yet: the next round plans it on its own.
    Column("late_pending", Boolean, nullable=False, server_default=text("false")),
    # The server's clock when the event was stored: what a sequence gap's grace is measured from.
    Column("received_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
    PrimaryKeyConstraint("tenant_id", "principal_id", "session_id", "seq", name="source_events_pkey"),
    Index(
        "source_events_late_pending",
        "tenant_id",
        "principal_id",
        "session_id",
        "seq",
        postgresql_where=text("late_pending"),
    ),
)

integrated_episodes = Table(
    "integrated_episodes",
    metadata,
    Column("id", Uuid, primary_key=True),
    *_owner_columns(),
    Column("session_id", Uuid, nullable=False),
    Column("source_event_ids", JSONB, nullable=False),
    Column("source_started_at", DateTime(timezone=True), nullable=False),
    Column("source_ended_at", DateTime(timezone=True), nullable=False),
    Column("narrative", Text, nullable=False),
    # [start, end) of the one source event, for the episode of a piece only (0016_episode_source_chars).
    Column("source_chars", JSONB),
    Column("subjects", JSONB, nullable=False),
    Column("integration_policy_version", String(64), nullable=False),
    Column("derivation_key", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint(
        "tenant_id", "principal_id", "derivation_key", name="integrated_episodes_owner_derivation_key"
    ),
    Index("integrated_episodes_owner_session", "tenant_id", "principal_id", "session_id"),
)

beliefs = Table(
    "beliefs",
    metadata,
    Column("id", Uuid, primary_key=True),
    *_owner_columns(),
    # lifecycle@1 columns, kept as they were
    Column("belief_type", String(64), nullable=False),
    Column("statement", Text, nullable=False),
    Column("subject", String(120), nullable=False),
    Column("confidence", Float, nullable=False),
    Column("source_events", JSONB, nullable=False),
    Column("valid_from", DateTime(timezone=True), nullable=False),
    Column("valid_to", DateTime(timezone=True)),
    Column("closed_reason", String(64)),
    Column("last_reinforced_at", DateTime(timezone=True)),
    Column("corroboration_count", Integer, nullable=False, server_default=text("1")),
    Column("formation_version", String(64), nullable=False),
    # lifecycle@2 columns; nullable where the data revision backfills old rows
    Column("claim_kind", String(64)),
    Column("derivation", String(32)),
    Column("longevity", String(32)),
    Column("last_evidence_at", DateTime(timezone=True)),
    Column("last_used_at", DateTime(timezone=True)),
    Column("evidence_count", Integer),
    Column("lifecycle_policy_version", String(64)),
    Column("sensitivity", String(32), nullable=False, server_default=text("'internal'")),
    Column("authority", String(32), nullable=False, server_default=text("'automatic'")),
    Column("utility", Float, nullable=False, server_default=text("0")),
    Column("channel", String(64)),
    Column("updated_at", DateTime(timezone=True)),
    Column("version", Integer, nullable=False, server_default=text("0")),
    # added by the match-keys revision: the statement's main verb and content lemmas, so a commit looks up
    # the few beliefs a candidate could match or a retraction could end instead of scanning the principal
    Column("main_verb", String(64)),
    Column("terms", ARRAY(Text)),
    # added by the expires_at revision: last_evidence_at + the lifecycle horizon (domain.beliefs.lifecycle.expires_at),
    # written with every upsert; NULL when the belief never decays automatically
    Column("expires_at", DateTime(timezone=True)),
    # added by the recall-search revision: the exact cited text of each source event (NULL before it), and
    # the generated full-text vector of subject and statement that recall with a query searches
    Column("evidence_spans", JSONB),
    Column(
        "search",
        TSVECTOR,
        Computed(
            "to_tsvector('english'::regconfig, (subject::text || ' '::text) || statement)", persisted=True
        ),
    ),
    # added by the embeddings revision: the belief's unit vector (pgvector, any dimension) and the model that
    # made it (domain.beliefs.embedding); both NULL until it is embedded, and again when its text changes
    Column("embedding", Vector()),
    Column("embedding_model", String(128)),
    # A commit's per-verb lookup reads its first n live rows by id straight from this index (revision 0007).
    Index(
        "beliefs_owner_verb_id_live",
        "tenant_id",
        "principal_id",
        "main_verb",
        "id",
        postgresql_where=text("valid_to IS NULL"),
    ),
    Index(
        "beliefs_owner_subject_user_closed",
        "tenant_id",
        "principal_id",
        "subject",
        postgresql_where=text(USER_CLOSED_WHERE),
    ),
    Index(
        "beliefs_owner_verb_user_closed",
        "tenant_id",
        "principal_id",
        "main_verb",
        postgresql_where=text(USER_CLOSED_WHERE),
    ),
    Index(
        "beliefs_owner_subject_live",
        "tenant_id",
        "principal_id",
        "subject",
        postgresql_where=text("valid_to IS NULL"),
    ),
    Index("beliefs_owner_id", "tenant_id", "principal_id", "id"),
    # The sweep's page: exactly the live rows past their horizon, in (expires_at, id) order.
    Index(
        "beliefs_expires_live",
        "expires_at",
        "id",
        postgresql_where=text("valid_to IS NULL AND expires_at IS NOT NULL"),
    ),
)
# Recall with a query reads an owner's matching live beliefs through this index alone (revision 0010;
# btree_gin indexes the owner columns).
Index(
    "beliefs_owner_search_live",
    beliefs.c.tenant_id,
    beliefs.c.principal_id,
    beliefs.c.search,
    postgresql_using="gin",
    postgresql_where=text("valid_to IS NULL"),
)
# ... and, since revision 0017, through this one: an owner's holders of a word are one key's posting list
# (belief_owner_search prefixes each lexeme with a key of the owner), so the read grows with what the owner
# holds of the words, not with the owner or the store; no pending list, which every scan would read.
Index(
    "beliefs_owner_words_live",
    text("belief_owner_search(tenant_id, principal_id, search)"),
    postgresql_using="gin",
    postgresql_where=text("valid_to IS NULL"),
    postgresql_with={"fastupdate": "off"},
    _table=beliefs,
)
# Recall by meaning reads an owner's nearest live beliefs of the default model through this HNSW index
# (revision 0013): an index needs one dimension, so it covers the bundled model's vectors, cast to theirs;
# another model's vectors are compared by an exact scan of the owner's rows.
INDEXED_EMBEDDING_MODELS: Final = {"wordllama/l2_supercat_256": 256}
Index(
    "beliefs_embedding_wordllama_hnsw",
    text("(embedding::vector(256)) vector_cosine_ops"),
    postgresql_using="hnsw",
    postgresql_where=text("valid_to IS NULL AND embedding_model = 'wordllama/l2_supercat_256'"),
    _table=beliefs,
)
# The anticipation and distillation cue pool (BeliefRepository.most_recent) reads an owner's newest live
# beliefs straight from this index, newest first, and stops at its limit (revision 0008).
Index(
    "beliefs_owner_recent_live",
    beliefs.c.tenant_id,
    beliefs.c.principal_id,
    beliefs.c.updated_at.desc(),
    beliefs.c.id.desc(),
    postgresql_where=text("valid_to IS NULL"),
)

watermarks = Table(
    "watermarks",
    metadata,
    *_owner_columns(),
    Column("session_id", Uuid, nullable=False),
    Column("seq", BigInteger, nullable=False),
    PrimaryKeyConstraint("tenant_id", "principal_id", "session_id", name="watermarks_pkey"),
)

consolidation_runs = Table(
    "consolidation_runs",
    metadata,
    Column("id", Uuid, primary_key=True),
    *_owner_columns(),
    Column("session_id", Uuid, nullable=False),
    Column("formation_policy", String(64), nullable=False),
    Column("from_seq", BigInteger, nullable=False),
    Column("to_seq", BigInteger, nullable=False),
    Column("outcome", String(64), nullable=False),
    Column("categories", JSONB, nullable=False, server_default=text("'{}'::jsonb")),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("completed_at", DateTime(timezone=True), nullable=False),
    # added by the structural revision
    Column("segment_count", Integer, nullable=False, server_default=text("0")),
    Column("episode_count", Integer, nullable=False, server_default=text("0")),
    Column("provider_call_count", Integer, nullable=False, server_default=text("0")),
    Column("fallback_stages", JSONB, nullable=False, server_default=text("'[]'::jsonb")),
    Column("direct_proposed", Integer, nullable=False, server_default=text("0")),
    Column("direct_committed", Integer, nullable=False, server_default=text("0")),
    Column("hypothesis_proposed", Integer, nullable=False, server_default=text("0")),
    Column("hypothesis_committed", Integer, nullable=False, server_default=text("0")),
    Column("attributed_redundancies", Integer, nullable=False, server_default=text("0")),
    Column("coverage", JSONB, nullable=False, server_default=text("'{}'::jsonb")),
    Column("rejected_provider_candidates", Integer, nullable=False, server_default=text("0")),
    # added by the metrics revision
    Column("stage_metrics", JSONB, nullable=False, server_default=text("'[]'::jsonb")),
    Index("consolidation_runs_owner_session", "tenant_id", "principal_id", "session_id"),
)

formation_audits = Table(
    "formation_audits",
    metadata,
    Column("id", Uuid, primary_key=True),
    *_owner_columns(),
    Column("kind", String(64), nullable=False),
    Column("dedupe_key", String(256), nullable=False),
    Column("details", JSONB, nullable=False, server_default=text("'{}'::jsonb")),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # added by the structural revision
    Column("session_id", Uuid),
    # Its owner prefix serves every owner-scoped read (revision 0007 dropped the (owner, kind) index).
    UniqueConstraint("tenant_id", "principal_id", "dedupe_key", name="formation_audits_owner_dedupe_key"),
)

staged_outputs = Table(
    "staged_outputs",
    metadata,
    *_owner_columns(),
    Column("segment_key", String(64), nullable=False),
    Column("stage", String(32), nullable=False),
    Column("session_id", Uuid, nullable=False),
    Column("document", JSONB, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False, server_default=text("now()")),
    PrimaryKeyConstraint("tenant_id", "principal_id", "segment_key", "stage", name="staged_outputs_pkey"),
)

# added by the formation-choices revision: one owner's chosen alternative memory tuple (ADR-0119).
formation_choices = Table(
    "formation_choices",
    metadata,
    *_owner_columns(),
    Column("model_policy", String(128), nullable=False),
    Column("reasoning_effort", String(128)),
    Column("chosen_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("tenant_id", "principal_id", name="formation_choices_pkey"),
)

# added by the api-keys revision: issued bearer keys, by the sha256 of their secret (never the secret).
# Not an owned table: a service key belongs to a tenant, and erasing a principal's data leaves keys alone.
api_keys = Table(
    "api_keys",
    metadata,
    Column("key_id", Uuid, nullable=False),
    Column("name", String(128), nullable=False),
    Column("tenant_id", OWNER_ID, nullable=False),
    Column("principal_id", OWNER_ID),
    Column("ceiling", String(32), nullable=False),
    Column("secret_sha256", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("revoked_at", DateTime(timezone=True)),
    PrimaryKeyConstraint("key_id", name="api_keys_pkey"),
    UniqueConstraint("secret_sha256", name="api_keys_secret_sha256"),
)

# Every table that holds something of a principal; erasure and test cleanup walk this list.
OWNED_TABLES: tuple[Table, ...] = (
    source_events,
    integrated_episodes,
    beliefs,
    watermarks,
    consolidation_runs,
    formation_audits,
    staged_outputs,
    formation_choices,
)
