"""gate.memory.schema_backfill: clean, stepwise and stairway migrations, explicit downgrades, the backfill."""

import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, inspect, text

from activities.batch import BatchActivities
from activities.contracts import BatchPlan, LoadBatchInput, SessionKey
from adapters.cli.events import import_events
from adapters.postgres import schema
from adapters.postgres.engine import create_store_engine
from adapters.postgres.tables import metadata
from adapters.postgres.uow import PostgresStore
from domain.beliefs.records import Authority, MemoryRecord
from domain.candidates import ClaimKind, Derivation, Longevity
from domain.errors import WrongSchemaRevision
from domain.events import EventRef
from domain.owner import Owner
from domain.policy.versions import FORMATION_9, LIFECYCLE, LIFECYCLE_BACKFILL
from domain.ports import EpisodePut
from domain.staging import StagedKind, StagedOutput
from tests.builders import OWNER, T0, belief, episode, event, event_line

pytestmark = pytest.mark.postgres

REVISIONS = [
    schema.BASELINE_REVISION,
    schema.STRUCTURAL_REVISION,
    schema.BACKFILL_REVISION,
    schema.STAGE_METRICS_REVISION,
    schema.MATCH_KEYS_REVISION,
    schema.EXPIRES_AT_REVISION,
    schema.SWEEP_INDEXES_REVISION,
    schema.RECENT_INDEX_REVISION,
    schema.RECALL_SEARCH_REVISION,
    schema.LATE_EVENTS_REVISION,
    schema.OWNER_SEARCH_INDEX_REVISION,
    schema.FORMATION_CHOICES_REVISION,
    schema.API_KEYS_REVISION,
    schema.RECEIVED_AT_REVISION,
    schema.EMBEDDINGS_REVISION,
    schema.EPISODE_SOURCE_CHARS_REVISION,
    schema.OWNER_WORDS_REVISION,
]


@pytest.fixture
def engine(create_database: Callable[[], str]) -> Iterator[Engine]:
    engine = create_store_engine(create_database(), pool_size=2)
    yield engine
    engine.dispose()


def _tables(engine: Engine) -> set[str]:
    return set(inspect(engine).get_table_names()) - {"alembic_version"}


def _columns(engine: Engine, table: str) -> set[str]:
    return {c["name"] for c in inspect(engine).get_columns(table)}


def _seed_baseline_belief(engine: Engine, **overrides: Any) -> dict[str, Any]:
    """One lifecycle@1 row, written with raw SQL as the old service wrote it."""
    session = uuid4()
    row: dict[str, Any] = {
        "id": uuid4(),
        "tenant_id": OWNER.tenant_id,
        "principal_id": OWNER.principal_id,
        "belief_type": "project",
        "statement": "User is building a personal AI agent.",
        "subject": "project:personal-ai-agent",
        "confidence": 0.7,
        "source_events": [{"session_id": str(session), "seq": 1}, {"session_id": str(session), "seq": 4}],
        "valid_from": T0,
        "valid_to": None,
        "closed_reason": None,
        "last_reinforced_at": T0 + timedelta(days=3),
        "corroboration_count": 2,
        "formation_version": "formation@7",
    }
    row.update(overrides)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO beliefs (id, tenant_id, principal_id, belief_type, statement, subject, confidence,"
                " source_events, valid_from, valid_to, closed_reason, last_reinforced_at, corroboration_count,"
                " formation_version) VALUES (:id, :tenant_id, :principal_id, :belief_type, :statement,"
                " :subject, :confidence, CAST(:source_events AS jsonb), :valid_from, :valid_to,"
                " :closed_reason, :last_reinforced_at, :corroboration_count, :formation_version)"
            ),
            {**row, "source_events": json.dumps(row["source_events"])},
        )
    return row


def _provenance(row: dict[str, Any]) -> tuple[EventRef, ...]:
    return tuple(EventRef(session_id=UUID(r["session_id"]), seq=r["seq"]) for r in row["source_events"])


