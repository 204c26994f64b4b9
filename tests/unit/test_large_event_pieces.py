"""An event past a segment's bounds on its own is planned as bounded clause-range pieces.

The reference bounds a segment at ninety coverage units and ninety-six kilobytes; one user message of
3,000 short sentences must not become one unbounded segment. The literal numbers below are the
reference's, never the code's constants.
"""

from typing import cast
from uuid import UUID, uuid4

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from activities.pieced_events import PiecedEvents
from domain.candidates import MemoryCandidate
from domain.episodes import IntegratedEpisode, integrated_episode
from domain.events import SourceEvent
from domain.formation.clauses import split_clauses
from domain.formation.distillation import coverage_units
from domain.formation.merging import ClaimMatcher, _combine, _mergeable, _richness, merge_batch
from domain.formation.segments import (
    PieceResume,
    event_footprint,
    piece_resume,
    plan_segments,
    segment_events,
)
from domain.policy.versions import FORMATION_9
from domain.ports import SourceEventRepository
from tests.builders import OWNER, T0, episode, event
from tests.commit_support import candidate

UNITS = 90
SEGMENT_BYTES = 96 * 1024


class _Events:
    """A one-session stand-in for the event repository's range read (what segment_events calls)."""

    def __init__(self, events: list[SourceEvent]) -> None:
        self._events = events
        self.reads = 0

    def read_range(self, owner: object, session_id: object, after: int, limit: int) -> list[SourceEvent]:
        self.reads += 1
        return [e for e in self._events if e.session_id == session_id and e.seq > after][:limit]


def _sentences(count: int) -> str:
    return " ".join(f"I visited town number {i} today." for i in range(count))


def test_a_3000_sentence_event_is_planned_as_bounded_pieces_that_cover_it_once() -> None:
    session = uuid4()
    big = event(2, _sentences(3_000), session_id=session)
    small = [event(1, "I like tea.", session_id=session), event(3, "I run daily.", session_id=session)]
    prints = [event_footprint(small[0]), event_footprint(big), event_footprint(small[1])]
    refs = plan_segments(OWNER, session, FORMATION_9, prints)

    pieces = [r for r in refs if r.clauses is not None]
    assert len(refs) == len(pieces) + 2
    assert len(pieces) == 3_000 // UNITS + 1  # 34 pieces of at most ninety sentences
    store = cast(SourceEventRepository, _Events([small[0], big, small[1]]))
    seen: list[str] = []
    for ref in pieces:
        [piece] = segment_events(store, ref)
        units = coverage_units(ref, [piece])
        assert 0 < len(units) <= UNITS
        assert len(piece.text.encode("utf-8")) <= SEGMENT_BYTES
        assert piece.text in big.text
        seen += [u.text for u in units]
    # Every sentence of the event in exactly one piece, in order.
    assert seen == [c.text for c in split_clauses(2, big.text)]
    assert [r.last_piece for r in pieces] == [False] * (len(pieces) - 1) + [True]
    assert len({r.segment_key for r in refs}) == len(refs)
    # Planned again, the same keys: derivation keys downstream stay stable.
    assert [r.segment_key for r in plan_segments(OWNER, session, FORMATION_9, prints)] == [
        r.segment_key for r in refs
    ]


SESSION = UUID("00000000-0000-4000-8000-000000000001")


def test_an_episode_over_whole_events_keeps_the_key_stored_data_has() -> None:
    # sha256("episode-integration@1" US "t1" US "p1" US session US "3,4"), US = "\x1f", computed by hand.
    whole = integrated_episode(
        [event(3, "I swim.", session_id=SESSION), event(4, "I run.", session_id=SESSION)],
        "User swims and runs.",
        (),
        T0,
    )
    assert whole.source_chars is None
    assert whole.derivation_key == "5c69541e4620fe1c55e4d80ca929b257963a5e2c18d50ed6d86a73f67c262886"


def test_each_piece_of_one_event_has_its_own_episode_key_and_the_key_holds_the_piece() -> None:
    text = _sentences(200)
    first = integrated_episode([event(3, text, session_id=SESSION)], "User visited towns.", (), T0, (0, 900))
    # sha256(... US "3" US "chars:0-900"), computed by hand.
    assert first.derivation_key == "773d1be05562909b1441083aad4d6b517eac47d5da7b28abbbcdb8015108fe24"
    second = integrated_episode(
        [event(3, text, session_id=SESSION)], "User visited towns.", (), T0, (901, 1800)
    )
    assert len({first.derivation_key, second.derivation_key, first.id, second.id}) == 4
    with pytest.raises(ValidationError, match="derivation_key"):
        # Another piece under the first piece's key.
        IntegratedEpisode.model_validate(first.model_dump() | {"source_chars": (901, 1800)})
    with pytest.raises(ValidationError, match="source_chars"):
        episode((3, 4), session_id=SESSION, source_chars=(0, 900))


