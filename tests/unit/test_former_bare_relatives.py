"""A relative named with its "my" left out ("Grandkids are coming this weekend") holds what the clause
states, and a pronoun continues a relative only when it fits them. Each expected statement was written by
hand from the utterance; each near miss names what must not form."""

import pytest

from tests.unit.test_former_clause_structure import statements


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Stepson just turned 15.", "User's stepson just turned 15."),
        ("Stepson just turned 15.", "User has a stepson."),
        ("Wife teaches third grade.", "User's wife teaches third grade."),
        ("Grandkids are visiting in July.", "User's grandkids are visiting in July."),
        # "they" for a partner, whose sex the word does not say.
        ("My partner is a nurse and they work nights.", "User's partner works nights."),
    ],
)
def test_the_relative_holds_the_clause(text: str, expected: str) -> None:
    assert expected in statements(text)


@pytest.mark.parametrize(
    ("text", "unwanted"),
    [
        ("Baby steps.", "User has a baby."),
        ("Kids these days, honestly.", "User has kids."),
        # A remark on all of them, not the user's own.
        ("Kids are so expensive these days.", "User has kids."),
        ("Grandkids are the best.", "User has grandkids."),
        # "they" is the boys, not the sister.
        ("My sister has two boys, they are 4 and 7.", "User's sister are 4 and 7."),
        ("My brother moved to Leeds and she followed him.", "User's brother followed him."),
    ],
)
def test_a_near_miss_forms_nothing_of_it(text: str, unwanted: str) -> None:
    assert unwanted not in statements(text)
