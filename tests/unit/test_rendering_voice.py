"""The user's own words in a statement are turned to the user's: a contracted "I" keeps its own verb."""

import pytest

from domain.formation.rendering import user_voice


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("what I'm doing", "what they're doing"),
        ("what I’m doing", "what they're doing"),
        ("everything I’ve learned", "everything they've learned"),
        ("the book I'd recommend", "the book they'd recommend"),
        ("wherever I'll be", "wherever they'll be"),
        ("since I was nine", "since they were nine"),
        ("my age", "their age"),
        ("the I-95 exit", "the I-95 exit"),
    ],
)
def test_first_person_words_become_the_users(phrase: str, expected: str) -> None:
    assert user_voice(phrase) == expected
