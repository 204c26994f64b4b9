"""The PostgreSQL unit of work: one connection and one short transaction per unit of work."""

from datetime import datetime
from types import TracebackType
from typing import Self

from sqlalchemy import Connection, Engine, Table, delete, text

from adapters.postgres.repositories.audits import PostgresAudits
from adapters.postgres.repositories.beliefs import PostgresBeliefs
from adapters.postgres.repositories.episodes import PostgresEpisodes
from adapters.postgres.repositories.events import PostgresSourceEvents
from adapters.postgres.repositories.formation_choices import PostgresFormationChoices
from adapters.postgres.repositories.retirement import retire_expired_page
from adapters.postgres.repositories.runs import PostgresRuns
from adapters.postgres.repositories.segment_reads import segment_reads
from adapters.postgres.repositories.staged import PostgresStaged
from adapters.postgres.repositories.watermarks import PostgresWatermarks
from adapters.postgres.schema import (
    ADDITIVE_COLUMNS,
    EMBEDDINGS_COLUMN,
    EPISODE_SOURCE_CHARS_COLUMN,
    EXPIRES_AT_COLUMN,
    FORMATION_CHOICES_COLUMN,
    LATE_EVENTS_COLUMN,
    MATCH_KEYS_COLUMN,
    RECALL_SEARCH_COLUMN,
    RECEIVED_AT_COLUMN,
    STAGE_METRICS_COLUMN,
    additive_columns,
    owner_words_index_valid,
)
from adapters.postgres.tables import (
    beliefs,
    consolidation_runs,
    formation_audits,
    formation_choices,
    integrated_episodes,
    source_events,
    staged_outputs,
    watermarks,
)
from domain.beliefs.lifecycle import WHOLE_ID_SPACE, ExpiryCursor, SweepLane, SweepPage
from domain.beliefs.sweep import sweep_page_by_facts
from domain.formation.segments import SegmentRef
from domain.owner import Owner
from domain.ports import (
    BeliefRepository,
    ConsolidationRunRepository,
    ErasureCounts,
    FormationAuditRepository,
    FormationChoiceRepository,
    IntegratedEpisodeRepository,
    SegmentReads,
    SourceEventRepository,
    StagedOutputRepository,
    WatermarkRepository,
)