def test_gate_memory_schema_backfill_clean_upgrade_to_head_matches_the_table_definitions(
    engine: Engine,
) -> None:
    schema.upgrade(engine, "head")
    assert schema.current_revision(engine) == REVISIONS[-1]
    assert _tables(engine) == {t.name for t in metadata.sorted_tables}
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), metadata)
    assert differences == []
    indexes = {i["name"]: i for i in inspect(engine).get_indexes("beliefs")}
    # The sweep pages by expires_at; the last_evidence_at index it replaced is gone at head (0007).
    assert "beliefs_evidence_expiry_live" not in indexes
    assert indexes["beliefs_expires_live"]["column_names"] == ["expires_at", "id"]
    assert "valid_to IS NULL" in str(indexes["beliefs_expires_live"]["dialect_options"])
    assert indexes["beliefs_owner_verb_id_live"]["column_names"] == [
        "tenant_id",
        "principal_id",
        "main_verb",
        "id",
    ]
    assert "valid_to IS NULL" in str(indexes["beliefs_owner_verb_id_live"]["dialect_options"])
    # The cue pool reads an owner's newest live beliefs from this index (0008).
    recent = indexes["beliefs_owner_recent_live"]
    assert recent["column_names"] == ["tenant_id", "principal_id", "updated_at", "id"]
    assert recent["column_sorting"] == {"updated_at": ("desc",), "id": ("desc",)}
    assert "valid_to IS NULL" in str(recent["dialect_options"])
    # Recall with a query reads one owner's matches from one index, not the whole store's (0010).
    assert indexes["beliefs_owner_search_live"]["column_names"] == ["tenant_id", "principal_id", "search"]
    # ... and, since 0017, through one keyed by owner and word together, without a pending list.
    words = indexes["beliefs_owner_words_live"]
    assert "belief_owner_search" in str(words["expressions"])
    assert words["dialect_options"]["postgresql_with"] == {"fastupdate": "off"}
    assert "beliefs_search_live" not in indexes
    assert "integrated_episodes_owner_session" in {
        i["name"] for i in inspect(engine).get_indexes("integrated_episodes")
    }


def test_gate_memory_schema_backfill_stepwise_upgrade_creates_episodes_and_new_fields(engine: Engine) -> None:
    schema.upgrade(engine, schema.BASELINE_REVISION)
    assert "integrated_episodes" not in _tables(engine)
    assert "last_evidence_at" not in _columns(engine, "beliefs")
    for revision in REVISIONS[1:]:
        schema.upgrade(engine, "+1")
        assert schema.current_revision(engine) == revision
    assert {"integrated_episodes", "staged_outputs"} <= _tables(engine)
    assert {
        "claim_kind",
        "derivation",
        "longevity",
        "last_evidence_at",
        "last_used_at",
        "evidence_count",
    } <= (_columns(engine, "beliefs"))
    assert "session_id" in _columns(engine, "formation_audits")
    assert "stage_metrics" in _columns(engine, "consolidation_runs")


def test_gate_memory_schema_backfill_stairway_upgrade_downgrade_upgrade_each_revision(engine: Engine) -> None:
    schema.upgrade(engine, schema.BASELINE_REVISION)
    _seed_baseline_belief(engine)
    for revision in REVISIONS:
        schema.upgrade(engine, revision)
        shape = {t: _columns(engine, t) for t in _tables(engine)}
        schema.downgrade(engine, "-1")
        schema.upgrade(engine, revision)
        assert schema.current_revision(engine) == revision
        assert {t: _columns(engine, t) for t in _tables(engine)} == shape


def test_gate_memory_schema_backfill_explicit_downgrades_step_back_to_base(engine: Engine) -> None:
    schema.upgrade(engine, "head")
    schema.downgrade(engine, schema.BACKFILL_REVISION)
    assert "stage_metrics" not in _columns(engine, "consolidation_runs")
    schema.downgrade(engine, schema.STRUCTURAL_REVISION)
    assert schema.current_revision(engine) == schema.STRUCTURAL_REVISION
    schema.downgrade(engine, schema.BASELINE_REVISION)
    assert "integrated_episodes" not in _tables(engine)
    assert "staged_outputs" not in _tables(engine)
    assert "last_evidence_at" not in _columns(engine, "beliefs")
    assert "session_id" not in _columns(engine, "formation_audits")
    schema.downgrade(engine, "base")
    assert schema.current_revision(engine) is None
    assert _tables(engine) == set()


