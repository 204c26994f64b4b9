"""One contract, every store: the same test functions run against memory and PostgreSQL."""

from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

import pytest

from domain.beliefs.lifecycle import (
    HYPOTHESIS_HORIZON,
    ONGOING_HORIZON,
    cutoffs,
    expires_at,
    expiry_facts,
    is_expired,
    sweep_lanes,
)
from domain.beliefs.records import Authority, ClosedReason, MemoryRecord
from domain.beliefs.retrieval import RankingInputs, ranking_inputs
from domain.beliefs.sweep import sweep_page, sweep_page_by_facts
from domain.beliefs.usage import complete_run
from domain.candidates import ClaimKind, Derivation, Longevity, Sensitivity
from domain.errors import EventConflict
from domain.formation.equivalence import match_keys
from domain.formation.segments import event_footprint, plan_segments
from domain.owner import Owner
from domain.policy.alternatives import FormationChoice
from domain.policy.versions import FORMATION_9
from domain.ports import (
    BeliefLookups,
    EpisodePut,
    LookedUp,
    SegmentReads,
    Tombstones,
    UnitOfWorkFactory,
    VerbEntry,
    look_up_each,
    segment_reads_each,
)
from domain.staging import StagedKind, StagedOutput
from domain.telemetry import (
    AuditKind,
    ConsolidationRun,
    FormationAudit,
    ReasonCategory,
    RunOutcome,
    Stage,
    StageMetrics,
    StageOutcome,
)
from tests.builders import OTHER_PRINCIPAL, OTHER_TENANT, OWNER, T0, belief, episode, event, staged_output


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
        assert [e.seq for e in uow.events.read_range(OWNER, session, 0, 10)] == [1, 2, 3, 4, 5]
        assert [e.text for e in uow.events.read_range(OTHER_PRINCIPAL, session, 0, 10)] == ["Someone else."]
        assert uow.events.read_range(OWNER, uuid4(), 0, 10) == []


def test_a_commits_segment_reads_answer_as_their_own_reads(uow_factory: UnitOfWorkFactory) -> None:
    session = uuid4()
    big = event(4, " ".join(f"I visited town {i}, café {i}." for i in range(400)), session_id=session)
    small = [event(s, f"Turn {s}.", session_id=session) for s in (1, 2, 3)]
    with uow_factory() as uow:
        uow.events.append([*small, big, event(5, "After.", session_id=session)])
        uow.events.append([event(1, "Someone else.", session_id=session, owner=OTHER_PRINCIPAL)])
        uow.commit()
    refs = plan_segments(OWNER, session, FORMATION_9, [event_footprint(e) for e in (*small, big)])
    whole, pieces = refs[0], refs[1:]
    assert (whole.first_seq, whole.last_seq, whole.chars) == (1, 3, None) and len(pieces) > 2
    # A gap the plan passed: an event stored there later is not the segment's.
    gapped = whole.model_copy(update={"gaps": ((2, 2),)})
    report = FormationAudit(
        id=uuid4(),
        tenant_id=OWNER.tenant_id,
        principal_id=OWNER.principal_id,
        session_id=session,
        kind=AuditKind.SEGMENT_COMMITTED,
        dedupe_key="segment_committed/run/key",
        details={"report": "{}"},
        created_at=T0,
    )
    with uow_factory() as uow:
        uow.audits.record(report)
        for stage in (StagedKind.INTEGRATION, StagedKind.DISTILLATION):
            uow.staged.put(staged_output(OWNER, pieces[1].segment_key, stage, {"stage": stage.value}))
        uow.commit()
    with uow_factory() as uow:
        for ref in (whole, gapped, *pieces):
            for key in ("segment_committed/run/key", "segment_committed/other/key"):
                assert uow.segment_reads(ref, key) == segment_reads_each(uow, ref, key)
        reads = uow.segment_reads(pieces[1], "segment_committed/run/key")
        assert reads.recorded == report
        assert set(reads.staged) == {StagedKind.INTEGRATION, StagedKind.DISTILLATION}
        [piece] = reads.events
        assert pieces[1].chars is not None and piece.text == big.text[slice(*pieces[1].chars)]
        assert [e.seq for e in uow.segment_reads(gapped, "none").events] == [1, 3]
        assert uow.segment_reads(whole, "none") == SegmentReads(recorded=None, staged={}, events=small)
        foreign = whole.model_copy(update={"principal_id": OTHER_PRINCIPAL.principal_id})
        assert [e.text for e in uow.segment_reads(foreign, "segment_committed/run/key").events] == [
            "Someone else."
        ]
        assert uow.segment_reads(foreign, "segment_committed/run/key").recorded is None


def test_events_record_when_they_were_received_not_when_they_say_they_occurred(
    uow_factory: UnitOfWorkFactory,
) -> None:
    session = uuid4()
    before = datetime.now(UTC)
    dated = event(2, session_id=session).model_copy(update={"occurred_at": datetime(2199, 1, 1, tzinfo=UTC)})
    with uow_factory() as uow:
        uow.events.append([event(1, session_id=session), dated])
        uow.commit()
    with uow_factory() as uow:
        received = uow.events.received_at(OWNER, session, [2, 9])
        assert uow.events.received_at(OTHER_PRINCIPAL, session, [2]) == {}
    assert list(received) == [2]
    # Within a minute of this process's clock (a database on this machine): not the client's 2199.
    assert abs(received[2] - before) < timedelta(minutes=1)


