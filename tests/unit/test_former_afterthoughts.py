"""A comma's fragment that states or asks something of its own is not more of the object before it: a
count after a verb that does not list it, a left-out "I've been", a question. Each expected statement was
written by hand from the utterance; each near miss names what must not form."""

import pytest

from domain.candidates import ClaimKind
from tests.unit.test_fallback import form
from tests.unit.test_former_clause_structure import statements


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I'm organizing a reunion for my class in May, 60 people.",
            "User is organizing a reunion for their class in May.",
        ),
        ("I teach piano to kids, any tips for keeping 6-year-olds focused?", "User teaches piano to kids."),
        ("I work at a vet clinic, been there since 2018.", "User works at a vet clinic."),
        ("Raised in Ohio, been in Tampa since 2011.", "User has been in Tampa since 2011."),
        # "and" before a count lists it.
        ("I swim the 100 and 200 for my club.", "User swims the 100 and 200 for their club."),
    ],
)
def test_a_comma_fragment_of_its_own_ends_the_item(text: str, expected: str) -> None:
    assert expected in statements(text)


@pytest.mark.parametrize(
    ("text", "unwanted"),
    [
        ("I'm organizing a reunion for my class in May, 60 people.", "60 people"),
        ("I teach piano to kids, any tips for keeping 6-year-olds focused?", "tips"),
        ("I work at a vet clinic, been there since 2018.", "been there"),
    ],
)
def test_the_fragment_is_not_part_of_any_claim(text: str, unwanted: str) -> None:
    assert not any(unwanted in statement for statement in statements(text))


def test_a_project_for_someone_is_filed_as_a_project() -> None:
    formed = form("I'm building a treehouse for my kids.")
    assert (ClaimKind.ONGOING_PROJECT, "User is building a treehouse for their kids.") in {
        (c.claim_kind, c.statement) for c in formed
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A past with its "I" left out after a comma.
        ("I have celiac disease, diagnosed in 2019.", "User has celiac disease."),
        ("I have type 2 diabetes, found out last year.", "User has type 2 diabetes."),
        # A span of time after a possession's comma.
        ("I have evening shifts at the library, 10 hours a week.", "User has evening shifts at the library."),
    ],
)
def test_a_left_out_past_or_a_span_after_a_comma_ends_the_item(text: str, expected: str) -> None:
    formed = statements(text)
    assert expected in formed
    assert not any(statement.startswith(expected[:-1] + ",") for statement in formed)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "and", not a comma, before the past coordinates it.
        (
            "I started a blog last month and named it Tea Time.",
            "User started a blog last month and named it Tea Time.",
        ),
        ("I have two kids, 3 and 5.", "User has two kids."),
    ],
)
def test_a_coordinated_past_or_an_age_is_not_cut_as_an_aside(text: str, expected: str) -> None:
    assert expected in statements(text)
