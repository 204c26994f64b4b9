"""The few events a worker is forming piece by piece, kept whole between its stage activities.

One event past a segment's bounds is planned as up to a thousand pieces, and each piece's three stages
would otherwise read the whole event (up to 1 MB) again to cut out their piece. A worker keeps the last
PIECED_EVENTS such events, so the stages of one large event read it about once per worker; memory stays
bounded by PIECED_EVENTS times the event limit. Source events are append-only (a seq is never rewritten),
so a kept event is the stored one. The commit does not use this: it reads the segment's events inside its
own transaction, so what it grounds and stores is what the store holds when it commits (an erased
principal's events are gone by then, and nothing is committed from them).
"""

import threading
from collections import OrderedDict
from typing import Final
from uuid import UUID

from domain.events import SourceEvent
from domain.formation.segments import SegmentRef, cut_to_piece, segment_events
from domain.ports import SourceEventRepository

PIECED_EVENTS: Final = 4

_EventKey = tuple[str, str, UUID, int]


class PiecedEvents:
    def __init__(self, capacity: int = PIECED_EVENTS) -> None:
        self._capacity = capacity
        self._kept: OrderedDict[_EventKey, list[SourceEvent]] = OrderedDict()
        # Stage activities run on the worker's thread pool.
        self._lock = threading.Lock()

    def segment_events(self, events: SourceEventRepository, ref: SegmentRef) -> list[SourceEvent]:
        """domain.formation.segments.segment_events, reading a piece's event only when it is not kept."""
        if ref.chars is None:
            return segment_events(events, ref)
        key = (ref.tenant_id, ref.principal_id, ref.session_id, ref.first_seq)
        with self._lock:
            held = self._kept.get(key)
            if held is not None:
                self._kept.move_to_end(key)
        if held is None:
            held = segment_events(events, ref.model_copy(update={"chars": None}))
            if held:
                with self._lock:
                    self._kept[key] = held
                    while len(self._kept) > self._capacity:
                        self._kept.popitem(last=False)
        return cut_to_piece(ref, held)
