"""One contract, every store: the same test functions run against memory and PostgreSQL."""

from datetime import timedelta
from uuid import UUID, uuid4

import pytest

from domain.beliefs import ClosedReason
from domain.errors import EventConflict
from domain.owner import Owner
from domain.ports import EpisodePut, UnitOfWorkFactory
from domain.staging import StagedKind, StagedOutput
from domain.telemetry import AuditKind, ConsolidationRun, FormationAudit, ReasonCategory, RunOutcome
from tests.builders import OTHER_PRINCIPAL, OTHER_TENANT, OWNER, T0, belief, episode, event


def test_event_append_is_idempotent_per_seq(uow_factory: UnitOfWorkFactory) -> None:
    session = uuid4()
    with uow_factory() as uow:
        first = uow.events.append([event(1, session_id=session), event(2, "Second.", session_id=session)])
        uow.commit()
    with uow_factory() as uow:
        again = uow.events.append([event(1, session_id=session), event(3, "Third.", session_id=session)])
        uow.commit()
    assert (first.appended, first.already_present) == (2, 0)
    assert (again.appended, again.already_present) == (1, 1)
    with uow_factory() as uow:
        assert [e.seq for e in uow.events.read_range(OWNER, session, 0, 10)] == [1, 2, 3]


def test_event_different_text_at_existing_seq_is_refused_and_nothing_changes(
    uow_factory: UnitOfWorkFactory,
) -> None:
    session = uuid4()
    with uow_factory() as uow:
        uow.events.append([event(1, "Original.", session_id=session)])
        uow.commit()
    with uow_factory() as uow, pytest.raises(EventConflict):
        uow.events.append([event(2, "New.", session_id=session), event(1, "Rewritten.", session_id=session)])
    with uow_factory() as uow:
        stored = uow.events.read_range(OWNER, session, 0, 10)
    assert [(e.seq, e.text) for e in stored] == [(1, "Original.")]


def test_event_reads_are_owner_scoped_ordered_and_bounded(uow_factory: UnitOfWorkFactory) -> None:
    session = uuid4()
    with uow_factory() as uow:
        uow.events.append([event(s, f"Turn {s}.", session_id=session) for s in (3, 1, 2, 5, 4)])
        uow.events.append([event(1, "Someone else.", session_id=session, owner=OTHER_PRINCIPAL)])
        uow.events.append([event(1, "Other tenant.", session_id=session, owner=OTHER_TENANT)])
        uow.commit()
    with uow_factory() as uow:
        assert [e.seq for e in uow.events.read_range(OWNER, session, 1, 3)] == [2, 3, 4]
        assert [e.seq for e in uow.events.read_before(OWNER, session, 5, 2)] == [3, 4]
        assert uow.events.max_seq(OWNER, session) == 5
        assert [e.text for e in uow.events.read_range(OTHER_PRINCIPAL, session, 0, 10)] == ["Someone else."]
        assert uow.events.max_seq(OWNER, uuid4()) == 0


def test_gate_memory_episode_repository_parity_put_is_idempotent_on_derivation_key(
    uow_factory: UnitOfWorkFactory,
) -> None:
    session = uuid4()
    stored = episode((1, 2), session_id=session)
    with uow_factory() as uow:
        assert uow.episodes.put(stored) is EpisodePut.STORED
        uow.commit()
    replay = stored.model_copy(update={"id": uuid4()})
    rewrite = episode((1, 2), session_id=session, narrative="A provider re-pass wrote this differently.")
    with uow_factory() as uow:
        assert uow.episodes.put(replay) is EpisodePut.UNCHANGED
        assert uow.episodes.put(rewrite) is EpisodePut.DERIVATION_CONFLICT
        uow.commit()
    with uow_factory() as uow:
        episodes = uow.episodes.for_session(OWNER, session)
        assert episodes == [stored]
        assert uow.episodes.get(OWNER, stored.id) == stored
        assert uow.episodes.get_by_derivation(OWNER, stored.derivation_key) == stored


def test_gate_memory_episode_repository_parity_owner_scoped_and_session_deletion(
    uow_factory: UnitOfWorkFactory,
) -> None:
    session, other_session = uuid4(), uuid4()
    mine = [episode((3, 4), session_id=session), episode((1, 2), session_id=session)]
    kept = episode((1,), session_id=other_session)
    foreign = episode((1, 2), session_id=session, owner=OTHER_PRINCIPAL)
    with uow_factory() as uow:
        for e in [*mine, kept, foreign]:
            uow.episodes.put(e)
        uow.commit()
    with uow_factory() as uow:
        assert [e.source_event_ids for e in uow.episodes.for_session(OWNER, session)] == [(1, 2), (3, 4)]
        assert uow.episodes.get(OTHER_PRINCIPAL, mine[0].id) is None
        assert uow.episodes.get_by_derivation(OWNER, foreign.derivation_key) is None
        assert uow.episodes.delete_for_session(OWNER, session) == 2
        uow.commit()
    with uow_factory() as uow:
        assert uow.episodes.for_session(OWNER, session) == []
        assert uow.episodes.for_session(OWNER, other_session) == [kept]
        assert uow.episodes.for_session(OTHER_PRINCIPAL, session) == [foreign]


