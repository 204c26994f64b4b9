"""Sweep lanes cut the belief id space into disjoint, contiguous slices that cover every id."""

from uuid import UUID

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from domain.beliefs.lifecycle import MAX_SWEEP_LANES, WHOLE_ID_SPACE, ExpiryCursor, SweepLane, sweep_lanes
from tests.builders import T0
from workflows.retirement_sweep import LaneProgress, SweepInput

ID_SPACE = 1 << 128
lane_counts = st.integers(min_value=1, max_value=MAX_SWEEP_LANES)
ids = st.integers(min_value=0, max_value=ID_SPACE - 1)


@given(count=lane_counts, raw=ids)
def test_every_id_is_held_by_exactly_one_lane(count: int, raw: int) -> None:
    holders = [lane for lane in sweep_lanes(count) if lane.holds(UUID(int=raw))]
    assert len(holders) == 1


@given(count=lane_counts)
def test_lanes_are_contiguous_from_the_first_id_to_the_last(count: int) -> None:
    lanes = sweep_lanes(count)
    assert lanes[0].first_id == UUID(int=0) and lanes[-1].end_id is None
    for left, right in zip(lanes, lanes[1:], strict=False):
        assert left.end_id == right.first_id
        assert left.holds(UUID(int=right.first_id.int - 1)) and not left.holds(right.first_id)
    # Equal slices: no two lanes differ in width by more than one id.
    widths = [(lane.end_id.int if lane.end_id else ID_SPACE) - lane.first_id.int for lane in lanes]
    assert max(widths) - min(widths) <= 1


def test_a_lane_outside_its_count_is_refused() -> None:
    with pytest.raises(ValidationError, match="not below the lane count"):
        SweepLane(index=2, of=2)
    with pytest.raises(ValidationError):
        SweepLane(index=0, of=MAX_SWEEP_LANES + 1)


def test_a_one_lane_run_continued_before_lanes_existed_resumes_at_its_cursor() -> None:
    cursor = ExpiryCursor(last_evidence_at=T0, id=UUID(int=5), expires_at=T0)
    assert SweepInput(after=cursor).lane_progress() == [LaneProgress(lane=WHOLE_ID_SPACE, after=cursor)]
    assert SweepInput.model_validate({"after": cursor.model_dump(mode="json")}).lanes == 1


def test_a_new_sweep_starts_every_lane_from_the_beginning() -> None:
    progress = SweepInput(lanes=3).lane_progress()
    assert [p.lane for p in progress] == list(sweep_lanes(3))
    assert all(p.after is None and not p.done for p in progress)