def test_late_events_wait_flagged_in_order_until_settled_and_a_stored_event_keeps_its_flag(
    uow_factory: UnitOfWorkFactory,
) -> None:
    session = uuid4()
    with uow_factory() as uow:
        assert uow.events.accepts_late
        uow.events.append([event(s, f"Turn {s}.", session_id=session) for s in (1, 2, 6)])
        uow.events.append([event(s, f"Late {s}.", session_id=session) for s in (5, 3, 4)], late=True)
        uow.events.append(
            [event(3, "Other principal.", session_id=session, owner=OTHER_PRINCIPAL)], late=True
        )
        # Appending an ordinary event again as late (or a late one again) changes nothing.
        again = uow.events.append([event(1, "Turn 1.", session_id=session)], late=True)
        uow.commit()
    assert (again.appended, again.already_present) == (0, 1)
    with uow_factory() as uow:
        assert [e.seq for e in uow.events.late_pending(OWNER, session, 10)] == [3, 4, 5]
        assert [e.text for e in uow.events.late_pending(OWNER, session, 2)] == ["Late 3.", "Late 4."]
        assert uow.events.late_pending(OWNER, uuid4(), 10) == []
        # Late events read like any other.
        assert [e.seq for e in uow.events.read_range(OWNER, session, 0, 10)] == [1, 2, 3, 4, 5, 6]
        assert uow.events.settle_late(OWNER, session, 1, 4) == 2
        uow.commit()
    with uow_factory() as uow:
        assert [e.seq for e in uow.events.late_pending(OWNER, session, 10)] == [5]
        assert uow.events.settle_late(OWNER, session, 3, 4) == 0
        assert [e.seq for e in uow.events.late_pending(OTHER_PRINCIPAL, session, 10)] == [3]


def test_passed_events_are_marked_late_once_and_only_in_their_ranges(uow_factory: UnitOfWorkFactory) -> None:
    session = uuid4()
    with uow_factory() as uow:
        uow.events.append([event(s, f"Turn {s}.", session_id=session) for s in (1, 2, 3, 5, 7, 8)])
        uow.events.append([event(3, "Other principal.", session_id=session, owner=OTHER_PRINCIPAL)])
        assert uow.events.mark_late(OWNER, session, []) == 0
        assert uow.events.mark_late(OWNER, session, [(3, 4), (6, 7)]) == 2
        uow.commit()
    with uow_factory() as uow:
        assert [e.seq for e in uow.events.late_pending(OWNER, session, 10)] == [3, 7]
        assert uow.events.late_pending(OTHER_PRINCIPAL, session, 10) == []
        # Already waiting: not flagged again.
        assert uow.events.mark_late(OWNER, session, [(1, 3)]) == 2
        assert [e.seq for e in uow.events.late_pending(OWNER, session, 10)] == [1, 2, 3, 7]


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


def test_gate_memory_episode_repository_parity_pieces_of_one_event_keep_their_own_episodes(
    uow_factory: UnitOfWorkFactory,
) -> None:
    session = uuid4()
    first = episode((5,), session_id=session, narrative="User plans the garden.", source_chars=(0, 900))
    second = episode((5,), session_id=session, narrative="User plans the shed.", source_chars=(901, 1800))
    whole = episode((5,), session_id=session, narrative="User plans the garden and the shed.")
    with uow_factory() as uow:
        assert [uow.episodes.put(e) for e in (first, second, whole)] == [EpisodePut.STORED] * 3
        uow.commit()
    rewrite = episode(
        (5,), session_id=session, narrative="A re-pass wrote the shed.", source_chars=(901, 1800)
    )
    with uow_factory() as uow:
        assert uow.episodes.put(second.model_copy(update={"id": uuid4()})) is EpisodePut.UNCHANGED
        assert uow.episodes.put(rewrite) is EpisodePut.DERIVATION_CONFLICT
        uow.commit()
    with uow_factory() as uow:
        assert {e.id for e in uow.episodes.for_session(OWNER, session)} == {first.id, second.id, whole.id}
        assert uow.episodes.get_by_derivation(OWNER, second.derivation_key) == second
        assert uow.episodes.get(OWNER, first.id) == first
        assert uow.erase_principal(OWNER).episodes == 3
        uow.commit()
    with uow_factory() as uow:
        assert uow.episodes.for_session(OWNER, session) == []


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