def test_uncommitted_work_is_not_visible_and_rolls_back(uow_factory: UnitOfWorkFactory) -> None:
    session = uuid4()
    with uow_factory() as uow:
        uow.episodes.put(episode((1,), session_id=session))
        uow.beliefs.upsert(belief())
    with uow_factory() as uow:
        assert uow.episodes.for_session(OWNER, session) == []
        assert uow.beliefs.page(OWNER, None, 10) == []


def test_beliefs_page_by_id_subject_upsert_and_close(uow_factory: UnitOfWorkFactory) -> None:
    beliefs = [belief(subject=f"topic:{i % 3}") for i in range(7)]
    foreign = belief(owner=OTHER_TENANT)
    with uow_factory() as uow:
        for b in [*beliefs, foreign]:
            uow.beliefs.upsert(b)
        uow.commit()
    ordered = sorted(b.id for b in beliefs)
    with uow_factory() as uow:
        first = uow.beliefs.page(OWNER, None, 4)
        rest = uow.beliefs.page(OWNER, first[-1].id, 4)
        assert [b.id for b in first + rest] == ordered
        assert {b.id for b in uow.beliefs.by_subject(OWNER, "topic:0")} == {
            b.id for b in beliefs if b.subject == "topic:0"
        }
        edited = beliefs[0].model_copy(update={"evidence_count": 2, "version": 1})
        uow.beliefs.upsert(edited)
        closed = uow.beliefs.close_validity(
            OWNER, beliefs[1].id, T0 + timedelta(days=1), ClosedReason.RETRACTED
        )
        assert closed is not None and closed.valid_to == T0 + timedelta(days=1)
        assert uow.beliefs.close_validity(OWNER, beliefs[1].id, T0, ClosedReason.RETRACTED) is None
        assert uow.beliefs.close_validity(OWNER, foreign.id, T0, ClosedReason.RETRACTED) is None
        uow.commit()
    with uow_factory() as uow:
        assert uow.beliefs.get(OWNER, beliefs[0].id) == edited
        assert beliefs[1].id not in {b.id for b in uow.beliefs.page(OWNER, None, 100)}
        assert beliefs[1].id in {b.id for b in uow.beliefs.page(OWNER, None, 100, live_only=False)}
        assert uow.beliefs.get(OWNER, foreign.id) is None
        assert uow.beliefs.get(OTHER_TENANT, foreign.id) == foreign


def test_watermark_compare_and_set_moves_forward_only(uow_factory: UnitOfWorkFactory) -> None:
    session = uuid4()
    with uow_factory() as uow:
        assert uow.watermarks.get(OWNER, session) == 0
        assert uow.watermarks.compare_and_set(OWNER, session, 0, 5)
        assert not uow.watermarks.compare_and_set(OWNER, session, 0, 7)
        assert not uow.watermarks.compare_and_set(OWNER, session, 5, 5)
        assert not uow.watermarks.compare_and_set(OWNER, session, 5, 3)
        assert uow.watermarks.compare_and_set(OWNER, session, 5, 9)
        uow.commit()
    with uow_factory() as uow:
        assert uow.watermarks.get(OWNER, session) == 9
        assert uow.watermarks.get(OTHER_PRINCIPAL, session) == 0


def _run(session_id: UUID, **overrides: object) -> ConsolidationRun:
    values: dict[str, object] = {
        "id": uuid4(),
        "tenant_id": OWNER.tenant_id,
        "principal_id": OWNER.principal_id,
        "session_id": session_id,
        "formation_policy": "formation@9",
        "from_seq": 0,
        "to_seq": 4,
        "outcome": RunOutcome.COMPLETED,
        "segment_count": 1,
        "categories": {ReasonCategory.COMMITTED_DIRECT: 2},
        "started_at": T0,
        "completed_at": T0 + timedelta(seconds=3),
    }
    values.update(overrides)
    return ConsolidationRun.model_validate(values)


def test_runs_and_audits_are_idempotent(uow_factory: UnitOfWorkFactory) -> None:
    session = uuid4()
    run = _run(session)
    audit = FormationAudit(
        id=uuid4(),
        tenant_id=OWNER.tenant_id,
        principal_id=OWNER.principal_id,
        session_id=session,
        kind=AuditKind.STAGE_FALLBACK,
        dedupe_key=f"fallback/{session}/0/integration",
        details={"failure_class": "transient", "segment_index": 0},
        created_at=T0,
    )
    with uow_factory() as uow:
        assert uow.runs.record(run)
        assert uow.audits.record(audit)
        uow.commit()
    with uow_factory() as uow:
        assert not uow.runs.record(run)
        assert not uow.audits.record(audit.model_copy(update={"id": uuid4()}))
        uow.commit()
    with uow_factory() as uow:
        assert uow.runs.get(OWNER, run.id) == run
        assert uow.runs.for_session(OWNER, session) == [run]
        assert uow.runs.get(OTHER_PRINCIPAL, run.id) is None
        assert uow.audits.for_owner(OWNER) == [audit]
        assert uow.audits.for_owner(OWNER, AuditKind.REPASS_EXHAUSTED) == []


