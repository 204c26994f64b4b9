"""Segment planning: a batch is cut into bounded three-call rounds before any provider call; and which
events a planned segment holds, read back from the store; and which seq ranges a round's segments passed
without holding."""

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, PositiveInt

from domain.episodes import MAX_SEGMENT_EVENTS, CharRange
from domain.events import SourceEvent
from domain.formation.clauses import split_clauses
from domain.owner import BoundedId, Owner

if TYPE_CHECKING:
    # The ports name segment values (through staging), so the import can only run one way.
    from domain.ports import SourceEventRepository

MAX_SEGMENT_UNITS = 90
# An inclusive (first, last) range of sequence numbers.
SeqRange = tuple[PositiveInt, PositiveInt]
MAX_SEGMENT_BYTES = 96 * 1024


# An inclusive (first, last) range of clause indexes within one event's split_clauses.
ClauseRange = tuple[NonNegativeInt, NonNegativeInt]


class Piece(BaseModel):
    """A bounded run of one event's clauses: which clauses, and where they lie in its text."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    clauses: ClauseRange
    chars: CharRange


class EventFootprint(BaseModel):
    """What the planner knows of an event: its position and size, never its text."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seq: PositiveInt
    size_bytes: NonNegativeInt
    coverage_units: NonNegativeInt
    # An event past a segment's bounds on its own, cut into bounded clause ranges (event_footprint);
    # empty for an event that fits one segment.
    pieces: tuple[Piece, ...] = ()


def event_footprint(event: SourceEvent) -> EventFootprint:
    """The event's footprint, with its clause-range pieces when it alone exceeds a segment's bounds."""
    units, pieces = _units_and_pieces(event.text, event.size_bytes)
    return EventFootprint(seq=event.seq, size_bytes=event.size_bytes, coverage_units=units, pieces=pieces)


# An event planned in pieces is planned again by every round that works it off (MAX_BATCH_SEGMENTS pieces
# a round): remembering the last few splits keeps the rounds linear in the event, not quadratic.
@lru_cache(maxsize=8)
def _units_and_pieces(text: str, size_bytes: int) -> tuple[int, tuple[Piece, ...]]:
    clauses = split_clauses(1, text)
    if len(clauses) <= MAX_SEGMENT_UNITS and size_bytes <= MAX_SEGMENT_BYTES:
        return len(clauses), ()
    spans = [(c.start, c.end) for c in clauses]
    pieces = tuple(
        Piece(clauses=(first, last), chars=(spans[first][0], spans[last][1]))
        for first, last in _clause_pieces(text, spans)
    )
    return len(clauses), pieces


def _clause_pieces(text: str, spans: list[tuple[int, int]]) -> list[ClauseRange]:
    """Consecutive clause ranges of at most MAX_SEGMENT_UNITS clauses and MAX_SEGMENT_BYTES of text
    (from the first clause's start to the last's end), in one pass: a clause is at most MAX_CLAUSE_CHARS,
    so every piece holds at least one."""
    pieces: list[ClauseRange] = []
    first, size, previous_end = 0, 0, spans[0][0] if spans else 0
    for index, (start, end) in enumerate(spans):
        grown = len(text[previous_end:end].encode("utf-8"))
        if index > first and (index - first >= MAX_SEGMENT_UNITS or size + grown > MAX_SEGMENT_BYTES):
            pieces.append((first, index - 1))
            first, grown = index, len(text[start:end].encode("utf-8"))
            size = 0
        size += grown
        previous_end = end
    if spans:
        pieces.append((first, len(spans) - 1))
    return pieces


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
    # A piece of one event too large for a segment of its own (first_seq == last_seq): the clause range it
    # holds, and whether it is the event's last piece. None: the segment holds its events whole.
    clauses: ClauseRange | None = None
    last_piece: bool = True
    # Where the piece lies in the event's text, so reading it costs the piece, not the whole event.
    chars: CharRange | None = None

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
    held = [e for e in events.read_range(ref.owner, ref.session_id, ref.first_seq - 1, span) if ref.holds(e)]
    return cut_to_piece(ref, held)