def test_an_autocommit_unit_of_work_commits_each_write_as_it_returns(uow_factory: UnitOfWorkFactory) -> None:
    key = "f" * 64
    with pytest.raises(RuntimeError), uow_factory.autocommit() as uow:
        uow.staged.put(staged_output(OWNER, key, StagedKind.INTEGRATION, {"episodes": [1]}))
        # Neither a rollback nor leaving with an error takes back what was written.
        uow.rollback()
        raise RuntimeError("after the write")
    with uow_factory.autocommit() as uow:
        uow.staged.put(staged_output(OWNER, key, StagedKind.ANTICIPATION, {"predictions": []}))
    with uow_factory() as uow:
        assert uow.staged.get_all(OWNER, key) == {
            StagedKind.INTEGRATION: {"episodes": [1]},
            StagedKind.ANTICIPATION: {"predictions": []},
        }
    # It reads what was committed, as any unit of work does.
    with uow_factory.autocommit() as uow:
        assert set(uow.staged.get_all(OWNER, key)) == {StagedKind.INTEGRATION, StagedKind.ANTICIPATION}


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
        assert {b.id for b in uow.beliefs.by_subjects(OWNER, ["topic:0"])} == {
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
        assert uow.runs.for_session(OWNER, session) == [run]
        assert uow.runs.for_session(OTHER_PRINCIPAL, session) == []
        assert uow.audits.for_owner(OWNER) == [audit]
        assert uow.audits.for_owner(OWNER, AuditKind.REPASS_EXHAUSTED) == []


def test_staged_outputs_replace_and_are_owner_scoped(uow_factory: UnitOfWorkFactory) -> None:
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


def test_every_stage_document_of_a_segment_is_read_back_in_one_read(uow_factory: UnitOfWorkFactory) -> None:
    key, other_key = "d" * 64, "e" * 64
    with uow_factory() as uow:
        assert uow.staged.get_all(OWNER, key) == {}
        uow.staged.put(staged_output(OWNER, key, StagedKind.INTEGRATION, {"episodes": [1]}))
        uow.staged.put(staged_output(OWNER, key, StagedKind.ANTICIPATION, {"predictions": []}))
        # A retried stage's document replaces the first; another segment's and another owner's stay apart.
        uow.staged.put(staged_output(OWNER, key, StagedKind.INTEGRATION, {"episodes": [2]}))
        uow.staged.put(staged_output(OWNER, other_key, StagedKind.DISTILLATION, {"candidates": []}))
        uow.staged.put(staged_output(OTHER_PRINCIPAL, key, StagedKind.DISTILLATION, {"candidates": []}))
        uow.commit()
    with uow_factory() as uow:
        assert uow.staged.get_all(OWNER, key) == {
            StagedKind.INTEGRATION: {"episodes": [2]},
            StagedKind.ANTICIPATION: {"predictions": []},
        }
        assert uow.staged.get_all(OTHER_PRINCIPAL, key) == {StagedKind.DISTILLATION: {"candidates": []}}


def test_staged_outputs_are_deleted_per_segment_and_stale_ones_purged_in_pages(
    uow_factory: UnitOfWorkFactory,
) -> None:
    def staged(owner: Owner, key: str, stage: StagedKind) -> StagedOutput:
        return staged_output(owner, key, stage, {"episodes": []})

    committed, other, old = "a" * 64, "b" * 64, "c" * 64
    with uow_factory() as uow:
        for stage in StagedKind:
            uow.staged.put(staged(OWNER, committed, stage))
        uow.staged.put(staged(OTHER_PRINCIPAL, committed, StagedKind.INTEGRATION))
        uow.staged.put(staged(OWNER, other, StagedKind.INTEGRATION))
        uow.commit()
    with uow_factory() as uow:
        assert uow.staged.delete(OWNER, committed) == len(StagedKind)
        uow.commit()
    with uow_factory() as uow:
        assert all(uow.staged.get(OWNER, committed, stage) is None for stage in StagedKind)
        # Another owner's row under the same key, and the owner's other segment, stay.
        assert uow.staged.get(OTHER_PRINCIPAL, committed, StagedKind.INTEGRATION) is not None
        assert uow.staged.get(OWNER, other, StagedKind.INTEGRATION) is not None
        # Nothing was staged before a minute ago; everything was before a minute from now.
        assert uow.staged.purge_stale(datetime.now(UTC) - timedelta(minutes=1), 10) == 0
        assert uow.staged.purge_stale(datetime.now(UTC) + timedelta(minutes=1), 1) == 1
        assert uow.staged.purge_stale(datetime.now(UTC) + timedelta(minutes=1), 10) == 1
        uow.staged.put(staged(OWNER, old, StagedKind.DISTILLATION))
        uow.commit()
    with uow_factory() as uow:
        assert uow.staged.get(OWNER, old, StagedKind.DISTILLATION) is not None


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
        assert uow.events.read_range(OWNER, session, 0, 10) == []
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


# --- lifecycle@2: the expiry page, conditional retirement, the usage clock ---------------------------


_TICK = timedelta(microseconds=1)


def _hypothesis(**overrides: Any) -> MemoryRecord:
    values: dict[str, Any] = {
        "subject": "experience:software",
        "statement": "User likely has software-development experience.",
        "belief_type": "skill",
        "claim_kind": ClaimKind.SKILL,
        "derivation": Derivation.HYPOTHESIS,
        "longevity": Longevity.TENTATIVE,
        "confidence": 0.35,
    }
    values.update(overrides)
    return belief(**values)


def _every_shape() -> list[MemoryRecord]:
    shapes = [_hypothesis(), belief(), belief(authority=Authority.EXPLICIT_REMEMBER, confidence=0.95)]
    shapes += [
        belief(claim_kind=kind, belief_type=kind.value, longevity=Longevity.DURABLE) for kind in ClaimKind
    ]
    return shapes


def test_lifecycle_expiry_candidates_agree_with_the_domain_rule_at_every_boundary(
    uow_factory: UnitOfWorkFactory,
) -> None:
    records = _every_shape()
    with uow_factory() as uow:
        for record in records:
            uow.beliefs.upsert(record)
        uow.commit()
    boundaries = sorted({b for r in records if (b := expires_at(r)) is not None})
    assert expires_at(records[2]) is None
    for boundary in boundaries:
        for now in (boundary - _TICK, boundary):
            expected = sorted((r.id for r in records if is_expired(r, now)), key=str)
            with uow_factory() as uow:
                found = uow.beliefs.expiry_candidates(cutoffs(now), None, 100)
            assert sorted((f.id for f in found), key=str) == expected, (boundary, now)
            assert [(f.last_evidence_at, f.id) for f in found] == sorted(
                (f.last_evidence_at, f.id) for f in found
            )
    with uow_factory() as uow:
        assert uow.beliefs.expiry_candidates(cutoffs(T0 + HYPOTHESIS_HORIZON - _TICK), None, 100) == []
        at_hypothesis = uow.beliefs.expiry_candidates(cutoffs(T0 + HYPOTHESIS_HORIZON), None, 100)
    assert [f.id for f in at_hypothesis] == [records[0].id]


def test_lifecycle_expiry_pages_follow_the_cursor_and_skip_closed_and_future_evidence(
    uow_factory: UnitOfWorkFactory,
) -> None:
    expired = [_hypothesis(last_evidence_at=T0 + timedelta(minutes=i % 3)) for i in range(7)]
    skewed = _hypothesis(last_evidence_at=T0 + timedelta(days=365))
    closed = _hypothesis().closed(T0 + timedelta(days=1), ClosedReason.RETRACTED)
    with uow_factory() as uow:
        for record in [*expired, skewed, closed]:
            uow.beliefs.upsert(record)
        uow.commit()
    now = T0 + timedelta(days=60)
    seen: list[UUID] = []
    after = None
    with uow_factory() as uow:
        while page := uow.beliefs.expiry_candidates(cutoffs(now), after, 3):
            assert len(page) <= 3
            seen += [f.id for f in page]
            after = page[-1].cursor
    assert len(seen) == len(set(seen)) == 7
    assert set(seen) == {r.id for r in expired}


def test_lifecycle_retire_is_conditional_on_unchanged_facts_and_never_twice(
    uow_factory: UnitOfWorkFactory,
) -> None:
    stale, re_evidenced, user_closed, remembered = (_hypothesis() for _ in range(4))
    with uow_factory() as uow:
        for record in (stale, re_evidenced, user_closed, remembered):
            uow.beliefs.upsert(record)
        uow.commit()
    now = T0 + HYPOTHESIS_HORIZON
    with uow_factory() as uow:
        facts = uow.beliefs.expiry_candidates(cutoffs(now), None, 10)
    assert len(facts) == 4
    # The user and consolidation act between the page read and the update.
    with uow_factory() as uow:
        uow.beliefs.upsert(re_evidenced.model_copy(update={"last_evidence_at": now - timedelta(days=1)}))
        uow.beliefs.close_validity(OWNER, user_closed.id, now, ClosedReason.EDITED)
        uow.beliefs.upsert(remembered.model_copy(update={"authority": Authority.EXPLICIT_REMEMBER}))
        uow.commit()
    from domain.beliefs.lifecycle import decide

    decided = [d for f in facts if (d := decide(f, now)) is not None]
    with uow_factory() as uow:
        retired = uow.beliefs.retire(decided)
        again = uow.beliefs.retire(decided)
        uow.commit()
    assert [r.facts.id for r in retired] == [stale.id]
    assert again == []
    with uow_factory() as uow:
        gone = uow.beliefs.get(OWNER, stale.id)
        assert gone is not None and gone.closed_reason is ClosedReason.RETIRED_HYPOTHESIS
        assert gone.valid_to == T0 + HYPOTHESIS_HORIZON
        edited = uow.beliefs.get(OWNER, user_closed.id)
        assert edited is not None and edited.closed_reason is ClosedReason.EDITED
        for kept in (re_evidenced, remembered):
            live = uow.beliefs.get(OWNER, kept.id)
            assert live is not None and live.is_live


def test_lifecycle_sweep_page_audits_content_free_once(uow_factory: UnitOfWorkFactory) -> None:
    hypothesis, ongoing = _hypothesis(), belief()
    other = belief(owner=OTHER_TENANT)
    with uow_factory() as uow:
        for record in (hypothesis, ongoing, other):
            uow.beliefs.upsert(record)
        uow.commit()
    now = T0 + ONGOING_HORIZON
    with uow_factory() as uow:
        first = sweep_page(uow, now, None, 2)
        uow.commit()
    with uow_factory() as uow:
        second = sweep_page(uow, now, first.next_cursor, 2)
        repeat = sweep_page(uow, now, None, 2)
        uow.commit()
    assert (first.retired, first.done, second.retired, second.done) == (2, False, 1, True)
    assert repeat.retired == 0 and repeat.examined == 0
    with uow_factory() as uow:
        audits = uow.audits.for_owner(OWNER, AuditKind.MEMORY_RETIRED)
        assert len(uow.audits.for_owner(OTHER_TENANT, AuditKind.MEMORY_RETIRED)) == 1
    assert sorted(str(a.details["reason"]) for a in audits) == [
        ClosedReason.RETIRED_HYPOTHESIS.value,
        ClosedReason.RETIRED_ONGOING.value,
    ]
    for audit in audits:
        rendered = repr(audit.details)
        assert hypothesis.statement not in rendered and ongoing.statement not in rendered
        assert hypothesis.subject not in rendered and ongoing.subject not in rendered


def test_gate_memory_usage_clock_citation_moves_usage_only_and_completion_is_idempotent(
    uow_factory: UnitOfWorkFactory,
) -> None:
    cited, uncited, closed = belief(), _hypothesis(), belief()
    with uow_factory() as uow:
        for record in (cited, uncited, closed):
            uow.beliefs.upsert(record)
        uow.beliefs.close_validity(OWNER, closed.id, T0 + timedelta(hours=1), ClosedReason.DELETED)
        uow.commit()
    run_id, used_at = uuid4(), T0 + timedelta(days=20)
    stray = uuid4()
    with uow_factory() as uow:
        report = complete_run(
            uow, OWNER, run_id, [cited.id, uncited.id, closed.id], [cited.id, stray], used_at
        )
        uow.commit()
    assert (report.cited, report.returned_uncited, report.not_live, report.unfaithful_citations) == (
        1,
        1,
        1,
        1,
    )
    with uow_factory() as uow:
        after_cite = uow.beliefs.get(OWNER, cited.id)
        after_return = uow.beliefs.get(OWNER, uncited.id)
    assert after_cite is not None and after_return is not None
    assert after_cite.last_used_at == used_at and after_cite.utility > cited.utility
    untouched = (
        "last_evidence_at",
        "evidence_count",
        "corroboration_count",
        "confidence",
        "last_reinforced_at",
    )
    for field in untouched:
        assert getattr(after_cite, field) == getattr(cited, field), field
        assert getattr(after_return, field) == getattr(uncited, field), field
    assert expires_at(after_cite) == expires_at(cited)
    assert after_return.last_used_at is None and after_return.utility == uncited.utility  # 0 -> toward 0
    # A repeated completion (a retried request) changes nothing, even with a later clock.
    with uow_factory() as uow:
        repeat = complete_run(
            uow, OWNER, run_id, [cited.id, uncited.id], [cited.id], used_at + timedelta(days=1)
        )
        uow.commit()
    assert (repeat.cited, repeat.returned_uncited, repeat.already_recorded) == (0, 0, 2)
    with uow_factory() as uow:
        assert uow.beliefs.get(OWNER, cited.id) == after_cite
        assert uow.beliefs.get(OWNER, uncited.id) == after_return
    # The next run's uncited return pulls utility down; it never touches last_used_at.
    with uow_factory() as uow:
        complete_run(uow, OWNER, uuid4(), [cited.id], [], used_at + timedelta(days=2))
        uow.commit()
    with uow_factory() as uow:
        later = uow.beliefs.get(OWNER, cited.id)
    assert later is not None and later.utility < after_cite.utility and later.last_used_at == used_at
    with uow_factory() as uow:
        assert uow.audits.record_many([]) == 0
        usage = uow.audits.for_owner(OWNER, AuditKind.MEMORY_USED)
    assert len(usage) == 3


# --- commit lookups: by subjects, by main verb, user tombstones, audit by dedupe key -------------------


def test_commit_lookups_by_subjects_and_main_verb_are_owner_scoped_live_and_bounded(
    uow_factory: UnitOfWorkFactory,
) -> None:
    daily = belief(subject="activity:outdoor", statement="User is running outdoors every day.")
    mornings = belief(subject="habit:mornings", statement="User goes running outdoors most mornings.")
    journal = belief(subject="resource:journal", statement="User tracks runs outdoors in a journal.")
    closed = belief(subject="activity:outdoor", statement="User runs outdoors at night.")
    foreign = belief(owner=OTHER_PRINCIPAL, subject="activity:outdoor", statement="User runs outdoors.")
    with uow_factory() as uow:
        for b in (daily, mornings, journal, closed, foreign):
            uow.beliefs.upsert(b)
        uow.beliefs.close_validity(OWNER, closed.id, T0, ClosedReason.SUPERSEDED)
        uow.commit()
    with uow_factory() as uow:
        by_subjects = uow.beliefs.by_subjects(OWNER, ["activity:outdoor", "resource:journal", "none"])
        assert [b.id for b in by_subjects] == sorted([daily.id, journal.id])
        assert uow.beliefs.by_subjects(OWNER, []) == []
        running = uow.beliefs.verb_entries(OWNER, [("run", ())], limit_per_key=10)[("run", ())]
        assert [e.id for e in running] == sorted([daily.id, mornings.id])
        assert len(uow.beliefs.verb_entries(OWNER, [("run", ())], limit_per_key=1)[("run", ())]) == 1
        keys = [("run", ("morning",)), ("run", ("journal",)), ("track", ())]
        found = uow.beliefs.verb_entries(OWNER, keys, limit_per_key=10)
        assert [e.id for e in found[("run", ("morning",))]] == [mornings.id]
        assert found[("run", ("journal",))] == []
        assert [e.id for e in found[("track", ())]] == [journal.id]


def test_commit_lookup_closed_by_user_returns_only_user_tombstones_newest_first(
    uow_factory: UnitOfWorkFactory,
) -> None:
    deleted = belief(subject="project:agent", statement="User is building an agent.")
    rejected = belief(subject="project:agent", statement="User likely writes code.")
    edited = belief(subject="resource:bmw", statement="User drives a BMW.")
    retired = belief(subject="project:agent", statement="User is building a robot.")
    foreign = belief(owner=OTHER_TENANT, subject="project:agent", statement="User is building an agent.")
    with uow_factory() as uow:
        for b in (deleted, rejected, edited, retired, foreign):
            uow.beliefs.upsert(b)
        uow.beliefs.close_validity(OWNER, deleted.id, T0 + timedelta(hours=1), ClosedReason.DELETED)
        uow.beliefs.close_validity(OWNER, rejected.id, T0 + timedelta(hours=2), ClosedReason.REJECTED)
        uow.beliefs.close_validity(OWNER, edited.id, T0 + timedelta(hours=3), ClosedReason.EDITED)
        uow.beliefs.close_validity(OWNER, retired.id, T0, ClosedReason.RETIRED_ONGOING)
        uow.beliefs.close_validity(OTHER_TENANT, foreign.id, T0, ClosedReason.DELETED)
        uow.commit()
    with uow_factory() as uow:
        found = uow.beliefs.closed_by_user_each(
            OWNER, subjects=["project:agent"], verbs=["drive"], limit_per_key=10
        )
        assert [b.id for b in found.by_subject["project:agent"]] == [rejected.id, deleted.id]
        assert [b.id for b in found.by_verb["drive"]] == [edited.id]
        first = uow.beliefs.closed_by_user_each(OWNER, subjects=["project:agent"], verbs=[], limit_per_key=1)
        assert [b.id for b in first.by_subject["project:agent"]] == [rejected.id]


def test_audit_get_by_dedupe_key_is_owner_scoped(uow_factory: UnitOfWorkFactory) -> None:
    audit = FormationAudit(
        id=uuid4(),
        tenant_id=OWNER.tenant_id,
        principal_id=OWNER.principal_id,
        session_id=None,
        kind=AuditKind.GOVERNED_WRITE,
        dedupe_key="governed/delete/x",
        details={"action": "delete"},
        created_at=T0,
    )
    with uow_factory() as uow:
        uow.audits.record(audit)
        uow.commit()
    with uow_factory() as uow:
        assert uow.audits.get(OWNER, "governed/delete/x") == audit
        assert uow.audits.get(OTHER_PRINCIPAL, "governed/delete/x") is None
        assert uow.audits.get(OWNER, "governed/delete/y") is None


# --- batched commit lookups and writes: each answers as its one-key form does ----------------------------


def test_commit_batched_lookups_answer_per_key_like_the_single_lookups(
    uow_factory: UnitOfWorkFactory,
) -> None:
    daily = belief(subject="activity:outdoor", statement="User is running outdoors every day.")
    mornings = belief(subject="habit:mornings", statement="User goes running outdoors most mornings.")
    journal = belief(subject="resource:journal", statement="User tracks runs outdoors in a journal.")
    closed = belief(subject="activity:outdoor", statement="User runs outdoors at night.")
    foreign = belief(owner=OTHER_PRINCIPAL, subject="activity:outdoor", statement="User runs outdoors.")
    deleted = belief(subject="project:agent", statement="User is building an agent.")
    edited = belief(subject="resource:bmw", statement="User drives a BMW.")
    with uow_factory() as uow:
        for b in (daily, mornings, journal, closed, foreign, deleted, edited):
            uow.beliefs.upsert(b)
        uow.beliefs.close_validity(OWNER, closed.id, T0, ClosedReason.SUPERSEDED)
        uow.beliefs.close_validity(OWNER, deleted.id, T0 + timedelta(hours=1), ClosedReason.DELETED)
        uow.beliefs.close_validity(OWNER, edited.id, T0 + timedelta(hours=3), ClosedReason.EDITED)
        uow.commit()
    building = match_keys(deleted.statement)[0]
    assert building is not None
    with uow_factory() as uow:
        keys = [("run", ()), ("run", ("morning",)), ("track", ()), ("run", ("journal",)), ("swim", ())]
        found = uow.beliefs.verb_entries(OWNER, keys, limit_per_key=10)
        assert set(found) == set(keys)
        for key in keys:
            assert found[key] == uow.beliefs.verb_entries(OWNER, [key], limit_per_key=10)[key]
        assert [e.id for e in found[("run", ())]] == sorted([daily.id, mornings.id])

        tombstones = uow.beliefs.closed_by_user_each(
            OWNER,
            subjects=["project:agent", "activity:outdoor"],
            verbs=["drive", building, "run"],
            limit_per_key=10,
        )
        assert [b.id for b in tombstones.by_subject["project:agent"]] == [deleted.id]
        assert tombstones.by_subject["activity:outdoor"] == []
        assert [b.id for b in tombstones.by_verb["drive"]] == [edited.id]
        assert [b.id for b in tombstones.by_verb[building]] == [deleted.id]
        assert tombstones.by_verb["run"] == []
        assert (
            tombstones.by_subject["project:agent"]
            == uow.beliefs.closed_by_user_each(
                OWNER, subjects=["project:agent"], verbs=[], limit_per_key=10
            ).by_subject["project:agent"]
        )
        assert uow.beliefs.closed_by_user_each(
            OTHER_PRINCIPAL, subjects=["project:agent"], verbs=[], limit_per_key=10
        ).by_subject == {"project:agent": []}
        empty = uow.beliefs.closed_by_user_each(OWNER, subjects=[], verbs=[], limit_per_key=10)
        assert empty.by_subject == {} and empty.by_verb == {}

        unknown = uuid4()
        assert uow.beliefs.existing_ids(OWNER, [daily.id, closed.id, deleted.id, foreign.id, unknown]) == {
            daily.id,
            closed.id,
            deleted.id,
        }
        assert uow.beliefs.existing_ids(OWNER, []) == set()

        # All four at once, as a commit's prefetch asks them: each answers as it does alone.
        wanted = BeliefLookups(
            subjects=["activity:outdoor", "resource:journal", "none"],
            verb_keys=keys,
            match_limit=1,
            tombstone_subjects=["project:agent", "activity:outdoor"],
            tombstone_verbs=["drive", building, "run"],
            tombstone_limit=10,
            ids=[daily.id, closed.id, foreign.id, unknown],
        )
        together = uow.beliefs.look_up(OWNER, wanted)
        assert together == look_up_each(uow.beliefs, OWNER, wanted)
        assert [b.id for b in together.live] == sorted([daily.id, journal.id])
        assert together.live == uow.beliefs.get_many(OWNER, [daily.id, journal.id])
        assert [[e.id for e in together.entries[key]] for key in keys] == [
            [min(daily.id, mornings.id)],
            [mornings.id],
            [journal.id],
            [],
            [],
        ]
        assert together.tombstones == tombstones
        assert together.existing == {daily.id, closed.id}
        assert uow.beliefs.look_up(OTHER_PRINCIPAL, wanted).live == [foreign]
        nothing = uow.beliefs.look_up(OWNER, BeliefLookups(match_limit=1, tombstone_limit=1))
        assert nothing == LookedUp(
            live=[], entries={}, tombstones=Tombstones(by_subject={}, by_verb={}), existing=set()
        )


def test_upsert_many_writes_every_record_and_the_last_of_an_id_wins(
    uow_factory: UnitOfWorkFactory,
) -> None:
    first = belief(subject="activity:outdoor", statement="User is running outdoors every day.")
    second = belief(subject="habit:mornings", statement="User goes running outdoors most mornings.")
    theirs = belief(owner=OTHER_PRINCIPAL, subject="activity:outdoor", statement="User runs outdoors.")
    with uow_factory() as uow:
        uow.beliefs.upsert(theirs)
        uow.beliefs.upsert_many([])
        reworded = first.model_copy(update={"statement": "User swims outdoors every day.", "version": 1})
        uow.beliefs.upsert_many([first, second, reworded])
        uow.commit()
    with uow_factory() as uow:
        assert uow.beliefs.get(OWNER, first.id) == reworded
        assert uow.beliefs.get(OWNER, second.id) == second
        assert uow.beliefs.get(OTHER_PRINCIPAL, theirs.id) == theirs
        found = uow.beliefs.verb_entries(OWNER, [("swim", ()), ("run", ())], limit_per_key=10)
        assert [e.id for e in found[("swim", ())]] == [first.id]
        assert [e.id for e in found[("run", ())]] == [second.id]


def test_lifecycle_store_sweep_gives_the_reference_answers_at_the_exact_boundary(
    uow_factory: UnitOfWorkFactory,
) -> None:
    """retire_expired_page (set-based in PostgreSQL) retires what decide() retires, with its reason, valid_to
    and audit details, only at the boundary, once, and never a belief changed to outlive it."""
    from domain.beliefs.lifecycle import decide, retirement_audit

    records = _every_shape()
    future = _hypothesis(last_evidence_at=T0 + timedelta(days=3650))
    with uow_factory() as uow:
        for record in [*records, future]:
            uow.beliefs.upsert(record)
        uow.commit()
    boundaries = sorted({b for r in records if (b := expires_at(r)) is not None})
    for boundary in boundaries:
        with uow_factory() as uow:
            early = sweep_page(uow, boundary - _TICK, None, 100)
            uow.commit()
        assert early.retired == 0, boundary
        with uow_factory() as uow:
            page = sweep_page(uow, boundary, None, 100)
            uow.commit()
        due = [r for r in records if expires_at(r) == boundary]
        assert page.retired == len(due) and page.done
        with uow_factory() as uow:
            for record in due:
                stored = uow.beliefs.get(OWNER, record.id)
                expected = decide(expiry_facts(record), boundary)
                assert stored is not None and expected is not None
                assert (stored.valid_to, stored.closed_reason) == (expected.valid_to, expected.reason)
                audit = uow.audits.get(OWNER, f"retired/{record.id}")
                assert audit is not None and audit.kind is AuditKind.MEMORY_RETIRED
                reference = retirement_audit(expected, boundary, audit.id)
                assert audit.details == reference.details and audit.created_at == boundary
        with uow_factory() as uow:
            assert sweep_page(uow, boundary, None, 100).retired == 0
    with uow_factory() as uow:
        remembered = uow.beliefs.get(OWNER, records[2].id)
        skewed = uow.beliefs.get(OWNER, future.id)
        assert remembered is not None and remembered.is_live
        assert skewed is not None and skewed.is_live


def test_lifecycle_store_sweep_pages_and_spares_a_belief_re_evidenced_before_its_page(
    uow_factory: UnitOfWorkFactory,
) -> None:
    expired = [_hypothesis(last_evidence_at=T0 + timedelta(minutes=i % 3)) for i in range(7)]
    with uow_factory() as uow:
        for record in expired:
            uow.beliefs.upsert(record)
        uow.commit()
    now = T0 + HYPOTHESIS_HORIZON + timedelta(minutes=5)
    with uow_factory() as uow:
        first = sweep_page(uow, now, None, 3)
        uow.commit()
    assert (first.examined, first.retired, first.done) == (3, 3, False)
    live = [r for r in expired if (s := _get(uow_factory, r.id)) is not None and s.is_live]
    renewed = live[-1].model_copy(update={"last_evidence_at": now - timedelta(days=1)})
    with uow_factory() as uow:
        uow.beliefs.upsert(renewed)
        uow.commit()
    retired = first.retired
    after = first.next_cursor
    while True:
        with uow_factory() as uow:
            page = sweep_page(uow, now, after, 3)
            uow.commit()
        retired += page.retired
        after = page.next_cursor
        if page.done:
            break
    assert retired == 6
    stored = _get(uow_factory, renewed.id)
    assert stored is not None and stored.is_live
    with uow_factory() as uow:
        assert len(uow.audits.for_owner(OWNER, AuditKind.MEMORY_RETIRED)) == 6


def _at_lane_edges(count: int) -> list[UUID]:
    """Ids on both sides of every boundary between ``count`` lanes, plus the two ends of the id space: where a
    store's uuid order and SweepLane's 128-bit integer order would disagree, if anywhere."""
    edges = [UUID(int=0), UUID(int=(1 << 128) - 1)]
    for index in range(1, count):
        first = index * (1 << 128) // count
        edges += [UUID(int=first - 1), UUID(int=first)]
    return edges


@pytest.mark.parametrize("sweep", [sweep_page, sweep_page_by_facts], ids=["store", "reference"])
def test_lifecycle_sweep_lanes_retire_disjoint_rows_that_together_are_the_one_lane_sweep(
    uow_factory: UnitOfWorkFactory, sweep: Any
) -> None:
    ids = _at_lane_edges(3) + [uuid4() for _ in range(6)]
    expired = [_hypothesis(id=i, last_evidence_at=T0 + timedelta(minutes=n % 4)) for n, i in enumerate(ids)]
    with uow_factory() as uow:
        for record in expired:
            uow.beliefs.upsert(record)
        uow.commit()
    now = T0 + HYPOTHESIS_HORIZON + timedelta(hours=1)
    retired_by_lane: list[set[UUID]] = []
    for lane in sweep_lanes(3):
        before = {r.id for r in expired if (s := _get(uow_factory, r.id)) is not None and s.is_live}
        after = None
        while True:
            with uow_factory() as uow:
                page = sweep(uow, now, after, 2, lane)
                uow.commit()
            after = page.next_cursor
            if page.done:
                break
        now_live = {r.id for r in expired if (s := _get(uow_factory, r.id)) is not None and s.is_live}
        retired_by_lane.append(before - now_live)
    # Lane k holds ids in [k/3, (k+1)/3) of the 128-bit space; the edge ids say exactly which lane is whose.
    expected = [
        {i for i in ids if index * (1 << 128) // 3 <= i.int < (index + 1) * (1 << 128) // 3}
        for index in range(3)
    ]
    assert retired_by_lane == expected
    assert set().union(*retired_by_lane) == set(ids)
    with uow_factory() as uow:
        audits = uow.audits.for_owner(OWNER, AuditKind.MEMORY_RETIRED)
    assert sorted(str(a.details["belief_id"]) for a in audits) == sorted(str(i) for i in ids)


def _get(uow_factory: UnitOfWorkFactory, belief_id: UUID) -> MemoryRecord | None:
    with uow_factory() as uow:
        return uow.beliefs.get(OWNER, belief_id)


def test_recall_reads_ranking_inputs_of_live_beliefs_by_id_and_full_records_by_ids(
    uow_factory: UnitOfWorkFactory,
) -> None:
    shapes = [
        belief(),
        belief(
            claim_kind=ClaimKind.SKILL,
            belief_type="skill",
            derivation=Derivation.HYPOTHESIS,
            longevity=Longevity.TENTATIVE,
            confidence=0.35,
            utility=0.4,
            last_evidence_at=T0 + timedelta(days=2),
        ),
        belief(authority=Authority.EXPLICIT_REMEMBER, confidence=0.95, longevity=Longevity.DURABLE),
        belief(claim_kind=ClaimKind.ROLE, belief_type="role", longevity=Longevity.DURABLE, utility=0.9),
        belief(last_evidence_at=T0 - timedelta(days=200)),
    ]
    closed = belief(statement="User used to live in Oslo.")
    foreign = [belief(owner=OTHER_PRINCIPAL), belief(owner=OTHER_TENANT)]
    with uow_factory() as uow:
        uow.beliefs.upsert_many([*shapes, closed, *foreign])
        uow.beliefs.close_validity(OWNER, closed.id, T0 + timedelta(days=1), ClosedReason.RETRACTED)
        uow.commit()
    live = sorted(shapes, key=lambda b: b.id)
    with uow_factory() as uow:
        first = uow.beliefs.ranking_page(OWNER, None, 3)
        rest = uow.beliefs.ranking_page(OWNER, first[-1].id, 3)
        assert first + rest == [ranking_inputs(b) for b in live]
        assert all(isinstance(i, RankingInputs) for i in first + rest)
        assert uow.beliefs.ranking_page(OWNER, live[-1].id, 3) == []
        assert uow.beliefs.ranking_page(OWNER, None, 0) == []
        asked = [live[3].id, closed.id, live[0].id, foreign[0].id, uuid4(), live[0].id]
        loaded = uow.beliefs.get_many(OWNER, asked)
        stored_closed = uow.beliefs.get(OWNER, closed.id)
        assert stored_closed is not None and not stored_closed.is_live
        assert loaded == sorted([live[0], live[3], stored_closed], key=lambda b: b.id)
        assert uow.beliefs.get_many(OWNER, []) == []
        assert uow.beliefs.get_many(OTHER_PRINCIPAL, [b.id for b in live]) == []


def test_cue_pool_reads_the_most_recently_updated_live_beliefs_of_the_asked_sensitivities(
    uow_factory: UnitOfWorkFactory,
) -> None:
    day = timedelta(days=1)
    oldest = belief(id=UUID(int=0xF0 << 120), updated_at=T0)
    # Tied on updated_at: the higher id comes first (store order).
    tied_low = belief(id=UUID(int=0x0F << 120), updated_at=T0 + day)
    tied_high = belief(id=UUID(int=0xF1 << 120), updated_at=T0 + day)
    public = belief(sensitivity=Sensitivity.PUBLIC, updated_at=T0 + 2 * day)
    newest = belief(updated_at=T0 + 3 * day)
    sensitive = belief(sensitivity=Sensitivity.SENSITIVE, updated_at=T0 + 4 * day)
    restricted = belief(sensitivity=Sensitivity.RESTRICTED, updated_at=T0 + 4 * day)
    closed = belief(updated_at=T0)
    foreign = [belief(owner=OTHER_PRINCIPAL, updated_at=T0 + 9 * day), belief(owner=OTHER_TENANT)]
    with uow_factory() as uow:
        uow.beliefs.upsert_many(
            [tied_low, newest, oldest, sensitive, public, restricted, closed, tied_high, *foreign]
        )
        # Closing stamps updated_at: the newest row of all, and not live.
        uow.beliefs.close_validity(OWNER, closed.id, T0 + 9 * day, ClosedReason.RETRACTED)
        uow.commit()
    cue = {Sensitivity.PUBLIC, Sensitivity.INTERNAL}
    with uow_factory() as uow:
        assert uow.beliefs.most_recent(OWNER, 10, cue) == [newest, public, tied_high, tied_low, oldest]
        assert uow.beliefs.most_recent(OWNER, 3, cue) == [newest, public, tied_high]
        assert uow.beliefs.most_recent(OWNER, 2, {Sensitivity.INTERNAL}) == [newest, tied_high]
        assert uow.beliefs.most_recent(OWNER, 3, set(Sensitivity)) == [
            *sorted([sensitive, restricted], key=lambda b: b.id, reverse=True),
            newest,
        ]
        assert uow.beliefs.most_recent(OWNER, 0, cue) == []
        assert uow.beliefs.most_recent(OWNER, 10, set()) == []
        assert uow.beliefs.most_recent(OTHER_PRINCIPAL, 10, cue) == [foreign[0]]


def test_commit_verb_entries_read_the_batched_lookups_beliefs_as_id_statement_and_lemmas(
    uow_factory: UnitOfWorkFactory,
) -> None:
    daily = belief(subject="activity:outdoor", statement="User is running outdoors every day.")
    mornings = belief(subject="habit:mornings", statement="User goes running outdoors most mornings.")
    journal = belief(subject="resource:journal", statement="User tracks runs outdoors in a journal.")
    closed = belief(subject="activity:outdoor", statement="User runs outdoors at night.")
    foreign = belief(owner=OTHER_PRINCIPAL, subject="activity:outdoor", statement="User runs outdoors.")
    with uow_factory() as uow:
        uow.beliefs.upsert_many([daily, mornings, journal, closed, foreign])
        uow.beliefs.close_validity(OWNER, closed.id, T0, ClosedReason.SUPERSEDED)
        uow.commit()
    keys = [("run", ()), ("run", ("morning",)), ("track", ()), ("run", ("journal",)), ("swim", ())]
    with uow_factory() as uow:
        entries = uow.beliefs.verb_entries(OWNER, keys, limit_per_key=10)
        assert set(entries) == set(keys)
        for key in keys:
            records = uow.beliefs.get_many(OWNER, [e.id for e in entries[key]])
            assert entries[key] == [VerbEntry(b.id, b.statement, match_keys(b.statement)[1]) for b in records]
        assert [e.id for e in entries[("run", ())]] == sorted([daily.id, mornings.id])
        assert len(uow.beliefs.verb_entries(OWNER, [("run", ())], limit_per_key=1)[("run", ())]) == 1
        assert uow.beliefs.verb_entries(OWNER, [], limit_per_key=10) == {}
        assert uow.beliefs.verb_entries(OTHER_PRINCIPAL, [("run", ())], limit_per_key=10) == {
            ("run", ()): [VerbEntry(foreign.id, foreign.statement, match_keys(foreign.statement)[1])]
        }


def test_a_formation_choice_is_one_per_owner_replaced_cleared_and_erased(
    uow_factory: UnitOfWorkFactory,
) -> None:
    def choice(owner: Owner, effort: str | None) -> FormationChoice:
        return FormationChoice(
            tenant_id=owner.tenant_id,
            principal_id=owner.principal_id,
            model_policy="anthropic",
            reasoning_effort=effort,
            chosen_at=T0,
        )

    other = OTHER_PRINCIPAL
    with uow_factory() as uow:
        assert uow.formation_choices.get(OWNER) is None
        assert not uow.formation_choices.clear(OWNER)
        uow.formation_choices.put(choice(OWNER, "low"))
        uow.formation_choices.put(choice(OWNER, "medium"))
        uow.formation_choices.put(choice(other, None))
        uow.commit()
    with uow_factory() as uow:
        assert uow.formation_choices.get(OWNER) == choice(OWNER, "medium")
        assert uow.formation_choices.clear(OWNER)
        uow.commit()
    with uow_factory() as uow:
        assert uow.formation_choices.get(OWNER) is None
        assert uow.formation_choices.get(other) == choice(other, None)
        uow.erase_principal(other)
        uow.commit()
    with uow_factory() as uow:
        assert uow.formation_choices.get(other) is None


def test_a_runs_stage_metrics_keep_the_alternative_tuple_they_ran_on(uow_factory: UnitOfWorkFactory) -> None:
    formed_on = "nemori-assisted-v1/anthropic@medium"
    metrics = StageMetrics(
        segment_index=0, stage=Stage.INTEGRATION, outcome=StageOutcome.OK, formed_on=formed_on
    )
    run = ConsolidationRun(
        id=uuid4(),
        tenant_id=OWNER.tenant_id,
        principal_id=OWNER.principal_id,
        session_id=uuid4(),
        formation_policy="formation@9",
        from_seq=0,
        to_seq=1,
        outcome=RunOutcome.COMPLETED,
        stage_metrics=(metrics,),
        started_at=T0,
        completed_at=T0,
    )
    with uow_factory() as uow:
        uow.runs.record(run)
        uow.commit()
    with uow_factory() as uow:
        [stored] = uow.runs.for_session(OWNER, run.session_id)
    assert stored.formed_on == (formed_on,)
