"""Which schema revision this code runs against, and the Alembic commands behind `agent db`.

EXPECTED_REVISION names the *structural* head: the last revision whose tables and columns this code needs.
The revisions after it (the lifecycle@2 data backfill, the additive columns and the indexes) change no shape
this code depends on, so a database is accepted at EXPECTED_REVISION or at any revision that descends from
it in this release's script directory. That is what lets an operator apply the structural revision, start
processes, and let the backfill page through a large table afterwards; the belief repository reads a row the
backfill has not reached with the same conservative values, runs are recorded without stage metrics until
the metrics column exists, an event below its session's watermark is refused (below_watermark) until
the late-events column exists, and no owner's alternative formation tuple is read or set until the
formation-choices table exists, and no stored API key authenticates until the api-keys table
exists. A database behind EXPECTED_REVISION, or at a revision this release does not
know (written by newer code), is refused with the command that fixes it.
"""

from collections.abc import Callable
from pathlib import Path
from typing import Final

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text

from adapters.postgres.legacy import BACKFILL_PROGRESS
from domain.errors import WrongSchemaRevision

BASELINE_REVISION: Final = "0001_lifecycle1_baseline"
STRUCTURAL_REVISION: Final = "0002_lifecycle2_structure"
BACKFILL_REVISION: Final = "0003_lifecycle2_backfill"
STAGE_METRICS_REVISION: Final = "0004_run_stage_metrics"
MATCH_KEYS_REVISION: Final = "0005_belief_match_keys"
EXPIRES_AT_REVISION: Final = "0006_belief_expires_at"
SWEEP_INDEXES_REVISION: Final = "0007_sweep_and_verb_indexes"
RECENT_INDEX_REVISION: Final = "0008_belief_recent_index"
RECALL_SEARCH_REVISION: Final = "0009_belief_recall_search"
LATE_EVENTS_REVISION: Final = "0010_late_events"
OWNER_SEARCH_INDEX_REVISION: Final = "0011_belief_owner_search_index"
FORMATION_CHOICES_REVISION: Final = "0012_formation_choices"
API_KEYS_REVISION: Final = "0013_api_keys"
RECEIVED_AT_REVISION: Final = "0014_event_received_at"
EMBEDDINGS_REVISION: Final = "0015_belief_embeddings"
EPISODE_SOURCE_CHARS_REVISION: Final = "0016_episode_source_chars"
OWNER_WORDS_REVISION: Final = "0017_belief_owner_words"
EXPECTED_REVISION: Final = STRUCTURAL_REVISION

UPGRADE_COMMAND: Final = "agent db upgrade"


def migrations_dir() -> Path:
    import migrations

    # __path__, not importlib.resources: an editable install may expose the package as a namespace.
    for location in migrations.__path__:
        if (Path(location) / "env.py").is_file():
            return Path(location)
    raise FileNotFoundError("the migrations package ships no env.py")


def alembic_config() -> Config:
    """The Alembic configuration, built in code so it works from an installed package.

    The database is handed over as a connection, never written into the config as a URL, where
    configparser would mangle a '%' in a password.
    """
    ini = migrations_dir() / "alembic.ini"
    config = Config(str(ini) if ini.exists() else None)
    config.set_main_option("script_location", str(migrations_dir()))
    return config


def script_directory() -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config())


def _with_connection(
    engine: Engine, action: str, revision: str, backfill_progress: Callable[[int, int], None] | None = None
) -> None:
    config = alembic_config()
    with engine.connect() as connection:
        config.attributes["connection"] = connection
        if backfill_progress is not None:
            config.attributes[BACKFILL_PROGRESS] = backfill_progress
        getattr(command, action)(config, revision)
        connection.commit()


def upgrade(
    engine: Engine, revision: str = "head", backfill_progress: Callable[[int, int], None] | None = None
) -> None:
    """Upgrade to revision; backfill_progress(rows to do, rows done) is called after each backfill page."""
    _with_connection(engine, "upgrade", revision, backfill_progress)


def downgrade(engine: Engine, revision: str) -> None:
    _with_connection(engine, "downgrade", revision)


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def accepted_revisions() -> frozenset[str]:
    """EXPECTED_REVISION and every revision this release ships on top of it."""
    scripts = script_directory()
    accepted = {EXPECTED_REVISION}
    for script in scripts.walk_revisions(base=EXPECTED_REVISION, head="heads"):
        accepted.add(script.revision)
    return frozenset(accepted)


