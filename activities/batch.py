"""Session-level activities: plan a batch, advance the watermark and record the run.

All three are short store-only steps the session workflow runs as local activities (advance_watermark
since the patch "advance-watermark-local"; histories from before it schedule it as a normal activity)."""

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Final

from temporalio import activity

from activities.contracts import (
    AdvanceWatermarkInput,
    BatchPlan,
    LoadBatchInput,
    RecordRunInput,
    WatermarkAdvance,
)
from domain.consolidation import (
    MAX_BATCH_EVENTS,
    MAX_BATCH_SEGMENTS,
    consolidatable_prefix,
    quiet_round_id,
)
from domain.errors import UnreadableEvent
from domain.events import SourceEvent
from domain.formation.segments import (
    MAX_SEGMENT_BYTES,
    EventFootprint,
    event_footprint,
    piece_resume,
    plan_segments,
)
from domain.policy.activation import ActivationDecision
from domain.ports import SourceEventRepository, UnitOfWorkFactory

log = logging.getLogger(__name__)

EVENT_PAGE: Final = 256
# Stops reading once this much text was seen: the round can plan no more than MAX_BATCH_SEGMENTS anyway.
MAX_BATCH_BYTES: Final = MAX_BATCH_SEGMENTS * MAX_SEGMENT_BYTES


