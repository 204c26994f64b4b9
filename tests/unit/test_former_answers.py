"""Short answers borrow the agent's question: a conjunction opening the question, a statement with its "I"
left out after a comma, a "how long" after a "yes", and a function word's sentence capital do not change
what the answer states. Each expected statement was written by hand from the conversation."""

import pytest

from tests.unit.test_former_clause_structure import statements


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        (("A: And where did you grow up?", "outside Tucson"), "User grew up outside Tucson."),
        (
            ("A: So how long have you been sewing?", "about ten years"),
            "User has been sewing about ten years.",
        ),
        (
            ("A: How long have you taught there?", "Since 2004, started right after my degree"),
            "User has taught there since 2004.",
        ),
        (("A: Are you retired?", "yes, 6 years now"), "User is retired."),
        (("A: What do you grow?", "Mostly garlic and onions"), "User grows mostly garlic and onions."),
        # An answer that limits the question also says yes.
        (
            ("A: Do you still ski?", "only on spring trips, my knees complain"),
            "User still skis only on spring trips.",
        ),
        (("A: Do you bake?", "mostly bread"), "User bakes mostly bread."),
    ],
)
def test_an_answer_states_the_questions_predicate(turns: tuple[str, ...], expected: str) -> None:
    assert expected in statements(*turns)


@pytest.mark.parametrize(
    ("turns", "unwanted"),
    [
        (("A: How long have you taught there?", "Since 2004, started right after my degree"), "started"),
        (("A: Are you retired?", "yes, 6 years now"), "6 years"),
        (("A: Do you still ski?", "only on spring trips, my knees complain"), "knees"),
    ],
)
def test_an_aside_is_not_part_of_the_answer(turns: tuple[str, ...], unwanted: str) -> None:
    assert not any(unwanted in statement for statement in statements(*turns))


def test_a_limit_to_the_agents_offer_states_nothing() -> None:
    assert statements("A: Do you want me to add a reminder?", "only if it's quick") == set()


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        (
            ("A: Do you have any pets?", "Two goats and a very loud parrot"),
            {"User has two goats.", "User has a very loud parrot."},
        ),
        (("A: Any siblings?", "An older brother and two sisters."), {"User has an older brother.", "User has two sisters."}),
        (("A: Do you have kids?", "Three, two boys and a girl"), {"User has three kids, two boys and a girl."}),
    ],
)
def test_each_thing_an_answer_says_the_user_has_forms_its_claim(turns: tuple[str, ...], expected: set[str]) -> None:
    # The list formed one claim with its sentence capital before ("User has Two goats and a very loud parrot.").
    assert expected <= statements(*turns)


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        (("A: Where do you live?", "Just outside Leicester."), "User lives just outside Leicester."),
        (("A: Where do you work?", "right by the station"), "User works right by the station."),
        (
            ("A: What are your hobbies?", "Knitting, fishing and the odd jigsaw."),
            "User's hobbies are knitting, fishing and the odd jigsaw.",
        ),
    ],
)
def test_a_place_after_an_adverb_and_a_list_of_gerunds_are_the_answer(turns: tuple[str, ...], expected: str) -> None:
    # Before: "User lives in just outside Leicester.", "User's hobbies are Knitting."
    assert expected in statements(*turns)


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        # A "no" borrows the question's predicate as the user's own denial (issue 17: "Answers to the agent's
        # question borrow the question's predicate").
        (("A: Do you like spicy food?", "nope"), {"User does not like spicy food."}),
        (("A: Are you a vegetarian?", "No."), {"User is not a vegetarian."}),
        (("A: Any siblings?", "nah"), {"User has no siblings."}),
        (("A: Do you have any allergies at the moment?", "No"), {"User has no allergies."}),
        (("A: Do you still ski?", "no"), {"User no longer skis."}),
        (("A: Do you ever bake?", "No, never."), {"User never bakes."}),
        # Whatever else the clause says, the "no" answers the question.
        (
            ("A: Are you a night owl?", "God no, I'm asleep by nine."),
            {"User is not a night owl.", "User is asleep by nine."},
        ),
    ],
)
def test_a_no_denies_the_questions_predicate(turns: tuple[str, ...], expected: set[str]) -> None:
    assert statements(*turns) == expected


