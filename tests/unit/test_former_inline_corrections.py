"""A count the user states with "not" and another count after it ("I have three grandkids not four") is
stated as the first count alone: the other is the one the user corrects, not more of the statement. Each
expected statement was written by hand from the utterance."""

import pytest

from tests.unit.test_former_clause_structure import statements


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Correction, I have three grandkids not four.", "User has three grandkids."),
        ("oops typo, i have 3 dogs not 2", "User has 3 dogs."),  # the possession rule's cut
        ("I work four days a week not five.", "User works four days a week."),
        ("Sorry, I'm 37 not 38.", "User is 37."),
    ],
)
def test_a_count_corrected_in_line_states_the_first_count_alone(text: str, expected: str) -> None:
    formed = statements(text)
    assert expected in formed
    assert not any("not" in statement.split() for statement in formed)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I have two kids, not counting my stepson.", "User has two kids."),
        ("I'm not 40 yet, I'm 39.", "User is 39."),
    ],
)
def test_a_not_before_no_second_count_keeps_its_reading(text: str, expected: str) -> None:
    assert expected in statements(text)
