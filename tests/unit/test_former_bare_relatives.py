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


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My son wants to take over the bakery.", "User's son wants to take over the bakery."),
        ("My husband needs to have his hip replaced.", "User's husband needs to have his hip replaced."),
        ("My daughter wants to study law in Edinburgh.", "User's daughter wants to study law in Edinburgh."),
    ],
)
def test_a_relatives_own_want_or_need_is_a_fact_about_them(text: str, expected: str) -> None:
    # Each formed nothing: a relative's "want" was read as words or thoughts, like "says" or "thinks".
    assert expected in statements(text)


@pytest.mark.parametrize(
    "text",
    [
        "My mum wants to know when you're free.",
        "My boss wants me to work Saturdays.",
        "My daughter says she wants a puppy.",
    ],
)
def test_a_want_about_the_conversation_or_the_user_forms_no_claim_of_the_relative(text: str) -> None:
    assert not any("want" in statement for statement in statements(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My friend Priya is a midwife.", "User's friend Priya is a midwife."),
        ("My dog Pretzel is 4.", "User's dog Pretzel is 4."),
        ("My neighbour Tom keeps bees.", "User's neighbour Tom keeps bees."),
    ],
)
def test_a_name_in_the_holder_keeps_its_capital(text: str, expected: str) -> None:
    # Each lowered the name before ("User's friend priya ...").
    assert expected in statements(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Me and my wife run a bakery in Leeds.", "User runs a bakery in Leeds."),
        ("me and my brother own a gym", "User owns a gym."),
    ],
)
def test_me_and_a_relative_is_the_user_and_the_relative(text: str, expected: str) -> None:
    # Both formed only the relative's claim ("User's wife runs a bakery in Leeds."), as "My wife and I run
    # a bakery" forms the user's.
    assert expected in statements(text)


@pytest.mark.parametrize("text", ["Me and my dad went fishing yesterday.", "Call me and my wife tomorrow."])
def test_me_and_a_relative_of_the_moment_forms_no_claim_of_the_user(text: str) -> None:
    # The relative's own claims ("User has a dad.") may form; none of the user's doing.
    of_the_user = {s for s in statements(text) if s.startswith("User ") and "has a" not in s}
    assert of_the_user == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We have twins and a baby, and the youngest has reflux.", "User's youngest has reflux."),
        ("I have three kids and the eldest just started college.", "User's eldest just started college."),
        ("I have two sons and my oldest plays rugby.", "User's oldest plays rugby."),
    ],
)
def test_the_youngest_or_eldest_of_the_users_children_holds_what_is_said_of_them(
    text: str, expected: str
) -> None:
    formed = statements(text)
    assert expected in formed
    assert not any(statement.startswith("User has a") and "est" in statement for statement in formed)


@pytest.mark.parametrize(
    "text",
    [
        "The youngest is 12 and my son is 14.",  # no relative of the user named before "the youngest"
        "I'm the oldest of five.",
    ],
)
def test_an_ordinal_of_no_relative_named_holds_nothing(text: str) -> None:
    assert not any(
        statement.startswith(("User's youngest", "User's oldest")) for statement in statements(text)
    )
