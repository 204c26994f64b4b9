"""Segment planning: a batch is cut into bounded three-call rounds before any provider call; and which
events a planned segment holds, read back from the store; and which seq ranges a round's segments passed
without holding."""

import hashlib
from collections.abc import Sequence
from itertools import pairwise
from typing import TYPE_CHECKING
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, PositiveInt

from domain.episodes import MAX_SEGMENT_EVENTS
from domain.events import SourceEvent
from domain.owner import BoundedId, Owner

if TYPE_CHECKING:
    # The ports name segment values (through staging), so the import can only run one way.
    from domain.ports import SourceEventRepository

MAX_SEGMENT_UNITS = 90
# An inclusive (first, last) range of sequence numbers.
SeqRange = tuple[PositiveInt, PositiveInt]
MAX_SEGMENT_BYTES = 96 * 1024


class EventFootprint(BaseModel):
    """What the planner knows of an event: its position and size, never its text."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seq: PositiveInt
    size_bytes: NonNegativeInt
    coverage_units: NonNegativeInt


class SegmentRef(BaseModel):
    """A planned segment as workflows see it: ids, a sequence range and a key, no content."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tenant_id: str = BoundedId
    principal_id: str = BoundedId
    session_id: UUID
    formation_policy: str
    index: NonNegativeInt
    first_seq: PositiveInt
    last_seq: PositiveInt
    event_count: PositiveInt
    segment_key: str = Field(pattern=r"^[0-9a-f]{64}$")
    # Inclusive seq ranges inside [first_seq, last_seq] the plan skipped (gaps passed after their grace):
    # an event that fills one later is not this segment's. Empty in histories from before the field.
    gaps: tuple[SeqRange, ...] = ()

    @property
    def owner(self) -> Owner:
        return Owner(tenant_id=self.tenant_id, principal_id=self.principal_id)

    def holds(self, event: SourceEvent) -> bool:
        """The event is one of this segment's: this owner's, this session's, inside its sequence range."""
        return (
            event.tenant_id == self.tenant_id
            and event.principal_id == self.principal_id
            and event.session_id == self.session_id
            and self.first_seq <= event.seq <= self.last_seq
            and not any(first <= event.seq <= last for first, last in self.gaps)
        )

    def held_runs(self) -> list[SeqRange]:
        """The segment's range without its gaps, as inclusive runs of seqs."""
        runs: list[SeqRange] = []
        start = self.first_seq
        for first, last in self.gaps:
            runs.append((start, first - 1))
            start = last + 1
        runs.append((start, self.last_seq))
        return runs


def segment_events(events: "SourceEventRepository", ref: SegmentRef) -> list[SourceEvent]:
    """The segment's events in sequence order: one read of its whole range, bounded by it, and nothing
    the segment does not hold (an event that filled a gap after planning is left to a later round)."""
    span = ref.last_seq - ref.first_seq + 1
    return [e for e in events.read_range(ref.owner, ref.session_id, ref.first_seq - 1, span) if ref.holds(e)]


def passed_gaps(watermark: int, new: int, refs: Sequence[SegmentRef]) -> tuple[SeqRange, ...]:
    """The seq ranges in (watermark, new] that none of the segments held: moving the watermark to new
    passes them, so an event stored there must wait as late (SourceEventRepository.mark_late)."""
    held = sorted(run for ref in refs for run in ref.held_runs() if run[1] > watermark and run[0] <= new)
    passed: list[SeqRange] = []
    start = watermark + 1
    for first, last in held:
        if first > start:
            passed.append((start, first - 1))
        start = max(start, last + 1)
    if start <= new:
        passed.append((start, new))
    return tuple(passed)


def segment_key(owner: Owner, session_id: UUID, formation_policy: str, seqs: list[int]) -> str:
    material = "\x1f".join(
        [formation_policy, owner.tenant_id, owner.principal_id, str(session_id), ",".join(map(str, seqs))]
    )
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def plan_segments(
    owner: Owner,
    session_id: UUID,
    formation_policy: str,
    footprints: list[EventFootprint],
    late: Sequence[EventFootprint] = (),
) -> list[SegmentRef]:
    """Close a segment before the event that would carry it past any bound; an oversized event stands alone.

    Late events (below the watermark: they arrived after consolidation passed their sequence gap) come
    first, each contiguous run of their seqs planned on its own. So no segment mixes them with events
    consolidated before (whose episodes would be formed again under new derivation keys), and a late
    segment's range holds exactly its events."""
    groups = [group for run in _contiguous_runs(late) for group in _bounded_groups(run)]
    groups += _bounded_groups(footprints)
    return [
        SegmentRef(
            tenant_id=owner.tenant_id,
            principal_id=owner.principal_id,
            session_id=session_id,
            formation_policy=formation_policy,
            index=index,
            first_seq=group[0].seq,
            last_seq=group[-1].seq,
            event_count=len(group),
            segment_key=segment_key(owner, session_id, formation_policy, [f.seq for f in group]),
            gaps=_gaps(group),
        )
        for index, group in enumerate(groups)
    ]


def _gaps(group: Sequence[EventFootprint]) -> tuple[SeqRange, ...]:
    return tuple((a.seq + 1, b.seq - 1) for a, b in pairwise(group) if b.seq > a.seq + 1)


def _contiguous_runs(footprints: Sequence[EventFootprint]) -> list[list[EventFootprint]]:
    runs: list[list[EventFootprint]] = []
    for footprint in sorted(footprints, key=lambda f: f.seq):
        if runs and footprint.seq == runs[-1][-1].seq + 1:
            runs[-1].append(footprint)
        else:
            runs.append([footprint])
    return runs


def _bounded_groups(footprints: Sequence[EventFootprint]) -> list[list[EventFootprint]]:
    groups: list[list[EventFootprint]] = []
    current: list[EventFootprint] = []
    units = size = 0
    for footprint in sorted(footprints, key=lambda f: f.seq):
        would_exceed = (
            units + footprint.coverage_units > MAX_SEGMENT_UNITS
            or size + footprint.size_bytes > MAX_SEGMENT_BYTES
            or len(current) + 1 > MAX_SEGMENT_EVENTS
        )
        if current and would_exceed:
            groups.append(current)
            current, units, size = [], 0, 0
        current.append(footprint)
        units += footprint.coverage_units
        size += footprint.size_bytes
    if current:
        groups.append(current)
    return groups
