"""A group's "we", a group's one thing, a change compared with before, a hedge after a phrase, and a relative
clause's head after a comma.

Every expected statement below was written by hand from the utterance, not copied from the former's output,
and no utterance is taken from an evaluation set. Each rule was broken on purpose once and its test seen
failing (the group search, the someone-else's-group test, the one-thing test, the hedge list, the cut at the
comma), then restored.
"""

import pytest

from domain.formation.deterministic.former import fallback_formation
from domain.formation.deterministic.groups import group_of
from domain.formation.deterministic.wellformed import Verdict
from tests.unit.test_former_wellformed import _events, _statements


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I sing in a community choir now, we rehearse every Monday night",
            "User's community choir rehearses every Monday night.",
        ),
        (
            "joined a rec soccer team this spring, we play on Sundays",
            "User's rec soccer team plays on Sundays.",
        ),
        (
            "my band finally has a drummer, we practice twice a week",
            "User's band practices twice a week.",
        ),
    ],
)
def test_a_we_after_a_group_the_user_named_is_the_groups(text: str, expected: str) -> None:
    statements = _statements(text)
    assert expected in statements
    # Not the user's own: the user does not rehearse or play alone.
    assert not any(s.startswith(("User rehearses", "User plays on", "User practices")) for s in statements)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A household's "we" is the user's.
        ("We moved to Denver in 2019", "User moved to Denver in 2019."),
        # Someone else's group is not the user's: the "we" stays the user's.
        (
            "my daughter's swim team is doing great, we drive to meets every weekend",
            "User drives to meets every weekend.",
        ),
    ],
)
def test_a_we_with_no_group_of_the_users_named_stays_the_user(text: str, expected: str) -> None:
    statements = _statements(text)
    assert expected in statements
    assert not any("team" in s for s in statements)


def test_the_group_a_we_stands_for_is_the_last_one_named_before_it() -> None:
    text = "I left the choir in May and joined a climbing club, we meet at the wall"
    assert group_of(text, text.index("we meet")) == "climbing club"
    assert group_of("We meet at the wall", 0) is None


@pytest.mark.parametrize(
    "text",
    [
        "honestly we're basically a family at this point",
        "I run a small bakery with my sister, we are a two person team",
        "we're a couple of nerds really",
    ],
)
def test_one_thing_a_we_is_is_not_the_users(text: str) -> None:
    formation = fallback_formation(_events(("user", text)))
    assert not any(
        c.statement.startswith(("User is basically a", "User is a two", "User is a couple"))
        for c in formation.candidates
    )
    assert formation.withheld[Verdict.ILL_FORMED] >= 1


def test_what_a_we_is_told_with_an_adjective_still_forms() -> None:
    assert "User is vegan." in _statements("We're vegan")


@pytest.mark.parametrize(
    "text",
    [
        "honestly I'm so much stronger now",
        "I play in a jazz band, we sound a lot tighter these days",
        "we repainted and my kitchen looks way bigger",
    ],
)
def test_a_state_compared_with_before_is_withheld_as_transient(text: str) -> None:
    formation = fallback_formation(_events(("user", text)))
    assert not any(
        word in c.statement for c in formation.candidates for word in ("stronger", "tighter", "bigger")
    )
    assert formation.withheld[Verdict.TRANSIENT] >= 1


def test_a_comparison_with_what_it_is_compared_with_still_forms() -> None:
    assert "User is much taller than their brother." in _statements("I'm much taller than my brother")


def test_a_hedge_after_a_phrase_is_taken_off() -> None:
    assert "User bought a kayak." in _statements("I bought a kayak tho")
    # A word a noun phrase may end on stays after a determiner.
    assert "User's therapist is a lovely young man." in _statements("my therapist is a lovely young man")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I've been doing pilates on Mondays, the one class I never miss",
            "User has been doing pilates on Mondays.",
        ),
        (
            "I've been walking to work every day, the only exercise I don't skip lol",
            "User has been walking to work every day.",
        ),
    ],
)
def test_the_head_of_a_relative_clause_after_a_comma_is_cut_from_the_statement(
    text: str, expected: str
) -> None:
    statements = _statements(text)
    assert expected in statements
    assert not any(" the one " in s or " the only " in s for s in statements)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "My landlady is selling the building so I'm taking over her garden plot for the summer",
            "User is taking over their landlady's garden plot for the summer.",
        ),
        (
            "my flatmate Ines moved to Porto, I'm renting out her room now",
            "User is renting out their flatmate Ines's room.",
        ),
    ],
)
def test_a_possessive_her_is_the_one_person_the_user_named_before(text: str, expected: str) -> None:
    statements = _statements(text)
    assert expected in statements
    assert not any(" her " in s for s in statements)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The statement names her itself.
        (
            "My mom has a bad hip and I drive her to her appointments",
            "User drives their mom to her appointments.",
        ),
    ],
)
def test_a_possessive_her_the_statement_names_stays(text: str, expected: str) -> None:
    assert expected in _statements(text)


def test_a_possessive_her_two_people_may_be_is_not_formed() -> None:
    # None is chosen, and the statement is not formed with a "her" nobody is named for.
    statements = _statements("my sister and my aunt are visiting, I'm baking her favorite pie")
    assert not any("pie" in s for s in statements), statements
