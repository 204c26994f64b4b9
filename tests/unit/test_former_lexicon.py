"""The noun lexicon (WordNet 3.0's lexicographer file of a noun's most frequent sense) and the rules that read
it. Each expected lexname was read from WordNet 3.0's index.sense by hand; each expected statement was written
by hand from the utterance; each near miss names what must not form."""

import pytest

from domain.candidates import ClaimKind
from domain.events import SourceEventKind
from domain.formation.deterministic.former import fallback_candidates
from domain.formation.deterministic.lexicon import CONDITION, PASTIME, PERSON, lexnames
from tests.unit.test_fallback import event
from tests.unit.test_former_clause_structure import statements


def kinds(*turns: str) -> dict[str, ClaimKind]:
    """Each formed statement's kind; a turn opening with "A: " is the agent's."""
    events = [
        event(
            turn.removeprefix("A: "),
            seq=seq,
            kind=SourceEventKind.ASSISTANT_MESSAGE
            if turn.startswith("A: ")
            else SourceEventKind.USER_MESSAGE,
        )
        for seq, turn in enumerate(turns, start=1)
    ]
    return {c.statement: c.claim_kind for c in fallback_candidates(events)}


@pytest.mark.parametrize(
    ("noun", "expected"),
    [
        ("guard", PERSON),  # guard%1:18:03 tagged 15 times, more than any other sense of "guard"
        ("locksmith", PERSON),
        ("cpa", PERSON),
        ("introvert", PERSON),
        ("asthma", CONDITION),  # noun.state, under "pathological state"
        ("fishing", PASTIME),  # noun.act, under "diversion, recreation"
        ("army", None),  # noun.group
        ("aaron", None),  # an instance: a name, not a kind of person
        ("great", None),  # a person noun too ("one of the greats"), but said mostly as an adjective
        ("shyness", None),  # noun.state, but no illness
    ],
)
def test_a_noun_is_filed_under_its_most_frequent_sense(noun: str, expected: str | None) -> None:
    assert lexnames([noun]) == {expected}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Locksmith, 20 years.", "User is a locksmith."),
        ("Chaplain at a hospice", "User is a chaplain at a hospice."),
        ("Stonemason for the cathedral", "User is a stonemason for the cathedral."),
    ],
)
def test_a_fragment_headed_by_a_kind_of_person_is_a_role(text: str, expected: str) -> None:
    # No role list names these nouns and none is agent-shaped: WordNet files each as noun.person, under a
    # worker or a leader, a position held.
    assert kinds(text) == {expected: ClaimKind.ROLE}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Extrovert, always have been.", "User is an extrovert."),
        ("Beginner at chess.", "User is a beginner at chess."),
    ],
)
def test_a_kind_of_person_that_is_no_position_keeps_the_default_kind(text: str, expected: str) -> None:
    # noun.person, but a trait or a level, not a position held: the reference's kind for these is no role.
    assert kinds(text) == {expected: ClaimKind.PROJECT_FACT}


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        # "Cajun" is noun.person, but a capital inside the phrase is a people's name, not what the user is.
        (
            ("A: What do you cook at home?", "Mostly Cajun, some Creole dishes"),
            "User cooks mostly Cajun, some Creole dishes at home.",
        ),
        # "soul" is noun.person, but after "some" it is no role opening a clause of its own.
        (
            ("A: What music do you listen to?", "mostly blues, some old soul"),
            "User listens to mostly blues, some old soul.",
        ),
    ],
)
def test_a_person_noun_inside_an_answer_does_not_cut_it(turns: tuple[str, str], expected: str) -> None:
    assert statements(*turns) == {expected}


def test_a_relative_is_no_role() -> None:
    assert not any(s.startswith("User is a") for s in statements("Husband at work, kids at school"))


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        # The reference files a recurring condition as recurring_state and an interest as interest; no verb
        # or listed word names either here, so these were the default project fact.
        (("I have emphysema.",), {"User has emphysema.": ClaimKind.RECURRING_STATE}),
        # A history of an illness is the condition, not experience (the history rule's skill).
        (
            ("I've had emphysema since I was 40.",),
            {"User has had emphysema since they were 40.": ClaimKind.RECURRING_STATE},
        ),
        (("A: Any health problems?", "Emphysema."), {"User has Emphysema.": ClaimKind.RECURRING_STATE}),
        (
            ("I'm really into archery these days.",),
            {"User is really into archery these days.": ClaimKind.INTEREST},
        ),
        (("I'm big into bebop.",), {"User is big into bebop.": ClaimKind.INTEREST}),
    ],
)
def test_a_complement_noun_files_the_claim_where_the_verb_names_no_kind(
    turns: tuple[str, ...], expected: dict[str, ClaimKind]
) -> None:
    assert kinds(*turns) == expected


def test_a_name_is_no_noun_sense() -> None:
    # "pip" is a disease of poultry in WordNet; written with a capital it is a pet's name.
    assert kinds("A: Do you have any pets?", "Two old tabbies, Pip and Moose.") == {
        "User has two old tabbies, Pip and Moose.": ClaimKind.PROJECT_FACT
    }