def test_a_worker_reads_a_pieced_event_once_for_all_its_pieces_and_keeps_a_bounded_few() -> None:
    first, second = uuid4(), uuid4()
    big = [event(1, _sentences(1_000), session_id=first), event(1, _sentences(1_000), session_id=second)]
    small = event(2, "I like tea.", session_id=first)
    repo = _Events([*big, small])
    store = cast(SourceEventRepository, repo)
    refs = [plan_segments(OWNER, e.session_id, FORMATION_9, [event_footprint(e)]) for e in big]
    pieced = PiecedEvents(capacity=1)

    # The three stages of every piece of the first event: the pieces segment_events cuts, one read.
    for ref in refs[0]:
        for _ in range(3):
            assert pieced.segment_events(store, ref) == segment_events(store, ref)
    assert repo.reads == 1 + 3 * len(refs[0])  # the cache's one, then segment_events' own each time

    repo.reads = 0
    # A second event displaces the first (capacity one): back on the first, it is read again.
    for ref in (refs[0][0], refs[1][0], refs[1][1], refs[0][1]):
        pieced.segment_events(store, ref)
    assert repo.reads == 2
    # A segment of whole events is never kept: its events are read every time.
    [whole] = plan_segments(OWNER, first, FORMATION_9, [event_footprint(small)])
    assert whole.chars is None
    assert [e.text for e in pieced.segment_events(store, whole)] == ["I like tea."]
    pieced.segment_events(store, whole)
    assert repo.reads == 4


def test_a_cut_plan_resumes_inside_the_event_where_it_stopped() -> None:
    session = uuid4()
    big = event(1, _sentences(1_000), session_id=session)
    whole = plan_segments(OWNER, session, FORMATION_9, [event_footprint(big)])
    cut = whole[:4]
    resume = piece_resume(cut)
    assert resume == PieceResume(seq=1, clause=4 * UNITS)
    rest = plan_segments(OWNER, session, FORMATION_9, [event_footprint(big)], resume=resume)
    assert [r.segment_key for r in rest] == [r.segment_key for r in whole[4:]]
    assert piece_resume(whole) is None


def test_an_event_of_long_clauses_is_cut_by_bytes() -> None:
    # Sixty clauses of 3-byte characters near the clause length bound are past 96 KiB.
    clause = "字" * 900 + "."
    big = event(1, "\n".join([clause] * 60), session_id=uuid4())
    footprint = event_footprint(big)
    assert footprint.coverage_units == 60
    split = split_clauses(1, big.text)
    for piece in footprint.pieces:
        first, last = piece.clauses
        assert piece.chars == (split[first].start, split[last].end)
        assert len(big.text[piece.chars[0] : piece.chars[1]].encode("utf-8")) <= SEGMENT_BYTES
    assert footprint.pieces[0].clauses[0] == 0 and footprint.pieces[-1].clauses[1] == 59


def _scan_merge(candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
    """The merge as a scan of every kept claim: what the indexed merge must equal."""
    kept: list[MemoryCandidate] = []
    matcher = ClaimMatcher()
    for new in candidates:
        for at, old in enumerate(kept):
            if _mergeable(old, new, matcher):
                winner, loser = (new, old) if _richness(new) > _richness(old) else (old, new)
                kept[at] = _combine(winner, loser)
                break
        else:
            kept.append(new)
    return kept


WORDS = ["tea", "coffee", "run", "swim", "lisbon", "porto", "guitar", "piano", "daily", "club"]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5), st.integers(1, 4)),
        min_size=1,
        max_size=40,
    )
)
def test_the_indexed_merge_equals_a_scan_of_every_kept_claim(drawn: list[tuple[list[str], int]]) -> None:
    candidates = [
        candidate(seq, " ".join(words), "User likes " + " ".join(words) + ".", subject=f"interest:{i}")
        for i, (words, seq) in enumerate(drawn)
    ]
    assert merge_batch(candidates).candidates == _scan_merge(candidates)


def test_merging_thousands_of_distinct_claims_keeps_each_and_folds_repeats() -> None:
    distinct = [
        candidate(1, f"town {i}", f"User visited town Place{i} number {i}.", subject=f"place:{i}")
        for i in range(3_000)
    ]
    merged = merge_batch(distinct + distinct[:10])
    assert len(merged.candidates) == 3_000
    assert merged.merged_away == 10