@pytest.mark.parametrize(
    "turns",
    [
        # A denial the user's own words would not form forms nothing: this moment, this conversation, an
        # adverb the denial would drop.
        ("A: Do you have any questions?", "no"),
        ("A: Do you understand?", "nope"),
        ("A: Do you usually eat breakfast?", "no"),
        ("A: Are you still there?", "no"),
    ],
)
def test_a_no_that_denies_nothing_durable_forms_nothing(turns: tuple[str, ...]) -> None:
    assert statements(*turns) == set()


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        # A choice between two kinds: the answer names one, the question the noun.
        (("A: Are you a cat or a dog person?", "Cat, obviously."), {"User is a cat person."}),
        (("A: Are you an early or late riser?", "early"), {"User is an early riser."}),
        # "Who" borrows the question's verb and its preposition as "what" does.
        (("A: Who do you live with?", "my aunt and her dog"), {"User lives with their aunt and her dog."}),
        # A "no" to a life's experience says never.
        (("A: Have you ever been skiing?", "nope"), {"User has never been skiing."}),
        (("A: Have you done any sailing before?", "No."), {"User has never done any sailing before."}),
    ],
)
def test_more_question_shapes_lend_their_predicate(turns: tuple[str, ...], expected: set[str]) -> None:
    assert statements(*turns) == expected


@pytest.mark.parametrize(
    "turns",
    [
        # Neither kind named; a troubleshooting question about this moment.
        ("A: Are you a cat or a dog person?", "depends on the cat"),
        ("A: Have you tried restarting the router?", "no"),
    ],
)
def test_an_answer_naming_neither_choice_or_this_moment_forms_nothing(turns: tuple[str, ...]) -> None:
    assert statements(*turns) == set()


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        (("A: Any allergies?", "Penicillin."), "User is allergic to penicillin."),
        (("A: Do you have any food allergies?", "Peanuts, quite a bad one"), "User is allergic to peanuts."),
    ],
)
def test_an_answer_about_allergies_names_what_the_user_is_allergic_to(
    turns: tuple[str, str], expected: str
) -> None:
    formed = statements(*turns)
    assert expected in formed
    assert not any(statement.startswith("User has P") for statement in formed)  # was "User has Penicillin."


@pytest.mark.parametrize(
    "turns",
    [
        ("A: Any allergies?", "not that I know of"),
        ("A: Do you have any questions?", "yes"),
        ("A: Do you have any questions?", "yes, one about the refund"),
        ("A: Is there anything else I can help with?", "yes, my car insurance"),
        ("A: Do you have any pets?", "yes"),  # was "User has any pets."
    ],
)
def test_an_answer_that_names_nothing_of_the_user_forms_nothing(turns: tuple[str, str]) -> None:
    assert statements(*turns) == set()


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        (("A: What grade are you in?", "8th"), "User is in 8th grade."),
        (("A: What year are you in?", "second, finally"), "User is in second year."),
        (("A: Which level are you on?", "3rd, barely"), "User is on 3rd level."),
        (
            ("A: What kind of music are you into?", "mostly kpop and some indie stuff"),
            "User is mostly into kpop and some indie stuff.",
        ),
    ],
)
def test_an_answer_to_what_noun_the_user_is_in_fills_the_question(
    turns: tuple[str, ...], expected: str
) -> None:
    # "What <noun> are you <preposition>?": an ordinal is one of the noun ("in 8th grade"); what the user is
    # into is the answer, a qualifier kept before the preposition.
    assert statements(*turns) == {expected}


@pytest.mark.parametrize(
    "turns",
    [
        ("A: What page are you on?", "12"),  # the page of this moment
        ("A: What kind of stuff are you into?", "that one lol"),  # a pointer names nothing
        ("A: What room are you in?", "the kitchen"),  # where the user is this moment
    ],
)
def test_an_answer_to_what_noun_the_user_is_in_that_names_nothing_forms_nothing(
    turns: tuple[str, ...],
) -> None:
    assert statements(*turns) == set()
