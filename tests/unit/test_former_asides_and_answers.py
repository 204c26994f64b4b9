"""The deterministic former keeps asides, relative clauses and contrasts out of a claim, continues a relative
named after "I have", reads a left-out "I'm" before a gerund, and answers more question shapes. Each
expected statement was written by hand from the utterance, not copied from the former's output; each near
miss names what must not form."""

from datetime import UTC, datetime
from uuid import UUID

import pytest

from domain.candidates import Derivation
from domain.events import SourceEvent, SourceEventKind
from domain.formation.deterministic.former import fallback_candidates

SESSION = UUID("44444444-5555-4666-8777-888888888888")
AT = datetime(2026, 9, 3, 9, 0, tzinfo=UTC)


def statements(*turns: str) -> set[str]:
    """The direct statements of a conversation; a turn opening with "A: " is the agent's."""
    events = [
        SourceEvent(
            tenant_id="t1",
            principal_id="p1",
            session_id=SESSION,
            seq=seq,
            kind=SourceEventKind.ASSISTANT_MESSAGE
            if turn.startswith("A: ")
            else SourceEventKind.USER_MESSAGE,
            text=turn.removeprefix("A: "),
            occurred_at=AT,
        )
        for seq, turn in enumerate(turns, start=1)
    ]
    return {c.statement for c in fallback_candidates(events) if c.derivation is Derivation.DIRECT}


@pytest.mark.parametrize(
    "turns",
    [
        # An estimate, a contrast or an exception after the object is not more of it.
        ("I coach a youth soccer team, about 15 kids on a good week.", "User coaches a youth soccer team."),
        ("I'm a welder not a pipefitter.", "User is a welder."),
        ("I smoked a pipe but quit ten years ago.", "User smoked a pipe."),
        # A relative named after "I have", continued by a fitting pronoun after a comma.
        ("I have three sons, they are all in college.", "User's sons are all in college."),
        # A pronoun after "though" continues the relative who stated something.
        ("My mom still drives even though she's 88.", "User's mom is 88."),
        # "I'm" left out before a gerund with its object, and a later gerund.
        (
            "Training for a half marathon, aiming for under two hours.",
            "User is training for a half marathon.",
        ),
        ("btw moved to Leeds in June", "User moved to Leeds in June."),
        ("Got laid off last spring, still looking.", "User got laid off last spring."),
        # Answers: a count, a job, a place, a counted noun, a "yes" that goes on.
        ("A: How many languages do you speak?", "three, badly", "User speaks three languages, badly."),
        ("A: What's your job?", "bus driver, been at it 9 years", "User works as bus driver."),
        ("A: Which town are you from?", "Galway", "User is from Galway."),
        ("A: Do you have pets?", "three hens and a goat", "User has three hens and a goat."),
        ("A: Do you cook?", "yes, and my son bakes", "User cooks."),
        (
            "A: How long have you played the cello?",
            "since I was nine, except a gap in my twenties",
            "User has played the cello since they were nine.",
        ),
    ],
)
def test_a_clause_forms_its_claim(turns: tuple[str, ...]) -> None:
    *said, expected = turns
    assert expected in statements(*said)


@pytest.mark.parametrize(
    ("text", "unwanted"),
    [
        ("The only thing I cook is pasta.", "User cooks is pasta."),
        ("There are two books I keep rereading.", "User keeps rereading."),
        ("I'm a welder not a pipefitter.", "User is a welder not a pipefitter."),
        ("I drive I-95 every day.", "User drives they-95 every day."),
        ("I know it's late, sorry.", "User knows it's late."),
        ("My sister's apartment, mostly plants, is tiny.", "User has apartment mostly plants."),
        ("Running late, sorry!", "User is running late."),
        ("birdwatching and chess", "User is birdwatching and chess."),
    ],
)
def test_a_near_miss_forms_nothing_of_it(text: str, unwanted: str) -> None:
    assert unwanted not in statements(text)


def test_a_time_before_the_subject_is_not_a_relative_clause() -> None:
    assert any("calls their grandmother" in s for s in statements("Every Sunday I call my grandmother."))