def test_gate_memory_schema_backfill_gives_old_beliefs_conservative_values_and_keeps_history(
    engine: Engine,
) -> None:
    schema.upgrade(engine, schema.BASELINE_REVISION)
    project = _seed_baseline_belief(engine)
    skill = _seed_baseline_belief(engine, belief_type="Skill", subject="skill:python", source_events=[])
    unknown = _seed_baseline_belief(
        engine,
        belief_type="legacy_misc",
        subject="misc:thing",
        last_reinforced_at=None,
        valid_to=T0 + timedelta(days=9),
        closed_reason="superseded",
    )
    schema.upgrade(engine, "head")

    expected = {
        project["id"]: (ClaimKind.ONGOING_PROJECT, Longevity.ONGOING, 2),
        skill["id"]: (ClaimKind.SKILL, Longevity.DURABLE, 1),
        unknown["id"]: (ClaimKind.PROJECT_FACT, Longevity.DURABLE, 2),
    }
    store = PostgresStore(engine)
    with store() as uow:
        for row in (project, skill, unknown):
            loaded = uow.beliefs.get(OWNER, row["id"])
            assert isinstance(loaded, MemoryRecord)
            claim_kind, longevity, evidence_count = expected[row["id"]]
            assert (loaded.claim_kind, loaded.longevity, loaded.evidence_count) == (
                claim_kind,
                longevity,
                evidence_count,
            )
            assert loaded.derivation is Derivation.DIRECT
            assert loaded.last_evidence_at == row["valid_from"]
            assert loaded.last_used_at is None
            assert loaded.lifecycle_policy_version == LIFECYCLE_BACKFILL
            assert loaded.statement == row["statement"]
            assert loaded.subject == row["subject"]
            assert loaded.source_event_ids == _provenance(row)
            assert loaded.formation_version == row["formation_version"]
            assert loaded.authority is Authority.AUTOMATIC
            assert loaded.confidence == row["confidence"]
            assert loaded.corroboration_count == row["corroboration_count"]
            assert loaded.last_reinforced_at == row["last_reinforced_at"]
            assert loaded.valid_to == row["valid_to"]
    with engine.connect() as connection:
        stored = connection.execute(
            text("SELECT lifecycle_policy_version, count(*) FROM beliefs GROUP BY 1")
        ).all()
    assert stored == [(LIFECYCLE_BACKFILL, 3)]


def test_gate_memory_schema_backfill_pages_through_every_row(engine: Engine) -> None:
    schema.upgrade(engine, schema.BASELINE_REVISION)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO beliefs (id, tenant_id, principal_id, belief_type, statement, subject, confidence,"
                " source_events, valid_from, formation_version)"
                " SELECT md5(g::text)::uuid, 't1', 'p' || mod(g, 7), 'goal', 'User wants a thing.',"
                " 'goal:thing', 0.6, '[]'::jsonb, now() - make_interval(days => mod(g, 400)), 'formation@8'"
                " FROM generate_series(1, 12001) AS g"
            )
        )
    seen: list[tuple[int, int]] = []
    schema.upgrade(engine, "head", backfill_progress=lambda total, done: seen.append((total, done)))
    # What `agent db upgrade` draws: three pages of 5,000, rows done rising to the rows to do.
    assert seen == [(12001, 5000), (12001, 10000), (12001, 12001)]
    with engine.connect() as connection:
        missing = connection.execute(
            text(
                "SELECT count(*) FROM beliefs WHERE lifecycle_policy_version IS NULL"
                " OR last_evidence_at IS DISTINCT FROM valid_from OR evidence_count IS NULL"
            )
        ).scalar()
    assert missing == 0


