"""A past dated as a life event is kept: a one-off verb ("had", "came") dated to a month, a season, a year
or "... ago", and a person of the user's life whose dated change bears on the user. Each expected statement
was written by hand from the utterance; each near miss names what must not form."""

import pytest

from tests.unit.test_former_clause_structure import statements


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("my grandpa had a heart attack in June", "User's grandpa had a heart attack in June."),
        ("I had knee surgery in 2019, so no squats.", "User had knee surgery in 2019."),
        (
            "We came to Ireland from Brazil three years ago.",
            "User came to Ireland from Brazil three years ago.",
        ),
        ("My manager quit last month.", "User's manager quit last month."),
        ("Our landlord sold the house in April.", "User's landlord sold the house in April."),
        ("My startup ran out of money last year.", "User's startup ran out of money last year."),
    ],
)
def test_a_dated_past_forms_its_claim(text: str, expected: str) -> None:
    assert expected in statements(text)


@pytest.mark.parametrize(
    ("text", "unwanted"),
    [
        # A meal or an errand of today is no life event.
        ("I had tacos last night.", "User had tacos last night."),
        ("I went to the gym this morning.", "User went to the gym this morning."),
        # A day of the month is no year.
        ("I had pizza on the 20th.", "User had pizza on the 20th."),
        ("I went to a concert on the 19th.", "User went to a concert on the 19th."),
        # A person's undated past is their own story.
        ("My neighbor ran a marathon after years of cycling.", "User's neighbor ran a marathon"),
        ("My friend quit smoking after college.", "User's friend quit smoking"),
    ],
)
def test_an_undated_or_passing_past_forms_nothing_of_it(text: str, unwanted: str) -> None:
    assert not any(s.startswith(unwanted.rstrip(".")) for s in statements(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "ago" closes a time fronted before the "I", not a noun the "I" opens a relative clause about.
        ("Two years ago I moved to Leeds.", "User moved to Leeds."),
        ("Since my husband passed a year ago I live alone.", "User lives alone."),
    ],
)
def test_a_time_fronted_with_ago_leaves_the_clause_its_subject(text: str, expected: str) -> None:
    assert expected in statements(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Since my husband retired in 2020 I do all the gardening.", "User's husband retired in 2020."),
        ("I moved here after my dad retired in 2010.", "User's dad retired in 2010."),
        ("Because my partner works nights I do the school run.", "User's partner works nights."),
    ],
)
def test_a_relatives_clause_after_since_because_or_after_is_theirs(text: str, expected: str) -> None:
    formed = statements(text)
    assert expected in formed
    # The relative's clause ends where the user's own begins ("... in 2020 they do all the gardening").
    assert not any(statement.startswith(expected[:-1] + " ") for statement in formed)


@pytest.mark.parametrize(
    "text", ["If my wife finds out I'll be in trouble.", "When my son drives I get nervous."]
)
def test_a_relatives_clause_after_if_or_when_states_nothing_of_them(text: str) -> None:
    assert not any(statement.startswith("User's") for statement in statements(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ive been roofing since i was 19, im 34 now", "User has been roofing since they were 19."),
        (
            "I've been vegetarian since I was a teenager.",
            "User has been vegetarian since they were a teenager.",
        ),
        ("I've got asthma since I was 6.", "User has had asthma since they were 6."),
        ("Been turning wrenches since I was 17.", "User has been turning wrenches since they were 17."),
    ],
)
def test_since_the_user_was_an_age_dates_the_statement(text: str, expected: str) -> None:
    # Each formed the statement without its time ("User has been roofing."): the "I" after "since" was read
    # as a clause of its own.
    assert expected in statements(text)


@pytest.mark.parametrize(
    ("text", "expected", "unwanted"),
    [
        (
            "I'm a big Liverpool fan, been going to Anfield since I was a kid.",
            "User is a big Liverpool fan.",
            "User I",
        ),
        ("Type 1 diabetic since I was 8, wear a pump", "User is type 1 diabetic.", "since"),
        ("I've been anxious since I was let go in May.", "User has been anxious.", "let go"),
    ],
)
def test_since_an_age_dates_only_its_own_statement(text: str, expected: str, unwanted: str) -> None:
    formed = statements(text)
    assert expected in formed
    assert not any(unwanted in statement for statement in formed)
