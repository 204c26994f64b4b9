"""A late event (below its session's watermark, arrived after consolidation passed its gap): stored flagged
with a content-free audit, planned by the next round on its own, never refused or silently unreachable."""

from datetime import timedelta
from uuid import UUID, uuid4

from activities.batch import BatchActivities
from activities.contracts import BatchPlan, LoadBatchInput, Poison, Quarantine, ReleaseInput, SessionKey
from activities.quarantine import QuarantineActivities
from adapters.cli.events import import_events
from adapters.memory.store import InMemoryStore
from domain.formation.segments import EventFootprint, plan_segments
from domain.policy.versions import FORMATION_9
from domain.telemetry import AuditKind
from tests.builders import OWNER, T0, event, event_line

SECRET = "my locker code is 4417"


def _consolidated_past_a_gap(store: InMemoryStore, session: UUID) -> None:
    """Seqs 1, 2, 4, 5 stored and consolidated: the gap at 3 was passed after its grace."""
    with store() as uow:
        uow.events.append([event(s, f"Turn {s}.", session_id=session) for s in (1, 2, 4, 5)])
        uow.watermarks.compare_and_set(OWNER, session, 0, 5)
        uow.commit()


def _next_plan(store: InMemoryStore, session: UUID) -> BatchPlan:
    return BatchActivities(store, lambda: T0 + timedelta(hours=1)).load_batch(
        LoadBatchInput(session=_key(session), formation_policy=FORMATION_9)
    )


def _key(session: UUID) -> SessionKey:
    return SessionKey(tenant_id=OWNER.tenant_id, principal_id=OWNER.principal_id, session_id=session)


def _prints(*seqs: int) -> list[EventFootprint]:
    return [EventFootprint(seq=s, size_bytes=10, coverage_units=1) for s in seqs]


def test_late_runs_are_planned_first_each_on_its_own_with_keys_of_their_own() -> None:
    session = uuid4()
    plan = plan_segments(OWNER, session, FORMATION_9, _prints(11, 12), late=_prints(7, 3, 4))
    assert [(r.index, r.first_seq, r.last_seq, r.event_count) for r in plan] == [
        (0, 3, 4, 2),
        (1, 7, 7, 1),
        (2, 11, 12, 2),
    ]
    # A late run's key names only its own events: never that of a segment formed before it.
    earlier = plan_segments(OWNER, session, FORMATION_9, _prints(1, 2, 3, 4, 5, 6, 7))
    assert {r.segment_key for r in plan}.isdisjoint(r.segment_key for r in earlier)


def test_an_event_below_the_watermark_is_stored_late_and_audited_without_content() -> None:
    store, session = InMemoryStore(), uuid4()
    _consolidated_past_a_gap(store, session)

    report = import_events(store, [event_line(3, session, SECRET), event_line(6, session)])

    assert (report.appended, report.late, report.refused) == (2, 1, 0)
    with store() as uow:
        assert [e.seq for e in uow.events.late_pending(OWNER, session, 10)] == [3]
        [audit] = uow.audits.for_owner(OWNER, AuditKind.LATE_EVENT)
    assert audit.session_id == session
    assert audit.details == {"seq": 3, "watermark": 5}
    assert "4417" not in audit.model_dump_json()


def test_importing_a_late_event_again_is_a_no_op_and_a_different_text_a_conflict() -> None:
    store, session = InMemoryStore(), uuid4()
    _consolidated_past_a_gap(store, session)
    import_events(store, [event_line(3, session)])

    again = import_events(store, [event_line(3, session)])
    changed = import_events(store, [event_line(3, session, "I moved to Porto.")])

    assert (again.appended, again.late, again.already_present, again.refused) == (0, 0, 1, 0)
    assert [(r.line, r.field, r.reason) for r in changed.refusals] == [(1, "seq", "event_conflict")]
    with store() as uow:
        assert len(uow.audits.for_owner(OWNER, AuditKind.LATE_EVENT)) == 1
        assert [e.text for e in uow.events.late_pending(OWNER, session, 10)] == ["I moved to Lisbon."]


def test_the_next_batch_plans_late_events_first_and_leaves_the_watermark_to_the_new_ones() -> None:
    store, session = InMemoryStore(), uuid4()
    _consolidated_past_a_gap(store, session)
    import_events(store, [event_line(3, session), event_line(6, session), event_line(7, session)])

    plan = _next_plan(store, session)

    assert [(r.first_seq, r.last_seq) for r in plan.segments] == [(3, 3), (6, 7)]
    assert (plan.watermark, plan.last_seq, plan.event_count, plan.late_count) == (5, 7, 3, 1)


def test_a_batch_of_late_events_alone_ends_at_the_watermark() -> None:
    store, session = InMemoryStore(), uuid4()
    _consolidated_past_a_gap(store, session)
    import_events(store, [event_line(3, session)])

    plan = _next_plan(store, session)

    assert [(r.first_seq, r.last_seq) for r in plan.segments] == [(3, 3)]
    assert (plan.watermark, plan.last_seq, plan.late_count) == (5, 5, 1)


def test_skipping_a_quarantined_late_segment_settles_its_events_and_leaves_the_watermark() -> None:
    store, session = InMemoryStore(), uuid4()
    _consolidated_past_a_gap(store, session)
    import_events(store, [event_line(3, session)])
    held = Quarantine(
        run_id=uuid4(),
        poison=Poison(activity="commit_segment", failure_type="DataError"),
        watermark=5,
        first_seq=3,
        last_seq=3,
    )

    skipped = QuarantineActivities(store, lambda: T0).release_quarantine(
        ReleaseInput(session=_key(session), quarantine=held, skip=True)
    )

    assert skipped
    with store() as uow:
        assert uow.events.late_pending(OWNER, session, 10) == []
        assert uow.watermarks.get(OWNER, session) == 5
        [release] = uow.audits.for_owner(OWNER, AuditKind.QUARANTINE_RELEASED)
    assert release.details["action"] == "skip"
