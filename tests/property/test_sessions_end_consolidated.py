"""Every accepted sequence of events ends consolidated or quarantined, never waiting unbounded.

Generated imports for a few sessions (sequence gaps, duplicate lines, dates years past or hours ahead
within the accepted day, an event pieced by clause count, one pieced by size, lines the boundary refuses,
late events below the watermark after a round) go through `agent events import`'s path; the sessions are
consolidated by real workers running the real activities on the in-memory store, on Temporal's
time-skipping test server, so a gap's grace (minutes of durable timer) passes at once. The end state is
read from the store: each session's watermark stands at its last accepted seq with no late event pending,
or the session holds a segment_quarantined audit. The server's clock (skipped time included) is the
store's and the activities' clock, as one server's clock would be.
"""

import asyncio
import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from temporalio.client import WorkflowHandle

from adapters.cli.events import import_events
from adapters.memory.store import InMemoryStore
from adapters.temporal.client import session_idle
from adapters.temporal.worker import WorkerPorts
from domain.consolidation import GAP_GRACE
from domain.errors import EventConflict
from domain.event_intake import Refusal
from domain.events import FUTURE_TOLERANCE, MAX_EVENT_TEXT_BYTES, EventRefusalReason
from domain.formation.segments import MAX_SEGMENT_BYTES
from domain.owner import Owner
from domain.telemetry import AuditKind
from tests.workflows.conftest import time_skipping_harness
from tests.workflows.conversations import NAMES, TEMPLATES
from tests.workflows.harness import Harness
from workflows.consolidate_session import QUARANTINE_QUERY

pytestmark = [pytest.mark.temporal]

# Far beyond any number of gap waits the workflow allows itself: a session still running after this (in
# real seconds, skipped timers cost none) is waiting without bound.
SETTLE_S = 60.0
CHATTER = ("Ok.", "Sure thing.", "Hm, right.", "Got it.", "No way!", "Fine, thanks.")
# A list sentence of about 2.5 KB: thirty-two of them exceed a segment's bytes (96 KiB).
LONG_SENTENCE = "I keep a list of " + ", ".join(
    f"{name.lower()} item {i}" for i in range(60) for name in NAMES[:3]
)


@dataclass
class Line:
    """One import line, as the generator drew it; refusal is the (field, reason code) it must get."""

    seq: int
    text: str
    occurred_at: datetime
    refusal: tuple[str, str] | None = None


@dataclass
class SessionDraw:
    session_id: uuid.UUID
    first: list[Line] = field(default_factory=list)
    # Imported after the first round: late events in the gaps, and more after the end.
    later: list[Line] = field(default_factory=list)


def _text(draw: st.DrawFn) -> str:
    # Mostly short turns: a piece of about 96 KB takes the former about two seconds.
    size = draw(
        st.sampled_from(["turn"] * 6 + ["chatter"] * 3 + ["pieced_by_clauses"] * 2 + ["pieced_by_bytes"])
    )
    if size == "turn":
        return draw(st.sampled_from(TEMPLATES)).format(name=draw(st.sampled_from(NAMES)))
    if size == "chatter":
        return draw(st.sampled_from(CHATTER))
    if size == "pieced_by_clauses":
        # More clauses than one segment holds (90): formed as two pieces.
        return " ".join(
            f"I like {NAMES[i % len(NAMES)]} tea." if i % 10 == 0 else CHATTER[i % 6] for i in range(150)
        )
    return " ".join(f"{LONG_SENTENCE} number {i}." for i in range(32))


def _occurred_at(draw: st.DrawFn, now: datetime) -> datetime:
    when = draw(st.sampled_from(["years_past", "minutes_past", "hours_ahead"]))
    if when == "years_past":
        return now - timedelta(days=draw(st.integers(365, 20 * 365)))
    if when == "minutes_past":
        return now - timedelta(minutes=draw(st.integers(1, 30)))
    # Ahead of the server, within the accepted day.
    return now + timedelta(hours=draw(st.integers(1, 20)))


