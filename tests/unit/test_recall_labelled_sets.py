"""The recall benchmark's held-out relevance set stays frozen and apart from the dev set it was not tuned on."""

import pytest

from benchmarks import recall_labelled
from benchmarks.recall_labelled import DEV, HeldoutDigestMismatch, heldout


def test_heldout_matches_its_digest_and_size() -> None:
    assert recall_labelled.heldout_digest() == recall_labelled.recorded_heldout_digest()
    held = heldout()
    assert len(held.targets) >= 50
    assert len({statement for _, statement, _ in held.targets}) == len(held.targets)


def test_an_edited_heldout_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recall_labelled, "recorded_heldout_digest", lambda: "0" * 64)
    with pytest.raises(HeldoutDigestMismatch):
        heldout()


def test_the_sets_share_no_question_or_statement() -> None:
    def texts(targets: tuple[tuple[str, str, str], ...]) -> set[str]:
        return {text.lower() for _, statement, question in targets for text in (statement, question)}

    assert not texts(DEV.targets) & texts(heldout().targets)
