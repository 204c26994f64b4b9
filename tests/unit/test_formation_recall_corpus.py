"""The formation recall corpus stays frozen: each part matches its sha256 record and keeps its size."""

from itertools import combinations

import pytest

from evals.formation_recall import corpus, recall
from evals.formation_recall.corpus import CorpusDigestMismatch, Part, load


@pytest.mark.parametrize(
    ("part", "least"),
    [
        (Part.DEV, 150),
        (Part.DEV2, 100),
        (Part.DEV3, 70),
        (Part.DEV4, 100),
        (Part.DEV5, 100),
        (Part.DEV6, 100),
        (Part.DEV7, 100),
        (Part.DEV8, 100),
        (Part.UNSEEN, 50),
    ],
)
def test_part_matches_its_digest_and_size(part: Part, least: int) -> None:
    assert corpus.digest(part) == corpus.recorded_digest(part)
    cases = load(part)
    assert len(cases) >= least
    assert len({case.id for case in cases}) == len(cases)


def test_an_edited_part_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(corpus, "recorded_digest", lambda part: "0" * 64)
    with pytest.raises(CorpusDigestMismatch):
        load(Part.UNSEEN)


@pytest.mark.parametrize(("one", "other"), list(combinations(Part, 2)))
def test_the_parts_share_no_utterance(one: Part, other: Part) -> None:
    def texts(part: Part) -> set[str]:
        return {event.text for case in load(part) for event in case.events}

    assert not texts(one) & texts(other)


@pytest.mark.parametrize(
    "argv", [["--part", "unseen", "--misses"], ["--misses"], ["--part", "dev7", "--part", "dev8", "--misses"]]
)
def test_misses_refuse_the_parts_read_as_totals_only(argv: list[str]) -> None:
    # Rule work must never read what the unseen part (or this round's transfer part, dev8) misses, asked for
    # by name or among every part.
    with pytest.raises(SystemExit) as refused:
        recall.main(argv)
    assert refused.value.code == 2


def test_misses_list_a_development_part(capsys: pytest.CaptureFixture[str]) -> None:
    assert recall.main(["--part", "dev5", "--misses"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("dev5 ")
    assert all(line.startswith("k") for line in lines[3:])