def _refused(draw: st.DrawFn, seq: int, now: datetime) -> Line:
    """A line the boundary refuses, with the field and reason code it must be refused with."""
    kind = draw(st.sampled_from(["future", "too_large", "seq_zero", "blank", "nul"]))
    if kind == "future":
        return Line(
            seq,
            "I moved to Lisbon.",
            now + FUTURE_TOLERANCE + timedelta(hours=2),
            ("occurred_at", EventRefusalReason.OCCURRED_AT_IN_FUTURE.value),
        )
    if kind == "too_large":
        return Line(
            seq, "a" * (MAX_EVENT_TEXT_BYTES + 1), now, ("text", EventRefusalReason.TEXT_TOO_LONG.value)
        )
    if kind == "seq_zero":
        return Line(0, "I moved to Porto.", now, ("seq", "greater_than"))
    if kind == "blank":
        return Line(seq, "   ", now, ("text", EventRefusalReason.TEXT_BLANK.value))
    return Line(seq, "I moved\x00 to Faro.", now, ("text", EventRefusalReason.TEXT_CONTROL_CHARACTER.value))


@st.composite
def session_draws(draw: st.DrawFn, now: datetime) -> SessionDraw:
    drawn = SessionDraw(session_id=uuid.UUID(int=draw(st.integers(1, 2**64))))
    # Sequence numbers with gaps: some of the first twelve, then one or two more after the end.
    seqs = sorted(draw(st.sets(st.integers(1, 12), min_size=1, max_size=7)))
    late_seqs = [s for s in range(1, seqs[-1]) if s not in seqs]
    late = sorted(draw(st.sets(st.sampled_from(late_seqs), max_size=2))) if late_seqs else []
    after = list(range(seqs[-1] + 1, seqs[-1] + 1 + draw(st.integers(0, 2))))
    for phase, numbers in ((drawn.first, seqs), (drawn.later, late + after)):
        for seq in numbers:
            line = Line(seq, _text(draw), _occurred_at(draw, now))
            phase.append(line)
            if draw(st.integers(0, 3)) == 0:
                # The same line again (a retried upload): already present, not a refusal.
                phase.append(line)
            if draw(st.integers(0, 4)) == 0:
                phase.append(_refused(draw, seq, now))
            if draw(st.integers(0, 5)) == 0:
                # Another text at the same seq: refused as a conflict, the first one stays.
                phase.append(
                    Line(
                        seq, "Something else entirely.", line.occurred_at, ("seq", EventConflict.reason_code)
                    )
                )
    return drawn


@pytest.fixture(scope="module")
def skipping() -> Iterator[Harness]:
    with time_skipping_harness() as h:
        yield h


@pytest.fixture(scope="module")
def server_store(skipping: Harness) -> InMemoryStore:
    """The store whose clock (events' arrival, the activities' now) is the test server's, skipped time
    included."""
    env = skipping.env
    assert env is not None
    return InMemoryStore(clock=lambda: skipping.run(env.get_current_time()).astimezone(UTC))


@pytest.fixture(scope="module")
def task_queue(skipping: Harness, server_store: InMemoryStore) -> Iterator[str]:
    with skipping.worker(WorkerPorts(server_store, None, clock=server_store.clock)) as worker:
        yield worker.task_queue


def _json_line(owner: Owner, session_id: uuid.UUID, line: Line) -> str:
    return json.dumps(
        {
            "tenant_id": owner.tenant_id,
            "principal_id": owner.principal_id,
            "session_id": str(session_id),
            "seq": line.seq,
            "kind": "user_message",
            "text": line.text,
            "occurred_at": line.occurred_at.isoformat(),
        }
    )


def _import(
    store: InMemoryStore, owner: Owner, sessions: list[SessionDraw], phase: str, accepted: dict[Any, str]
) -> None:
    """Import one phase of every session in one file; the refusals must be exactly the drawn ones, and
    accepted (the test's own account: (session, seq) -> text) gains the rest, the first text of a seq."""
    lines = [(s.session_id, line) for s in sessions for line in getattr(s, phase)]
    expected: list[Refusal] = []
    appended = 0
    for number, (session_id, line) in enumerate(lines, start=1):
        if line.refusal is not None:
            expected.append(Refusal(number, *line.refusal))
        elif (session_id, line.seq) not in accepted:
            accepted[(session_id, line.seq)] = line.text
            appended += 1
    report = import_events(store, [_json_line(owner, session_id, line) for session_id, line in lines])
    assert report.refusals == expected
    assert report.appended == appended