class BatchActivities:
    def __init__(
        self,
        uow_factory: UnitOfWorkFactory,
        clock: Callable[[], datetime],
        activation: ActivationDecision | None = None,
    ) -> None:
        self._uow = uow_factory
        self._clock = clock
        self._activation = activation

    @activity.defn(name="load_batch")
    def load_batch(self, params: LoadBatchInput) -> BatchPlan:
        """Footprints (seq, size, coverage units) of the events above the watermark, planned into segments,
        after those of the session's late events (below the watermark, not consolidated yet).

        Text is read only to count coverage units and is dropped page by page; the plan carries none.
        A stored event that no longer validates ends the plan before it (unreadable_seq).
        """
        owner, session_id = params.session.owner, params.session.session_id
        footprints: list[EventFootprint] = []
        occurred: list[datetime] = []
        read_bytes = 0
        exhausted = False
        unreadable: int | None = None
        with self._uow() as uow:
            watermark = uow.watermarks.get(owner, session_id)
            late = [
                event_footprint(event) for event in uow.events.late_pending(owner, session_id, EVENT_PAGE)
            ]
            after = watermark
            while len(footprints) < MAX_BATCH_EVENTS and read_bytes < MAX_BATCH_BYTES:
                limit = min(EVENT_PAGE, MAX_BATCH_EVENTS - len(footprints))
                try:
                    page = uow.events.read_range(owner, session_id, after, limit)
                except UnreadableEvent as refused:
                    unreadable = refused.seq
                    page = _readable_before(uow.events, params, after, refused.seq)
                for event in page:
                    footprints.append(event_footprint(event))
                    occurred.append(event.occurred_at)
                    read_bytes += event.size_bytes
                if len(page) < EVENT_PAGE or unreadable is not None:
                    exhausted = True
                    break
                after = page[-1].seq

            # The grace runs on the server's clock: from when the event after a gap arrived, or from the
            # date it states when that is earlier (an import of past conversation does not wait on a gap
            # it already holds), so a date ahead of the server never holds a session.
            arrived = uow.events.received_at(owner, session_id, _after_gaps(watermark, footprints))
        arrivals = [min(arrived.get(f.seq, at), at) for f, at in zip(footprints, occurred, strict=True)]
        ready = consolidatable_prefix(watermark, [f.seq for f in footprints], arrivals, now=self._clock())
        held_back = len(footprints) - ready
        # The worker's evidence decides what runs, whatever the session asked for.
        policy = self._activation.formation_policy if self._activation else params.formation_policy
        segments = plan_segments(
            owner, session_id, policy, footprints[:ready], late=late, resume=params.resume
        )
        more_pending = (not exhausted and held_back == 0) or len(late) == EVENT_PAGE
        if len(segments) > MAX_BATCH_SEGMENTS:
            segments, more_pending = segments[:MAX_BATCH_SEGMENTS], True
        # Late segments (first in the plan) end below the watermark, so they never move it; nor does an
        # event whose last piece the plan does not reach.
        last_seq = max([watermark, *(ref.last_seq for ref in segments if ref.last_piece)])
        planned = [f for f in footprints if watermark < f.seq <= last_seq]
        # The unreadable event is next only when this plan takes every event read before it.
        if len(planned) < len(footprints):
            unreadable = None
        late_planned = [f for f in late if any(ref.first_seq <= f.seq <= ref.last_seq for ref in segments)]
        planned += late_planned
        plan = BatchPlan(
            watermark=watermark,
            last_seq=last_seq,
            event_count=len(planned),
            total_bytes=sum(f.size_bytes for f in planned),
            coverage_units=sum(f.coverage_units for f in planned),
            segments=tuple(segments),
            held_back=held_back,
            late_count=len(late_planned),
            more_pending=more_pending,
            formation_policy=policy if self._activation else None,
            selection=self._activation.label if self._activation else None,
            unreadable_seq=unreadable,
            resume=piece_resume(segments),
        )
        log.info(
            "batch planned",
            extra={
                "watermark": watermark,
                "last_seq": last_seq,
                "event_count": plan.event_count,
                "segment_count": len(segments),
                "held_back": held_back,
                "late_count": plan.late_count,
            },
        )
        return plan

    @activity.defn(name="advance_watermark")
    def advance_watermark(self, params: AdvanceWatermarkInput) -> WatermarkAdvance:
        """Forward only, and only from where this round started (or beyond it, if a retry already moved
        it): every event in (expected, new] was committed by the round or, stored in a range the round
        passed without holding, is flagged late in the same transaction, so the move skips nothing.

        The round's run record (if given) is written in the same transaction, so the watermark and the
        record of the round that moved it land together; both writes are idempotent on retry."""
        owner, session_id = params.session.owner, params.session.session_id
        moved = False
        with self._uow() as uow:
            current = uow.watermarks.get(owner, session_id)
            if current >= params.new:
                # An earlier attempt of this activity committed; its answer was lost.
                advanced = current == params.new
            elif current < params.expected:
                log.warning(
                    "watermark behind the round's start; not moved",
                    extra={"current": current, "expected": params.expected},
                )
                advanced = False
            else:
                moved = advanced = uow.watermarks.compare_and_set(owner, session_id, current, params.new)
                if moved:
                    # A gap filled while the round ran is passed unconsolidated: it waits for the next.
                    uow.events.mark_late(owner, session_id, params.passed)
            if params.run is not None:
                uow.runs.record(params.run)
            uow.commit()
        if moved:
            log.info("watermark advanced", extra={"from_seq": current, "to_seq": params.new})
            current = params.new
        return WatermarkAdvance(advanced=advanced, current=current)

    @activity.defn(name="record_run")
    def record_run(self, params: RecordRunInput) -> bool:
        """Record a round that advanced nothing under its quiet_round_id: idempotent per session position,
        so idles on a session with no new events add no rows after the first."""
        run = params.run.model_copy(update={"id": quiet_round_id(params.run)})
        with self._uow() as uow:
            recorded = uow.runs.record(run)
            uow.commit()
        return recorded


def _after_gaps(watermark: int, footprints: list[EventFootprint]) -> list[int]:
    """The seqs that follow a sequence gap: the only ones whose arrival the gap grace reads."""
    expected, after = watermark + 1, []
    for footprint in footprints:
        if footprint.seq != expected:
            after.append(footprint.seq)
        expected = footprint.seq + 1
    return after


def _readable_before(
    events: SourceEventRepository, params: LoadBatchInput, after: int, unreadable: int
) -> list[SourceEvent]:
    """The events between after and an unreadable one, read one at a time (at most a page of them): the
    page that held it failed whole."""
    owner, session_id = params.session.owner, params.session.session_id
    found: list[SourceEvent] = []
    while len(found) < EVENT_PAGE:
        try:
            one = events.read_range(owner, session_id, found[-1].seq if found else after, 1)
        except UnreadableEvent:
            break
        if not one or one[0].seq >= unreadable:
            break
        found += one
    return found
