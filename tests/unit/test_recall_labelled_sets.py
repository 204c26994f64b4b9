"""The recall benchmark's frozen relevance sets (dev2, dev3, dev4, held-out) stay frozen and apart from each other and
from the dev set."""

from itertools import combinations

import pytest

from benchmarks import recall_labelled
from benchmarks.recall_labelled import DEV, FROZEN, FrozenDigestMismatch, LabelledSet, frozen


@pytest.mark.parametrize("name", FROZEN)
def test_a_frozen_set_matches_its_digest_and_size(name: str) -> None:
    assert recall_labelled.frozen_digest(name) == recall_labelled.recorded_digest(name)
    held = frozen(name)
    assert len(held.targets) >= 50
    assert len({statement for _, statement, _ in held.targets}) == len(held.targets)


@pytest.mark.parametrize("name", FROZEN)
def test_an_edited_frozen_set_is_refused(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recall_labelled, "recorded_digest", lambda _: "0" * 64)
    with pytest.raises(FrozenDigestMismatch):
        frozen(name)


def test_the_sets_share_no_question_or_statement() -> None:
    def texts(labelled: LabelledSet) -> set[str]:
        return {text.lower() for _, statement, question in labelled.targets for text in (statement, question)}

    for one, other in combinations((DEV, *(frozen(name) for name in FROZEN)), 2):
        assert not texts(one) & texts(other), (one.name, other.name)
