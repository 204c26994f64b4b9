"""Ties among matches of equal coverage and weight: a subject whose topic names the query's terms first, and
each subject once before any subject twice."""

from datetime import timedelta

from domain.beliefs.relevance import Match, fuse, query_terms, subject_topic, topic_named
from domain.beliefs.retrieval import ranking_inputs
from tests.builders import T0, belief

NOW = T0 + timedelta(days=2)


def _match(
    subject: str,
    statement: str,
    days_old: int,
    coverage: int = 1,
    weight: float = 1.0,
    direct: int | None = None,
) -> Match:
    """A match holding coverage terms, all of them directly unless direct says how many."""
    record = belief(subject=subject, statement=statement, last_evidence_at=NOW - timedelta(days=days_old))
    return Match(
        ranking_inputs(record), coverage, coverage if direct is None else direct, weight, subject, statement
    )


def test_the_topic_is_what_follows_the_namespace() -> None:
    assert subject_topic("health:blood-pressure") == "blood-pressure"
    assert subject_topic("routine:gym:weekday") == "gym:weekday"
    assert subject_topic("sister") == "sister"


def test_a_subject_whose_topic_names_more_terms_ranks_first_among_equals() -> None:
    terms = query_terms("how old is the cat")
    named = _match("pet:cat", "User has a ginger tabby who is fourteen.", 40)
    mentioned = _match("home:chore", "User feeds the cat before work.", 1)
    assert fuse([mentioned, named], terms, NOW, 2)[0] == [named.inputs, mentioned.inputs]


def test_the_topic_does_not_outrank_coverage_or_weight() -> None:
    terms = query_terms("how old is the cat")
    named = _match("pet:cat", "User has a ginger tabby.", 40)
    two = _match("home:chore", "User feeds the old cat.", 1, coverage=2)
    heavier = _match("home:chore", "User feeds the cat.", 1, weight=1.5)
    assert fuse([named, two, heavier], terms, NOW, 3)[0] == [two.inputs, heavier.inputs, named.inputs]


def test_a_term_held_only_through_a_relative_ranks_below_it_held_directly_before_weight() -> None:
    terms = query_terms("my phone")
    phone = _match("tech:device", "User's phone is a Pixel 7.", 40)
    calls = _match("family:sister", "User's sister calls every Sunday.", 1, weight=1.5, direct=0)
    both = _match(
        "tech:device", "User calls from the phone and uses the old camera.", 1, coverage=2, direct=1
    )
    # coverage first, then how many terms are held directly, then weight and freshness
    assert fuse([calls, phone, both], terms, NOW, 3)[0] == [both.inputs, phone.inputs, calls.inputs]


def test_each_subject_once_before_any_subject_twice_among_equals() -> None:
    terms = query_terms("dinner")
    visits = [
        _match("family:visit", f"User had {name} over for dinner.", days)
        for name, days in (("Ann", 1), ("Bo", 2))
    ]
    roast = _match("food:favourite", "User's favourite dinner is a roast.", 30)
    soup = _match("food:cooked", "User made soup for dinner.", 20)
    # retrieval@3 alone would give Ann, Bo, soup, roast (freshest first)
    top, _ = fuse([*visits, roast, soup], terms, NOW, 4)
    assert top == [visits[0].inputs, soup.inputs, roast.inputs, visits[1].inputs]


def test_a_subject_seen_in_a_better_group_does_not_wait_in_a_worse_one() -> None:
    terms = query_terms("dinner roast")
    both = _match("food:favourite", "User's favourite dinner is a roast.", 30, coverage=2)
    again = _match("food:favourite", "User had a roast dinner at Ann's.", 1)
    other = _match("family:visit", "User had Bo over for dinner.", 2)
    assert fuse([again, other, both], terms, NOW, 3)[0] == [both.inputs, again.inputs, other.inputs]


def test_the_topic_names_the_person_the_statement_introduces_with_it() -> None:
    assert topic_named("family:son", "User's son Craig is a police officer.") == "son Craig"
    assert topic_named("family:son-in-law", "User does not get along with his son-in-law Darren.") == (
        "son-in-law Darren"
    )
    assert (
        topic_named("person:neighbour", "User's neighbour Mrs Kowalski feeds the cat.")
        == "neighbour Kowalski"
    )
    # not a name after the topic word, or no topic word in the statement: the topic alone
    assert topic_named("family:son", "User's son plays rugby with Tom.") == "son"
    assert topic_named("family:call", "User talked to Craig on the phone.") == "call"
    # the topic must be something the user has ("User's son"), not what the user did ("ran into")
    assert topic_named("social:ran-into", "User ran into Craig at the legion.") == "ran-into"


def test_a_question_naming_a_person_finds_the_belief_saying_who_they_are_first_among_equals() -> None:
    terms = query_terms("What does Craig do?")
    who = _match("family:son", "User's son Craig is a police officer in Barrie.", 20)
    mentions = [
        _match("family:call", "User talked to Craig on the phone on the long weekend.", 1),
        _match("social:ran-into", "User ran into Craig at the legion.", 2),
    ]
    assert fuse([*mentions, who], terms, NOW, 1)[0] == [who.inputs]
