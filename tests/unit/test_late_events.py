"""A late event (below its session's watermark, arrived after consolidation passed its gap): stored flagged
with a content-free audit, planned by the next round on its own, never refused or silently unreachable."""

from datetime import timedelta
from uuid import UUID, uuid4

from activities.batch import BatchActivities
from activities.commit import CommitActivities
from activities.contracts import (
    AdvanceWatermarkInput,
    BatchPlan,
    CommitInput,
    LoadBatchInput,
    Poison,
    Quarantine,
    QuarantineInput,
    ReleaseInput,
    SessionKey,
    StageInput,
)
from activities.quarantine import QuarantineActivities
from activities.stages import StageActivities
from adapters.cli.events import import_events
from adapters.memory.store import InMemoryStore
from domain.formation.segments import EventFootprint, passed_gaps, plan_segments, segment_key
from domain.policy.versions import FORMATION_9
from domain.providers import ProviderFailure, ProviderRequest, ProviderResponse
from domain.telemetry import AuditKind, FailureClass, Stage
from tests.builders import OWNER, T0, event, event_line

SECRET = "my locker code is 4417"


def _store() -> InMemoryStore:
    """Events received at T0: a gap's grace (from when the event after it arrived) is over by the plans
    at T0 + 1 h."""
    return InMemoryStore(clock=lambda: T0)


def _consolidated_past_a_gap(store: InMemoryStore, session: UUID) -> None:
    """Seqs 1, 2, 4, 5 stored and consolidated: the gap at 3 was passed after its grace."""
    with store() as uow:
        uow.events.append([event(s, f"Turn {s}.", session_id=session) for s in (1, 2, 4, 5)])
        uow.watermarks.compare_and_set(OWNER, session, 0, 5)
        uow.commit()


def _planned_past_a_gap(store: InMemoryStore, session: UUID) -> BatchPlan:
    """Seqs 1, 2, 4, 5 stored, none consolidated: the next round plans one segment past the gap at 3."""
    with store() as uow:
        uow.events.append([event(s, f"Turn {s}.", session_id=session) for s in (1, 2, 4, 5)])
        uow.commit()
    return _next_plan(store, session)


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
    store, session = _store(), uuid4()
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
    store, session = _store(), uuid4()
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
    store, session = _store(), uuid4()
    _consolidated_past_a_gap(store, session)
    import_events(store, [event_line(3, session), event_line(6, session), event_line(7, session)])

    plan = _next_plan(store, session)

    assert [(r.first_seq, r.last_seq) for r in plan.segments] == [(3, 3), (6, 7)]
    assert (plan.watermark, plan.last_seq, plan.event_count, plan.late_count) == (5, 7, 3, 1)


def test_a_batch_of_late_events_alone_ends_at_the_watermark() -> None:
    store, session = _store(), uuid4()
    _consolidated_past_a_gap(store, session)
    import_events(store, [event_line(3, session)])

    plan = _next_plan(store, session)

    assert [(r.first_seq, r.last_seq) for r in plan.segments] == [(3, 3)]
    assert (plan.watermark, plan.last_seq, plan.late_count) == (5, 5, 1)


def test_skipping_a_quarantined_late_segment_settles_its_events_and_leaves_the_watermark() -> None:
    store, session = _store(), uuid4()
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


class _Capture:
    def __init__(self) -> None:
        self.requests: list[ProviderRequest] = []

    def complete(self, request: ProviderRequest) -> ProviderResponse:
        self.requests.append(request)
        raise ProviderFailure(FailureClass.TRANSIENT, "timeout")


def test_a_segment_holds_its_planned_seqs_only_and_keeps_the_key_of_those_seqs() -> None:
    session = uuid4()
    [ref] = plan_segments(OWNER, session, FORMATION_9, _prints(1, 2, 4, 7))

    assert (ref.first_seq, ref.last_seq, ref.event_count, ref.gaps) == (1, 7, 4, ((3, 3), (5, 6)))
    assert ref.held_runs() == [(1, 2), (4, 4), (7, 7)]
    assert ref.segment_key == segment_key(OWNER, session, FORMATION_9, [1, 2, 4, 7])
    assert [s for s in range(1, 8) if ref.holds(event(s, session_id=session))] == [1, 2, 4, 7]
    # Late segments sit below the watermark; what lies between and after the segments is passed.
    late = plan_segments(OWNER, session, FORMATION_9, [], late=_prints(1))
    assert passed_gaps(0, 9, [*late, ref]) == ((3, 3), (5, 6), (8, 9))
    assert passed_gaps(2, 7, [ref]) == ((3, 3), (5, 6))


