"""The precision set stays frozen, and every statement the former forms on it has a hand label."""

from itertools import combinations

import pytest

from evals.precision import precision
from evals.precision.precision import Part, PartDigestMismatch, load


@pytest.mark.parametrize(
    ("part", "least"),
    [
        (Part.DEV, 8),
        (Part.DEV2, 12),
        (Part.DEV3, 9),
        (Part.HELDOUT, 6),
        (Part.HELDOUT2, 9),
        (Part.HELDOUT3, 9),
    ],
)
def test_part_matches_its_digest_and_size(part: Part, least: int) -> None:
    conversations = load(part)
    assert len(conversations) >= least
    assert all(events for _, events in conversations)
    assert len({c.session_id for c, _ in conversations}) == len(conversations)


def test_an_edited_part_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(precision, "recorded", lambda part: {"dev.events.jsonl": "0" * 64})
    with pytest.raises(PartDigestMismatch):
        load(Part.DEV)


@pytest.mark.parametrize(("one", "other"), list(combinations(Part, 2)))
def test_the_parts_share_no_turn(one: Part, other: Part) -> None:
    def texts(part: Part) -> set[str]:
        return {e.text for _, events in load(part) for e in events if len(e.text) > 20}

    assert not texts(one) & texts(other)


@pytest.mark.parametrize("part", list(Part))
def test_every_formed_statement_has_a_hand_label(part: Part) -> None:
    assert precision.unlabelled(part) == []