def test_gate_memory_schema_backfill_leaves_rows_written_by_lifecycle2_alone(engine: Engine) -> None:
    """A process may run at the structural revision before the backfill; what it writes is not overwritten."""
    schema.upgrade(engine, schema.BASELINE_REVISION)
    old = _seed_baseline_belief(engine, belief_type="preference", subject="preference:tea")
    schema.upgrade(engine, schema.STRUCTURAL_REVISION)
    assert schema.require_expected_revision(engine) == schema.STRUCTURAL_REVISION
    store = PostgresStore(engine)
    remembered = belief(
        authority=Authority.EXPLICIT_REMEMBER,
        confidence=0.95,
        last_evidence_at=T0 + timedelta(days=40),
        evidence_count=3,
        lifecycle_policy_version=LIFECYCLE,
    )
    with store() as uow:
        before = uow.beliefs.get(OWNER, old["id"])
        assert before is not None and before.lifecycle_policy_version == LIFECYCLE_BACKFILL
        assert (before.claim_kind, before.longevity) == (ClaimKind.PREFERENCE, Longevity.DURABLE)
        uow.beliefs.upsert(remembered)
        uow.commit()

    schema.upgrade(engine, "head")
    with store() as uow:
        assert uow.beliefs.get(OWNER, remembered.id) == remembered
        assert uow.beliefs.get(OWNER, old["id"]) == before


def test_gate_memory_schema_backfill_downgrade_is_lossy_for_derived_fields_only(engine: Engine) -> None:
    schema.upgrade(engine, schema.BASELINE_REVISION)
    old = _seed_baseline_belief(engine)
    schema.upgrade(engine, schema.BACKFILL_REVISION)
    newer = belief(lifecycle_policy_version=LIFECYCLE)
    with PostgresStore(engine)() as uow:
        uow.beliefs.upsert(newer)
        uow.commit()

    schema.downgrade(engine, schema.STRUCTURAL_REVISION)
    with engine.connect() as connection:
        row = (
            connection.execute(text("SELECT * FROM beliefs WHERE id = :id"), {"id": old["id"]})
            .mappings()
            .one()
        )
    derived = ("claim_kind", "derivation", "longevity", "last_evidence_at", "evidence_count")
    assert all(row[name] is None for name in (*derived, "lifecycle_policy_version", "updated_at"))
    kept = ("statement", "subject", "belief_type", "confidence", "valid_from", "formation_version")
    assert {name: row[name] for name in kept} == {name: old[name] for name in kept}
    assert row["source_events"] == old["source_events"]
    assert row["authority"] == Authority.AUTOMATIC.value
    with PostgresStore(engine)() as uow:
        assert uow.beliefs.get(OWNER, newer.id) == newer

    schema.upgrade(engine, "head")
    with engine.connect() as connection:
        again = connection.execute(
            text("SELECT lifecycle_policy_version, last_evidence_at FROM beliefs WHERE id = :id"),
            {"id": old["id"]},
        ).one()
    assert tuple(again) == (LIFECYCLE_BACKFILL, old["valid_from"])


def test_gate_memory_schema_backfill_erasure_reaches_the_new_rows(engine: Engine) -> None:
    schema.upgrade(engine, schema.BASELINE_REVISION)
    old = _seed_baseline_belief(engine)
    schema.upgrade(engine, "head")
    session = uuid4()
    other = Owner(tenant_id="t1", principal_id="p2")
    store = PostgresStore(engine)
    with store() as uow:
        for owner in (OWNER, other):
            uow.events.append([event(1, session_id=session, owner=owner)])
            uow.episodes.put(episode((1,), session_id=session, owner=owner))
            uow.staged.put(
                StagedOutput(
                    tenant_id=owner.tenant_id,
                    principal_id=owner.principal_id,
                    session_id=session,
                    segment_key="c" * 64,
                    stage=StagedKind.INTEGRATION,
                    document={"episodes": []},
                )
            )
        uow.commit()
    with store() as uow:
        counts = uow.erase_principal(OWNER)
        uow.commit()
    assert (counts.beliefs, counts.episodes, counts.staged, counts.events) == (1, 1, 1, 1)
    with store() as uow:
        assert uow.beliefs.get(OWNER, old["id"]) is None
        assert uow.episodes.for_session(OWNER, session) == []
        assert uow.staged.get(OWNER, "c" * 64, StagedKind.INTEGRATION) is None
        assert len(uow.episodes.for_session(other, session)) == 1
        assert uow.staged.get(other, "c" * 64, StagedKind.INTEGRATION) == {"episodes": []}


