"""A list under a header: the header lends each item its predicate, as a question lends an answer its own.
Each expected statement was written by hand from the utterance."""

import pytest

from tests.unit.test_former_clause_structure import statements


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Things I can't eat: gluten, dairy, anything with sesame.",
            {"User cannot eat gluten.", "User cannot eat dairy.", "User cannot eat anything with sesame."},
        ),
        (
            "Kit I own: a kettlebell, a rowing machine, a yoga mat",
            {"User owns a kettlebell.", "User owns a rowing machine.", "User owns a yoga mat."},
        ),
        # Dashed items under a header naming the user read as the comma list they stand for.
        (
            "A bit about me: - 52 - retired nurse - allergic to penicillin",
            {"User is 52.", "User is a retired nurse.", "User is allergic to penicillin."},
        ),
    ],
)
def test_a_header_lends_each_item_its_predicate(text: str, expected: set[str]) -> None:
    assert statements(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # A header that does not name the user may list what is not so: goals are not habits.
        "My goals this year: 1) run a marathon 2) learn Welsh",
        "Shopping list: - milk - eggs - bread",
    ],
)
def test_a_header_that_names_no_predicate_of_the_user_forms_nothing(text: str) -> None:
    assert statements(text) == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Places I've lived: Leeds", {"User has lived in Leeds."}),
        ("Cities I've worked: Berlin, Munich.", {"User has worked in Berlin.", "User has worked in Munich."}),
        ("Countries I've been: Peru, Chile", {"User has been to Peru.", "User has been to Chile."}),
    ],
)
def test_a_places_header_lends_its_preposition_too(text: str, expected: set[str]) -> None:
    formed = statements(text)
    assert expected <= formed
    # Was "User has lived Leeds.": the place read as the verb's object.
    assert "User has lived Leeds." not in formed