async def _finished(handle: WorkflowHandle[Any, Any]) -> bool:
    """Whether the session's run finished (True) or still runs after SETTLE_S (False)."""
    try:
        await asyncio.wait_for(handle.result(), SETTLE_S)
    except TimeoutError:
        return False
    return True


def _consolidate(
    skipping: Harness, task_queue: str, owner: Owner, sessions: list[SessionDraw]
) -> dict[uuid.UUID, bool]:
    async def run() -> dict[uuid.UUID, bool]:
        handles = [
            await session_idle(
                skipping.client, owner.tenant_id, owner.principal_id, s.session_id, task_queue=task_queue
            )
            for s in sessions
        ]
        # One at a time: the test server skips time only while a result is awaited, and concurrent awaits
        # each lock it again as they return.
        done = [await _finished(handle) for handle in handles]
        for handle, finished in zip(handles, done, strict=True):
            if not finished:
                # A run that has not finished may only be holding a quarantined segment.
                assert await handle.query(QUARANTINE_QUERY) is not None, handle.id
        return {s.session_id: finished for s, finished in zip(sessions, done, strict=True)}

    return skipping.run(run(), timeout=len(sessions) * SETTLE_S + 60)


def _note(sessions: list[SessionDraw], now: datetime) -> None:
    """What the example holds, for --hypothesis-show-statistics: which of the drawn cases a run reached."""
    for s in sessions:
        first = [line for line in s.first if line.refusal is None]
        seqs = sorted({line.seq for line in first})
        if any(len(line.text) > MAX_SEGMENT_BYTES for line in first + s.later):
            event("an event pieced by size")
        gaps = [b for a, b in zip([0, *seqs], seqs, strict=False) if b - a > 1]
        if gaps:
            # The event after a gap dated less than the grace ago (or ahead) makes the round wait for it.
            waits = any(line.seq in gaps and line.occurred_at > now - GAP_GRACE for line in first)
            event("a gap the grace holds" if waits else "a gap passed at once (dated before the grace)")
        if any(line.seq < seqs[-1] and line.refusal is None for line in s.later):
            event("late events after a round")
        for line in s.first + s.later:
            if line.refusal is not None:
                event(f"refused: {line.refusal[1]}")


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(data=st.data())
def test_every_accepted_sequence_ends_consolidated_or_quarantined(
    data: st.DataObject, skipping: Harness, server_store: InMemoryStore, task_queue: str
) -> None:
    now = datetime.now(UTC)
    sessions = data.draw(
        st.lists(session_draws(now), min_size=1, max_size=3, unique_by=lambda s: s.session_id),
        label="sessions",
    )
    _note(sessions, now)
    owner = Owner(tenant_id="t-prop", principal_id=f"p-{uuid.uuid4().hex[:8]}")
    accepted: dict[Any, str] = {}

    _import(server_store, owner, sessions, "first", accepted)
    first = _consolidate(skipping, task_queue, owner, sessions)
    _import(server_store, owner, [s for s in sessions if first[s.session_id]], "later", accepted)
    _consolidate(skipping, task_queue, owner, [s for s in sessions if first[s.session_id]])

    with server_store() as uow:
        quarantined = {a.session_id for a in uow.audits.for_owner(owner, AuditKind.SEGMENT_QUARANTINED)}
        for s in sessions:
            stored = {e.seq: e.text for e in uow.events.read_range(owner, s.session_id, 0, 10_000)}
            # Exactly what was accepted is stored; nothing refused counts.
            assert stored == {seq: text for (sid, seq), text in accepted.items() if sid == s.session_id}
            if s.session_id in quarantined:
                continue
            assert uow.watermarks.get(owner, s.session_id) == max(stored), s.session_id
            assert uow.events.late_pending(owner, s.session_id, 10) == []