def test_require_expected_revision_refuses_an_older_database_and_names_the_fix(engine: Engine) -> None:
    with pytest.raises(WrongSchemaRevision, match="agent db upgrade"):
        schema.require_expected_revision(engine)
    schema.upgrade(engine, schema.BASELINE_REVISION)
    with pytest.raises(WrongSchemaRevision) as refused:
        schema.require_expected_revision(engine)
    message = str(refused.value)
    assert schema.BASELINE_REVISION in message
    assert schema.EXPECTED_REVISION in message
    assert "`agent db upgrade`" in message
    for revision in REVISIONS[1:]:
        schema.upgrade(engine, revision)
        assert schema.require_expected_revision(engine) == revision


def test_require_expected_revision_refuses_a_revision_this_release_does_not_know(engine: Engine) -> None:
    schema.upgrade(engine, "head")
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0099_from_the_future'"))
    with pytest.raises(WrongSchemaRevision, match="0099_from_the_future"):
        schema.require_expected_revision(engine)


def test_runs_are_recorded_without_stage_metrics_until_the_metrics_revision(engine: Engine) -> None:
    from domain.telemetry import ConsolidationRun, RunOutcome, Stage, StageMetrics, StageOutcome

    schema.upgrade(engine, schema.BACKFILL_REVISION)
    metrics = StageMetrics(segment_index=0, stage=Stage.INTEGRATION, outcome=StageOutcome.OK, input_tokens=9)
    run = ConsolidationRun(
        id=uuid4(),
        tenant_id=OWNER.tenant_id,
        principal_id=OWNER.principal_id,
        session_id=uuid4(),
        formation_policy="formation@9",
        from_seq=0,
        to_seq=3,
        outcome=RunOutcome.COMPLETED,
        stage_metrics=(metrics,),
        started_at=datetime(2026, 9, 2, tzinfo=UTC),
        completed_at=datetime(2026, 9, 2, 0, 1, tzinfo=UTC),
    )
    store = PostgresStore(engine)
    with store() as uow:
        assert uow.runs.record(run)
        uow.commit()
    with store() as uow:
        assert uow.runs.for_session(OWNER, run.session_id) == [run.model_copy(update={"stage_metrics": ()})]
    schema.upgrade(engine, "head")
    later = run.model_copy(update={"id": uuid4()})
    with store() as uow:
        assert uow.runs.record(later)
        uow.commit()
    with store() as uow:
        assert {r.id: r for r in uow.runs.for_session(OWNER, later.session_id)}[later.id] == later


def test_a_pieces_episode_waits_for_the_source_chars_revision_and_whole_episodes_keep_their_rows(
    engine: Engine,
) -> None:
    schema.upgrade(engine, schema.EMBEDDINGS_REVISION)
    store = PostgresStore(engine)
    session = uuid4()
    whole = episode((1, 2), session_id=session)
    piece = episode((3,), session_id=session, source_chars=(0, 900))
    with store() as uow:
        assert uow.episodes.put(whole) is EpisodePut.STORED
        # Its key could not be recomputed from the row: kept out, audited as before the revision.
        assert uow.episodes.put(piece) is EpisodePut.DERIVATION_CONFLICT
        uow.commit()
    schema.upgrade(engine, "head")
    with store() as uow:
        assert uow.episodes.put(piece) is EpisodePut.STORED
        uow.commit()
    with store() as uow:
        assert uow.episodes.for_session(OWNER, session) == [whole, piece]
    schema.downgrade(engine, schema.EMBEDDINGS_REVISION)
    with PostgresStore(engine)() as uow:
        assert uow.episodes.for_session(OWNER, session) == [whole]


