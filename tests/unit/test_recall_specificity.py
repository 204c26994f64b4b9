"""Specificity: among matches holding the same query terms, the one holding a rarer word of a term's family
ranks first."""

import math
from datetime import timedelta

import pytest

from domain.beliefs.relevance import Match, fuse, held_terms, query_terms, specificity
from domain.beliefs.retrieval import ranking_inputs
from tests.builders import T0, belief

NOW = T0 + timedelta(days=2)


def _match(subject: str, statement: str, days_old: int) -> Match:
    record = belief(subject=subject, statement=statement, last_evidence_at=NOW - timedelta(days=days_old))
    return Match(ranking_inputs(record), 1, 1, 1.0, subject, statement)


def test_the_rarest_word_held_of_each_term_counts() -> None:
    terms = query_terms("what do I do for a living")  # one term: job, career, occupation, profession, work
    job = _match("work:occupation", "User teaches chemistry.", 30)
    meeting = _match("work:meeting", "User has a meeting on Monday.", 1)
    lesson = _match("work:lesson", "User is teaching a lesson.", 1)
    # "work" is held by all three, "occupation" by one: ln(3 + 1) - ln(holders)
    assert specificity(terms, [job, meeting, lesson]) == pytest.approx(
        [math.log(4), math.log(4 / 3), math.log(4 / 3)]
    )


def test_a_word_counts_only_whole() -> None:
    # "work" inside "homework" or "network" is not the word; "work" before an underscore or a hyphen is
    terms = query_terms("what do I do for a living")
    homework = _match("school:task", "User finished the homework for the network course.", 1)
    shift = _match("job:shift", "User's work_shift starts at nine.", 1)
    hyphen = _match("job:hours", "User keeps a work-life balance.", 1)
    assert specificity(terms, [homework, shift, hyphen]) == pytest.approx([0.0, math.log(2), math.log(2)])


def test_specificity_orders_matches_of_equal_coverage_and_weight_before_freshness() -> None:
    terms = query_terms("what do I do for a living")
    job = _match("work:occupation", "User teaches chemistry.", 30)
    fresher = [_match("work:meeting", f"User has a meeting with {name}.", 1) for name in ("Ann", "Bo", "Cy")]
    top, expired = fuse([*fresher, job], terms, NOW, 2)
    assert top[0] == job.inputs and top[1] in {m.inputs for m in fresher}
    assert expired == 0
    # a higher coverage still comes first
    two = Match(fresher[0].inputs, 2, 2, 1.0, "work:meeting", "User has a meeting with Ann.")
    assert fuse([job, two], terms, NOW, 1)[0] == [two.inputs]


def test_the_in_memory_match_stems_words_as_postgresql_does() -> None:
    # PostgreSQL's english configuration stems "living" and "lives" alike, and "manager" and "manages"; a
    # lemmatizer keeps each pair apart, so the in-memory store missed what PostgreSQL found
    living = query_terms("Where's Leanne living these days?")
    assert held_terms(living, "family:daughter", "User's daughter Leanne lives in Vancouver.") == {0, 1}
    boss = query_terms("Am I anyone's boss?")
    assert held_terms(boss, "work:role", "User line-manages six teachers.") == {1}
    # stop words stay out of both sides
    assert held_terms(query_terms("the cat"), "pet:dog", "User walks the dog.") == frozenset()