def test_staged_outputs_replace_and_delete(uow_factory: UnitOfWorkFactory) -> None:
    session = uuid4()
    key = "a" * 64

    def staged(doc: dict[str, object]) -> StagedOutput:
        return StagedOutput(
            tenant_id=OWNER.tenant_id,
            principal_id=OWNER.principal_id,
            session_id=session,
            segment_key=key,
            stage=StagedKind.INTEGRATION,
            document=doc,
        )

    with uow_factory() as uow:
        uow.staged.put(staged({"episodes": [1]}))
        uow.staged.put(staged({"episodes": [2]}))
        uow.commit()
    with uow_factory() as uow:
        assert uow.staged.get(OWNER, key, StagedKind.INTEGRATION) == {"episodes": [2]}
        assert uow.staged.get(OWNER, key, StagedKind.DISTILLATION) is None
        assert uow.staged.get(OTHER_PRINCIPAL, key, StagedKind.INTEGRATION) is None
        assert uow.staged.delete_for_segment(OWNER, key) == 1
        uow.commit()
    with uow_factory() as uow:
        assert uow.staged.get(OWNER, key, StagedKind.INTEGRATION) is None


def _populate(uow_factory: UnitOfWorkFactory, owner: Owner, session: UUID) -> None:
    with uow_factory() as uow:
        uow.events.append([event(1, session_id=session, owner=owner)])
        uow.episodes.put(episode((1,), session_id=session, owner=owner))
        uow.beliefs.upsert(belief(owner=owner, session_id=session))
        uow.watermarks.compare_and_set(owner, session, 0, 1)
        uow.runs.record(_run(session, tenant_id=owner.tenant_id, principal_id=owner.principal_id))
        uow.audits.record(
            FormationAudit(
                id=uuid4(),
                tenant_id=owner.tenant_id,
                principal_id=owner.principal_id,
                session_id=session,
                kind=AuditKind.SEGMENT_COMMITTED,
                dedupe_key=f"commit/{session}",
                created_at=T0,
            )
        )
        uow.staged.put(
            StagedOutput(
                tenant_id=owner.tenant_id,
                principal_id=owner.principal_id,
                session_id=session,
                segment_key="b" * 64,
                stage=StagedKind.DISTILLATION,
                document={"candidates": []},
            )
        )
        uow.commit()


def test_gate_memory_episode_repository_parity_principal_erasure_removes_everything_together(
    uow_factory: UnitOfWorkFactory,
) -> None:
    session = uuid4()
    for owner in (OWNER, OTHER_PRINCIPAL, OTHER_TENANT):
        _populate(uow_factory, owner, session)
    with uow_factory() as uow:
        counts = uow.erase_principal(OWNER)
        uow.commit()
    assert (counts.events, counts.episodes, counts.beliefs, counts.audits, counts.runs, counts.staged) == (
        1,
        1,
        1,
        1,
        1,
        1,
    )
    with uow_factory() as uow:
        assert uow.events.max_seq(OWNER, session) == 0
        assert uow.episodes.for_session(OWNER, session) == []
        assert uow.beliefs.page(OWNER, None, 10, live_only=False) == []
        assert uow.audits.for_owner(OWNER) == []
        assert uow.runs.for_session(OWNER, session) == []
        assert uow.staged.get(OWNER, "b" * 64, StagedKind.DISTILLATION) is None
        assert uow.watermarks.get(OWNER, session) == 0
        for survivor in (OTHER_PRINCIPAL, OTHER_TENANT):
            assert len(uow.episodes.for_session(survivor, session)) == 1
            assert len(uow.beliefs.page(survivor, None, 10)) == 1


def test_tenant_erasure_reaches_every_principal_of_the_tenant_only(uow_factory: UnitOfWorkFactory) -> None:
    session = uuid4()
    for owner in (OWNER, OTHER_PRINCIPAL, OTHER_TENANT):
        _populate(uow_factory, owner, session)
    with uow_factory() as uow:
        counts = uow.erase_tenant("t1")
        uow.commit()
    assert counts.beliefs == 2 and counts.episodes == 2
    with uow_factory() as uow:
        assert uow.beliefs.page(OWNER, None, 10) == []
        assert uow.beliefs.page(OTHER_PRINCIPAL, None, 10) == []
        assert len(uow.beliefs.page(OTHER_TENANT, None, 10)) == 1
