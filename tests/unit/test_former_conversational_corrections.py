"""A correction said in conversation retracts the claim it corrects: "actually X, not Y" retracts the claim
with Y, "I sold my Y" that the user has Y, "I stopped playing Y" that they play it, and after a second
consolidation only the corrected belief is live. Exact or nothing: a correction whose rejected words have no
one place in the claim forms no retraction. Keys carry no filler. Each expected statement was written by
hand from the utterance."""

from uuid import uuid4

import pytest

from adapters.memory.store import InMemoryStore
from domain.candidates import Polarity
from domain.formation.deterministic.former import fallback_candidates
from domain.formation.rendering import conflict_key
from tests.builders import OWNER, T0, event
from tests.pipeline import append, consolidate
from tests.unit.test_former_clause_structure import stated

RETRACT, ASSERT = Polarity.RETRACT, Polarity.ASSERT


@pytest.mark.parametrize(
    ("text", "kept", "retracted"),
    [
        (
            "Quick correction: we're actually going to Porto, not Lisbon.",
            "User is going to Porto.",
            "User no longer goes to Lisbon.",
        ),
        (
            "I meant I'm going to Porto, not Lisbon",
            "User is going to Porto.",
            "User no longer goes to Lisbon.",
        ),
        (
            "Sorry, I play the cello, not the violin.",
            "User plays the cello.",
            "User no longer plays the violin.",
        ),
        ("actually I'm a nurse, not a doctor", "User is a nurse.", "User no longer is a doctor."),
        (
            "Correction, I have three grandkids not four.",
            "User has three grandkids.",
            "User no longer has four grandkids.",
        ),
    ],
)
def test_a_claim_corrected_in_the_same_breath_retracts_the_one_it_replaces(
    text: str, kept: str, retracted: str
) -> None:
    formed = stated(text)
    assert (ASSERT, kept) in formed
    assert (RETRACT, retracted) in formed


@pytest.mark.parametrize(
    "text",
    [
        "I'm going to Porto, not Lisbon.",  # no word says it corrects anything
        "Actually I'm going to Porto in June, not Lisbon.",  # Lisbon could take the place of Porto or June
        "Actually I play the cello, not really well.",  # "not really" names no thing
        "Sorry, I teach kids at school, not home.",  # home could take the place of kids or school
        "Actually I think I'm going to Porto, not Lisbon.",  # hedged: nothing is settled enough to end
    ],
)
def test_a_correction_with_no_one_place_for_the_rejected_words_retracts_nothing(text: str) -> None:
    assert not any(polarity is RETRACT for polarity, _ in stated(text))


@pytest.mark.parametrize(
    ("text", "retracted"),
    [
        ("I sold my cello last year", {"User no longer has a cello.", "User no longer owns a cello."}),
        ("I got rid of my car", {"User no longer has a car.", "User no longer owns a car."}),
        ("I gave my skis away", {"User no longer has skis.", "User no longer owns skis."}),
    ],
)
def test_parting_with_a_thing_retracts_having_it(text: str, retracted: set[str]) -> None:
    formed = stated(text)
    assert {s for p, s in formed if p is RETRACT} == retracted


@pytest.mark.parametrize(
    "text",
    [
        "I'm selling my car",  # not done yet
        "I sold my car to buy a new one",  # more said of it than the thing
        "I think I sold my cello",  # hedged
        "I never sold my cello",
        "I should have sold my car",
        "when I sold my car I cried",  # a time, not a statement
        "I sold my paintings and my prints",
    ],
)
def test_parting_retracts_only_a_plain_past_of_one_thing(text: str) -> None:
    assert not any(polarity is RETRACT for polarity, _ in stated(text))


def test_stopping_playing_retracts_the_verb_play() -> None:
    assert (RETRACT, "User no longer plays the cello.") in stated("I stopped playing the cello")
    assert (ASSERT, "User has been playing the cello for years.") in stated(
        "I've been playing the cello for years"
    )


@pytest.mark.parametrize(
    ("words", "key"),
    [
        ("seafood actually haha", "interest:seafood"),
        ("lol sushi tho", "interest:sushi"),
        ("omg um oh the cello", "interest:cello"),
    ],
)
def test_a_key_carries_no_filler(words: str, key: str) -> None:
    assert conflict_key("interest", words) == key


def test_a_formed_claim_is_filed_under_a_key_without_filler() -> None:
    events = [event(1, "I love seafood actually haha", session_id=uuid4())]
    assert [c.subject for c in fallback_candidates(events)] == ["interest:seafood"]


@pytest.mark.parametrize(
    ("said", "corrected", "live"),
    [
        (
            "we're going to Lisbon for our holiday in June",
            "Quick correction: we're actually going to Porto, not Lisbon.",
            {"User is going to Porto."},
        ),
        (
            "I've been playing the cello for years",
            "I don't play the cello any more, I sold it last year",
            {"User sold the cello last year."},
        ),
        ("I have a cello", "I sold my cello last year", {"User sold their cello last year."}),
    ],
)
def test_two_consolidations_leave_only_the_corrected_belief_live(
    said: str, corrected: str, live: set[str]
) -> None:
    store, session = InMemoryStore(), uuid4()
    append(store, [event(1, said, session_id=session)])
    consolidate(store, OWNER, session, None, now=T0)
    append(store, [event(2, corrected, session_id=session)])
    consolidate(store, OWNER, session, None, now=T0)
    with store() as uow:
        assert {b.statement for b in uow.beliefs.page(OWNER, None, 100) if b.is_live} == live