def test_a_gap_filled_while_its_round_runs_is_not_formed_by_it_and_waits_late_for_the_next() -> None:
    """The round planned past the gap at 3 (its grace over); 3 arrives above the watermark before the
    stages read the segment. They see exactly the planned events, and the advance leaves 3 late."""
    store, session = _store(), uuid4()
    plan = _planned_past_a_gap(store, session)
    [ref] = plan.segments
    assert (ref.first_seq, ref.last_seq, ref.event_count) == (1, 5, 4)
    # Stored as an ordinary event: the watermark is still below it.
    assert import_events(store, [event_line(3, session, SECRET)]).late == 0

    provider, run_id = _Capture(), uuid4()
    stages = StageActivities(store, provider, clock=lambda: T0)
    for stage in (stages.integrate_episodes, stages.anticipate, stages.distill):
        stage(StageInput(ref=ref, run_id=run_id))
    CommitActivities(store, lambda: T0 + timedelta(hours=1)).commit_segment(
        CommitInput(ref=ref, run_id=run_id)
    )
    advance = BatchActivities(store, lambda: T0).advance_watermark(
        AdvanceWatermarkInput(
            session=_key(session), expected=0, new=plan.last_seq, passed=passed_gaps(0, plan.last_seq, [ref])
        )
    )

    [integration] = [r for r in provider.requests if r.stage is Stage.INTEGRATION]
    assert all(f"Turn {s}." in integration.content for s in (1, 2, 4, 5))
    assert all("4417" not in request.content for request in provider.requests)
    assert (advance.advanced, advance.current) == (True, 5)
    with store() as uow:
        assert [e.seq for e in uow.events.late_pending(OWNER, session, 10)] == [3]
    following = _next_plan(store, session)
    assert [(r.first_seq, r.last_seq) for r in following.segments] == [(3, 3)]
    assert (following.watermark, following.last_seq, following.late_count) == (5, 5, 1)


def test_a_skip_passes_the_quarantined_events_only_and_a_gap_filled_meanwhile_waits_late() -> None:
    """The round planned past the gap at 3 and the segment failed deterministically; 3 arrives while the
    session is held. The skip moves the watermark past the segment and leaves 3 late for the next round."""
    store, session = _store(), uuid4()
    plan = _planned_past_a_gap(store, session)
    [ref] = plan.segments
    quarantines = QuarantineActivities(store, lambda: T0)
    held = quarantines.record_quarantine(
        QuarantineInput(
            session=_key(session),
            run_id=uuid4(),
            poison=Poison(activity="commit_segment", failure_type="DataError"),
            first_seq=ref.first_seq,
            last_seq=ref.last_seq,
            segment_key=ref.segment_key,
            gaps=passed_gaps(plan.watermark, ref.last_seq, [ref]),
        )
    )
    assert (held.watermark, held.last_seq, held.gaps) == (0, 5, ((3, 3),))
    assert import_events(store, [event_line(3, session, SECRET)]).late == 0

    skipped = quarantines.release_quarantine(ReleaseInput(session=_key(session), quarantine=held, skip=True))
    again = quarantines.release_quarantine(ReleaseInput(session=_key(session), quarantine=held, skip=True))

    assert skipped and again
    with store() as uow:
        assert uow.watermarks.get(OWNER, session) == 5
        assert [e.seq for e in uow.events.late_pending(OWNER, session, 10)] == [3]
        [release] = uow.audits.for_owner(OWNER, AuditKind.QUARANTINE_RELEASED)
    assert "4417" not in str(release.details)
    following = _next_plan(store, session)
    assert [(r.first_seq, r.last_seq) for r in following.segments] == [(3, 3)]
    assert (following.watermark, following.last_seq, following.late_count) == (5, 5, 1)