def known_revisions() -> frozenset[str]:
    """Every revision this release ships."""
    return frozenset(script.revision for script in script_directory().walk_revisions())


def require_expected_revision(engine: Engine) -> str:
    """Return the database's revision, or refuse with what is wrong and the command that fixes it."""
    current = current_revision(engine)
    if current in accepted_revisions():
        assert current is not None
        return current
    if current is not None and current not in known_revisions():
        raise WrongSchemaRevision(
            f"database schema is at revision {current}, which this release does not know (expected "
            f"{EXPECTED_REVISION} or later); run a release that ships it, or `agent db downgrade` with it"
        )
    raise WrongSchemaRevision(
        f"database schema is at revision {current or 'none (empty database)'}, expected "
        f"{EXPECTED_REVISION} or later; run `{UPGRADE_COMMAND}`"
    )


# The column each additive revision adds, by which a running process finds it applied: (table, column).
STAGE_METRICS_COLUMN: Final = ("consolidation_runs", "stage_metrics")
# Until the match-keys revision, belief lookups by verb and tombstone read the owner's rows and filter in
# Python; until the expires_at revision the sweep reads the expiry facts and decides in Python (correct, only
# slower).
MATCH_KEYS_COLUMN: Final = ("beliefs", "main_verb")
EXPIRES_AT_COLUMN: Final = ("beliefs", "expires_at")
# Until the recall-search revision, commits keep no evidence spans and recall with a query is refused.
RECALL_SEARCH_COLUMN: Final = ("beliefs", "search")
# Until the late-events revision, an event below its session's watermark is refused, as it could never be
# consolidated.
LATE_EVENTS_COLUMN: Final = ("source_events", "late_pending")
# Until the formation-choices revision, no owner has chosen an alternative tuple and none can be set.
FORMATION_CHOICES_COLUMN: Final = ("formation_choices", "model_policy")
# Until the api-keys revision, no stored key authenticates (a tokens file still does) and none can be issued.
API_KEYS_COLUMN: Final = ("api_keys", "secret_sha256")
# Until the received-at revision, a sequence gap's grace is measured from the client's occurred_at.
RECEIVED_AT_COLUMN: Final = ("source_events", "received_at")
# Until the embeddings revision, recall ranks by text and retrieval@3 alone and nothing is embedded.
EMBEDDINGS_COLUMN: Final = ("beliefs", "embedding")
# Until the episode source-chars revision, a piece's episode is not stored (audited as a derivation conflict).
EPISODE_SOURCE_CHARS_COLUMN: Final = ("integrated_episodes", "source_chars")
ADDITIVE_COLUMNS: Final = (
    STAGE_METRICS_COLUMN,
    MATCH_KEYS_COLUMN,
    EXPIRES_AT_COLUMN,
    RECALL_SEARCH_COLUMN,
    LATE_EVENTS_COLUMN,
    FORMATION_CHOICES_COLUMN,
    API_KEYS_COLUMN,
    RECEIVED_AT_COLUMN,
    EMBEDDINGS_COLUMN,
    EPISODE_SOURCE_CHARS_COLUMN,
)


def owner_words_index_valid(engine: Engine) -> bool:
    """Whether beliefs_owner_words_live (revision 0017, built concurrently) exists and is valid: until then
    recall reads its words through beliefs_owner_search_live."""
    with engine.connect() as connection:
        return bool(
            connection.execute(
                text(
                    "SELECT coalesce(bool_and(indisvalid), false) FROM pg_index"
                    " WHERE indexrelid = to_regclass('beliefs_owner_words_live')"
                )
            ).scalar_one()
        )


def additive_columns(engine: Engine) -> frozenset[tuple[str, str]]:
    """Which of the additive revisions' columns exist, in one read (these revisions may follow a running
    release)."""
    tables = sorted({table for table, _ in ADDITIVE_COLUMNS})
    columns = sorted({column for _, column in ADDITIVE_COLUMNS})
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT table_name, column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema()"
                " AND table_name = ANY(CAST(:tables AS text[])) AND column_name = ANY(CAST(:columns AS text[]))"
            ),
            {"tables": tables, "columns": columns},
        ).all()
    return frozenset({(str(table), str(column)) for table, column in rows} & set(ADDITIVE_COLUMNS))