class PostgresStore:
    """A unit-of-work factory over one engine, callable like InMemoryStore."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._found: frozenset[tuple[str, str]] = frozenset()
        self._owner_words = False

    def __call__(self) -> "PostgresUnitOfWork":
        return self._unit_of_work(autocommit=False)

    def autocommit(self) -> "PostgresUnitOfWork":
        return self._unit_of_work(autocommit=True)

    def _unit_of_work(self, *, autocommit: bool) -> "PostgresUnitOfWork":
        if len(self._found) < len(ADDITIVE_COLUMNS):
            # Looked up until all found, in one read: an additive revision may be applied while processes run
            # (and is never taken back under them).
            self._found |= additive_columns(self.engine)
        if not self._owner_words:
            # likewise: the index may be built while processes run
            self._owner_words = owner_words_index_valid(self.engine)
        found = self._found
        return PostgresUnitOfWork(
            self.engine,
            with_stage_metrics=STAGE_METRICS_COLUMN in found,
            with_match_keys=MATCH_KEYS_COLUMN in found,
            with_expires_at=EXPIRES_AT_COLUMN in found,
            with_recall_search=RECALL_SEARCH_COLUMN in found,
            with_late_events=LATE_EVENTS_COLUMN in found,
            with_formation_choices=FORMATION_CHOICES_COLUMN in found,
            with_received_at=RECEIVED_AT_COLUMN in found,
            with_embeddings=EMBEDDINGS_COLUMN in found,
            with_episode_source_chars=EPISODE_SOURCE_CHARS_COLUMN in found,
            with_owner_words=self._owner_words,
            autocommit=autocommit,
        )


class PostgresUnitOfWork:
    # Declared as the ports: UnitOfWork's repository attributes are mutable protocol members, so invariant.
    events: SourceEventRepository
    episodes: IntegratedEpisodeRepository
    beliefs: BeliefRepository
    watermarks: WatermarkRepository
    runs: ConsolidationRunRepository
    audits: FormationAuditRepository
    staged: StagedOutputRepository
    formation_choices: FormationChoiceRepository

    def __init__(
        self,
        engine: Engine,
        *,
        with_stage_metrics: bool = True,
        with_match_keys: bool = True,
        with_expires_at: bool = True,
        with_recall_search: bool = True,
        with_late_events: bool = True,
        with_formation_choices: bool = True,
        with_received_at: bool = True,
        with_embeddings: bool = True,
        with_episode_source_chars: bool = True,
        with_owner_words: bool = True,
        autocommit: bool = False,
    ) -> None:
        self._engine = engine
        self._autocommit = autocommit
        self._with_stage_metrics = with_stage_metrics
        self._with_match_keys = with_match_keys
        # False only before the additive expires_at revision (which follows the match-keys revision).
        self._with_expires_at = with_expires_at and with_match_keys
        self._with_recall_search = with_recall_search
        self._with_late_events = with_late_events
        self._with_formation_choices = with_formation_choices
        self._with_received_at = with_received_at
        self._with_embeddings = with_embeddings
        self._with_episode_source_chars = with_episode_source_chars
        self._with_owner_words = with_owner_words
        self._connection: Connection | None = None

    def __enter__(self) -> Self:
        connection = self._engine.connect()
        if self._autocommit:
            # Each statement commits as it completes: no BEGIN before it, no COMMIT or ROLLBACK after it.
            # The pool restores the connection's transactions when it is returned.
            connection = connection.execution_options(isolation_level="AUTOCOMMIT")
        self._connection = connection
        self.events = PostgresSourceEvents(
            connection, with_late_events=self._with_late_events, with_received_at=self._with_received_at
        )
        self.episodes = PostgresEpisodes(connection, with_source_chars=self._with_episode_source_chars)
        self.beliefs = PostgresBeliefs(
            connection,
            with_match_keys=self._with_match_keys,
            with_expires_at=self._with_expires_at,
            with_recall_search=self._with_recall_search,
            with_embeddings=self._with_embeddings,
            with_owner_words=self._with_owner_words,
        )
        self.watermarks = PostgresWatermarks(connection)
        self.runs = PostgresRuns(connection, with_stage_metrics=self._with_stage_metrics)
        self.audits = PostgresAudits(connection)
        self.staged = PostgresStaged(connection)
        self.formation_choices = PostgresFormationChoices(connection, with_table=self._with_formation_choices)
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        connection, self._connection = self._connection, None
        if connection is None:
            return
        try:
            # Whatever was not committed explicitly is discarded, as in the in-memory store.
            connection.rollback()
        finally:
            connection.close()

    @property
    def _c(self) -> Connection:
        if self._connection is None:
            raise RuntimeError("unit of work used outside its with block")
        return self._connection

    def commit(self) -> None:
        self._c.commit()

    def rollback(self) -> None:
        self._c.rollback()

    def serialize_principal(self, owner: Owner) -> None:
        # A transaction-scoped advisory lock: released by commit or rollback, never leaked by a crash.
        self._c.execute(
            text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))"),
            {"key": f"commit/{owner.tenant_id}/{owner.principal_id}"},
        )

    def segment_reads(self, ref: SegmentRef, dedupe_key: str) -> SegmentReads:
        return segment_reads(self._c, ref, dedupe_key)

    def retire_expired_page(
        self, now: datetime, after: ExpiryCursor | None, limit: int, lane: SweepLane = WHOLE_ID_SPACE
    ) -> SweepPage:
        # The page's commit need not wait for its WAL flush: the sweep is idempotent, so a page lost to a
        # crash (rolled back whole) is found still live and redone by the next page or run, as the backfill
        # revisions do. Scoped to this transaction only.
        self._c.exec_driver_sql("SET LOCAL synchronous_commit = off")
        if not self._with_expires_at:
            return sweep_page_by_facts(self, now, after, limit, lane)
        return retire_expired_page(self._c, now, after, limit, lane)

    def erase_principal(self, owner: Owner) -> ErasureCounts:
        return self._erase(tenant_id=owner.tenant_id, principal_id=owner.principal_id)

    def erase_tenant(self, tenant_id: str) -> ErasureCounts:
        return self._erase(tenant_id=tenant_id, principal_id=None)

    def _erase(self, *, tenant_id: str, principal_id: str | None) -> ErasureCounts:
        def purge(table: Table) -> int:
            statement = delete(table).where(table.c.tenant_id == tenant_id)
            if principal_id is not None:
                statement = statement.where(table.c.principal_id == principal_id)
            return self._c.execute(statement).rowcount

        # Derived rows first, the source events they were derived from last.
        staged = purge(staged_outputs)
        # A choice is about the principal, not derived from events: erased, and not among the counts.
        if self._with_formation_choices:
            purge(formation_choices)
        audits = purge(formation_audits)
        runs = purge(consolidation_runs)
        episodes = purge(integrated_episodes)
        beliefs_erased = purge(beliefs)
        marks = purge(watermarks)
        events = purge(source_events)
        return ErasureCounts(
            events=events,
            episodes=episodes,
            beliefs=beliefs_erased,
            audits=audits,
            runs=runs,
            staged=staged,
            watermarks=marks,
        )
