"""The gap grace runs on the server's clock: from when the event after a sequence gap arrived, never from
the occurred_at a client stated; and an occurred_at more than a day ahead of the server is refused where
events enter (occurred_at_in_future). Seen before: seq 3 dated 2199 held a session's watermark at 1 for as
long as anyone watched."""

import json
from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

from activities.batch import BatchActivities
from activities.contracts import BatchPlan, LoadBatchInput, SessionKey
from adapters.cli.events import import_events
from adapters.memory.store import InMemoryStore
from domain.event_intake import parse_line
from domain.events import SourceEvent
from domain.policy.versions import FORMATION_9
from tests.builders import OWNER, T0, event

GRACE = timedelta(minutes=10)  # the reference's gap grace, stated here, not read from the code


def _plan(store: InMemoryStore, session: UUID, at: datetime) -> BatchPlan:
    key = SessionKey(tenant_id=OWNER.tenant_id, principal_id=OWNER.principal_id, session_id=session)
    return BatchActivities(store, lambda: at).load_batch(
        LoadBatchInput(session=key, formation_policy=FORMATION_9)
    )


def _received_at_t0(dated: dict[int, datetime]) -> tuple[InMemoryStore, UUID]:
    store, session = InMemoryStore(clock=lambda: T0), uuid4()
    with store() as uow:
        uow.events.append(
            [
                event(seq, "I like tea.", session_id=session).model_copy(update={"occurred_at": at})
                for seq, at in dated.items()
            ]
        )
        uow.commit()
    return store, session


def test_an_event_dated_far_ahead_after_a_gap_is_passed_once_the_grace_has_run_on_the_server_clock() -> None:
    store, session = _received_at_t0({1: T0, 3: datetime(2199, 1, 1, tzinfo=UTC), 4: T0})
    assert _plan(store, session, T0 + timedelta(minutes=1)).last_seq == 1, "the gap waits its grace"
    assert _plan(store, session, T0 + GRACE + timedelta(seconds=1)).last_seq == 4


def test_an_event_dated_after_its_arrival_waits_the_grace_from_its_arrival() -> None:
    store, session = _received_at_t0({1: T0, 3: T0 + timedelta(hours=20), 4: T0})
    plan = _plan(store, session, T0 + timedelta(minutes=1))
    assert (plan.last_seq, plan.held_back) == (1, 2), "a missing seq 2 may still arrive"
    assert _plan(store, session, T0 + GRACE + timedelta(seconds=1)).last_seq == 4


def test_an_import_of_past_conversation_does_not_wait_on_a_gap_it_already_holds() -> None:
    store, session = _received_at_t0({1: T0 - timedelta(days=400), 3: T0 - timedelta(days=400), 4: T0})
    assert _plan(store, session, T0 + timedelta(minutes=1)).last_seq == 4


def _line(occurred_at: datetime) -> str:
    return json.dumps(
        {
            "tenant_id": "t1",
            "principal_id": "p1",
            "session_id": str(uuid4()),
            "seq": 1,
            "kind": "user_message",
            "text": "I like tea.",
            "occurred_at": occurred_at.isoformat(),
        }
    )


def test_occurred_at_more_than_a_day_ahead_of_the_server_is_refused_with_its_own_code() -> None:
    now = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
    assert parse_line(_line(now + timedelta(days=1, seconds=1)), now=now) == [
        ("occurred_at", "occurred_at_in_future")
    ]
    assert isinstance(parse_line(_line(now + timedelta(hours=23)), now=now), SourceEvent)
    # Offline reading (no server clock) keeps only the fixed window.
    assert isinstance(parse_line(_line(now + timedelta(days=30))), SourceEvent)


def test_the_import_refuses_a_far_future_line_and_keeps_the_others() -> None:
    store = InMemoryStore()
    ahead = datetime.now(UTC) + timedelta(days=2)
    report = import_events(store, [_line(datetime.now(UTC)), _line(ahead)])
    assert report.appended == 1
    assert [(r.line, r.field, r.reason) for r in report.refusals] == [
        (2, "occurred_at", "occurred_at_in_future")
    ]