def _next_plan(store: PostgresStore, session: UUID) -> BatchPlan:
    key = SessionKey(tenant_id=OWNER.tenant_id, principal_id=OWNER.principal_id, session_id=session)
    return BatchActivities(store, lambda: T0 + timedelta(hours=1)).load_batch(
        LoadBatchInput(session=key, formation_policy=FORMATION_9)
    )


def test_an_event_below_the_watermark_is_refused_until_the_late_events_revision(engine: Engine) -> None:
    schema.upgrade(engine, schema.RECALL_SEARCH_REVISION)
    store = PostgresStore(engine)
    session = uuid4()
    stored = import_events(store, [event_line(seq, session) for seq in (1, 2, 4, 5)])
    assert (stored.appended, stored.refused) == (4, 0)
    with store() as uow:
        # Consolidated past the gap at 3.
        assert uow.watermarks.compare_and_set(OWNER, session, 0, 4)
        uow.commit()

    below = import_events(
        store,
        [event_line(3, session), event_line(1, session), event_line(2, session, "I moved to Porto.")],
    )
    assert [(r.line, r.field, r.reason) for r in below.refusals] == [
        (1, "seq", "below_watermark"),
        (3, "seq", "event_conflict"),
    ]
    assert (below.appended, below.late, below.already_present) == (0, 0, 1)
    with store() as uow:
        assert not uow.events.accepts_late
        with pytest.raises(WrongSchemaRevision, match="agent db upgrade"):
            uow.events.append([event(3, "I moved to Lisbon.", session_id=session)], late=True)
        assert [e.seq for e in uow.events.read_range(OWNER, session, 0, 10)] == [1, 2, 4, 5]
        assert uow.events.late_pending(OWNER, session, 10) == []
        assert uow.events.settle_late(OWNER, session, 1, 5) == 0
    plan = _next_plan(store, session)
    assert (plan.late_count, plan.event_count, plan.last_seq) == (0, 1, 5)
    assert [(r.first_seq, r.last_seq) for r in plan.segments] == [(5, 5)]

    # Applied while the same process runs: its next unit of work finds the column.
    schema.upgrade(engine, schema.LATE_EVENTS_REVISION)
    late = import_events(store, [event_line(3, session)])
    assert (late.appended, late.late, late.refused) == (1, 1, 0)
    plan = _next_plan(store, session)
    assert (plan.late_count, plan.event_count, plan.last_seq) == (1, 2, 5)
    assert [(r.first_seq, r.last_seq) for r in plan.segments] == [(3, 3), (5, 5)]


def test_recall_reads_its_words_through_the_owner_words_index_once_it_is_built(engine: Engine) -> None:
    from domain.beliefs.recall import recall

    schema.upgrade(engine, schema.EPISODE_SOURCE_CHARS_REVISION)
    store = PostgresStore(engine)
    other = Owner(tenant_id=OWNER.tenant_id, principal_id="someone-else")
    mine = belief(subject="hobby:kayak", statement="User paddles a kayak on weekends.")
    theirs = belief(owner=other, subject="hobby:kayak", statement="User owns a kayak.")
    with store() as uow:
        uow.beliefs.upsert_many([mine, theirs])
        uow.commit()
    with store() as uow:
        # before the revision: the words are read through beliefs_owner_search_live
        assert uow.beliefs._owner_words is False  # type: ignore[attr-defined]
        assert recall(uow, OWNER, T0 + timedelta(days=1), query="my kayak?").returned_ids == [mine.id]
    schema.upgrade(engine, "head")
    with store() as uow:
        assert uow.beliefs._owner_words is True  # type: ignore[attr-defined]
        assert recall(uow, OWNER, T0 + timedelta(days=1), query="my kayak?").returned_ids == [mine.id]
        assert recall(uow, other, T0 + timedelta(days=1), query="my kayak?").returned_ids == [theirs.id]
    schema.downgrade(engine, schema.EPISODE_SOURCE_CHARS_REVISION)
    with PostgresStore(engine)() as uow:
        assert recall(uow, OWNER, T0 + timedelta(days=1), query="my kayak?").returned_ids == [mine.id]