def cut_to_piece(ref: SegmentRef, held: list[SourceEvent]) -> list[SourceEvent]:
    """The segment's events (as segment_events reads them for a ref without chars), a piece's event cut
    to its characters: every span cited from it is still a substring of the event."""
    if ref.chars is None:
        return held
    start, end = ref.chars
    return [event.model_copy(update={"text": event.text[start:end]}) for event in held]


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


def segment_key(
    owner: Owner,
    session_id: UUID,
    formation_policy: str,
    seqs: list[int],
    clauses: ClauseRange | None = None,
) -> str:
    parts = [formation_policy, owner.tenant_id, owner.principal_id, str(session_id), ",".join(map(str, seqs))]
    # A whole-event segment keeps the key it always had; a piece adds its clause range.
    if clauses is not None:
        parts.append(f"clauses:{clauses[0]}-{clauses[1]}")
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


class PieceResume(BaseModel):
    """Where a round stopped inside an event planned in pieces: the next round starts at this piece."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seq: PositiveInt
    # The first clause index not yet planned: pieces are cut the same way from the same text every time.
    clause: NonNegativeInt


def plan_segments(
    owner: Owner,
    session_id: UUID,
    formation_policy: str,
    footprints: list[EventFootprint],
    late: Sequence[EventFootprint] = (),
    resume: PieceResume | None = None,
) -> list[SegmentRef]:
    """Close a segment before the event that would carry it past any bound; an event past a bound on its
    own is planned as one segment per clause-range piece (from resume's piece on, for the event it names:
    the earlier pieces were committed by an earlier round).

    Late events (below the watermark: they arrived after consolidation passed their sequence gap) come
    first, each contiguous run of their seqs planned on its own. So no segment mixes them with events
    consolidated before (whose episodes would be formed again under new derivation keys), and a late
    segment's range holds exactly its events."""
    groups = [group for run in _contiguous_runs(late) for group in _bounded_groups(run)]
    groups += _bounded_groups(footprints)
    refs: list[SegmentRef] = []
    for group in groups:
        if isinstance(group, _Piece):
            if resume is not None and group.seq == resume.seq and group.piece.clauses[0] < resume.clause:
                continue
            refs.append(
                SegmentRef(
                    tenant_id=owner.tenant_id,
                    principal_id=owner.principal_id,
                    session_id=session_id,
                    formation_policy=formation_policy,
                    index=len(refs),
                    first_seq=group.seq,
                    last_seq=group.seq,
                    event_count=1,
                    segment_key=segment_key(
                        owner, session_id, formation_policy, [group.seq], group.piece.clauses
                    ),
                    clauses=group.piece.clauses,
                    chars=group.piece.chars,
                    last_piece=group.last,
                )
            )
            continue
        refs.append(
            SegmentRef(
                tenant_id=owner.tenant_id,
                principal_id=owner.principal_id,
                session_id=session_id,
                formation_policy=formation_policy,
                index=len(refs),
                first_seq=group[0].seq,
                last_seq=group[-1].seq,
                event_count=len(group),
                segment_key=segment_key(owner, session_id, formation_policy, [f.seq for f in group]),
                gaps=_gaps(group),
            )
        )
    return refs


def piece_resume(refs: Sequence[SegmentRef]) -> PieceResume | None:
    """The resume point after refs (a cut plan) when it ends inside an event's pieces, else None."""
    if not refs or refs[-1].clauses is None or refs[-1].last_piece:
        return None
    return PieceResume(seq=refs[-1].first_seq, clause=refs[-1].clauses[1] + 1)


@dataclass(frozen=True)
class _Piece:
    seq: int
    piece: Piece
    last: bool


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


def _bounded_groups(footprints: Sequence[EventFootprint]) -> list["list[EventFootprint] | _Piece"]:
    groups: list[list[EventFootprint] | _Piece] = []
    current: list[EventFootprint] = []
    units = size = 0
    for footprint in sorted(footprints, key=lambda f: f.seq):
        if footprint.pieces:
            if current:
                groups.append(current)
                current, units, size = [], 0, 0
            last = len(footprint.pieces) - 1
            groups += [
                _Piece(seq=footprint.seq, piece=piece, last=i == last)
                for i, piece in enumerate(footprint.pieces)
            ]
            continue
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
