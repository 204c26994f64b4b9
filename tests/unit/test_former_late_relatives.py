"""A relative the user says has died ("my late husband", "my wife died", "my mum passed") is no longer had:
the clause forms what it says of them, not "User has a husband.". Each statement was written by hand from
the utterance."""

import pytest

from tests.unit.test_former_clause_structure import statements


@pytest.mark.parametrize(
    ("text", "gone", "kept"),
    [
        (
            "My husband Ted passed in 2019, we were married 52 years.",
            "User has a husband.",
            "User's husband Ted passed in 2019.",
        ),
        (
            "My late husband was a fisherman.",
            "User has a late husband.",
            "User's late husband was a fisherman.",
        ),
        ("My wife died last spring.", "User has a wife.", "User's wife died last spring."),
        ("My brother passed away in 2020.", "User has a brother.", "User's brother passed away in 2020."),
        (
            "Since my wife died two years ago I live alone with our dog Bruno.",
            "User has a wife.",
            "User lives alone with their dog Bruno.",
        ),
    ],
)
def test_a_relative_who_died_is_not_had(text: str, gone: str, kept: str) -> None:
    formed = statements(text)
    assert gone not in formed
    assert kept in formed


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My son passed his driving test last week.", "User has a son."),  # "passed" with an object
        ("My daughter passed the bar in May.", "User has a daughter."),
        ("My sister is a nurse.", "User has a sister."),
    ],
)
def test_a_relative_who_passed_something_is_still_had(text: str, expected: str) -> None:
    assert expected in statements(text)
