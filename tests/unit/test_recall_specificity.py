"""Specificity: among matches holding the same query terms, the one holding a rarer word of a term's family
ranks first."""

import math
from datetime import timedelta

import pytest

from domain.beliefs.relevance import Match, fuse, query_terms, specificity
from domain.beliefs.retrieval import ranking_inputs
from tests.builders import T0, belief

NOW = T0 + timedelta(days=2)


def _match(subject: str, statement: str, days_old: int) -> Match:
    record = belief(subject=subject, statement=statement, last_evidence_at=NOW - timedelta(days=days_old))
    return Match(ranking_inputs(record), 1, 1.0, subject, statement)


def test_the_rarest_word_held_of_each_term_counts() -> None:
    terms = query_terms("what do I do for a living")  # one term: job, career, occupation, profession, work
    job = _match("work:occupation", "User teaches chemistry.", 30)
    meeting = _match("work:meeting", "User has a meeting on Monday.", 1)
    lesson = _match("work:lesson", "User is teaching a lesson.", 1)
    # "work" is held by all three, "occupation" by one: ln(3 + 1) - ln(holders)
    assert specificity(terms, [job, meeting, lesson]) == pytest.approx(
        [math.log(4), math.log(4 / 3), math.log(4 / 3)]
    )


def test_specificity_orders_matches_of_equal_coverage_and_weight_before_freshness() -> None:
    terms = query_terms("what do I do for a living")
    job = _match("work:occupation", "User teaches chemistry.", 30)
    fresher = [_match("work:meeting", f"User has a meeting with {name}.", 1) for name in ("Ann", "Bo", "Cy")]
    top, expired = fuse([*fresher, job], terms, NOW, 2)
    assert top[0] == job.inputs and top[1] in {m.inputs for m in fresher}
    assert expired == 0
    # a higher coverage still comes first
    two = Match(fresher[0].inputs, 2, 1.0, "work:meeting", "User has a meeting with Ann.")
    assert fuse([job, two], terms, NOW, 1)[0] == [two.inputs]
