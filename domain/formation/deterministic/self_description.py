"""Verbless self-descriptions: "41, divorced, one teenage son, work in IT", "single dad of 2, full time
electrician, zero free time".

People describe themselves as a list of fragments with no subject and often no verb. Each fragment is read
as the first-person sentence it stands for: an age ("41" -> "I'm 41"), a marital status ("divorced" ->
"I'm divorced"), relatives counted ("one teenage son" -> "I have one teenage son"), a role, a limit or a
parent of some ("full time electrician" -> "I'm a full time electrician", "vegan" -> "I'm vegan", "single
dad of 2" -> "I'm a single dad of 2"), or a verb whose "I" was left out ("work in IT" -> "I work in IT").
A list is a self-description only when at least two of its fragments read so: a shopping list, "2, maybe
3" or "Monday, 3pm" reads as fewer and forms nothing. The former reads the sentences returned here.
"""

from domain.formation.deterministic.clause_words import ITEM_VERBS
from domain.formation.deterministic.coordination import is_age, verb_before_object
from domain.formation.deterministic.parsing import is_number, lowered, phrase_of
from domain.formation.deterministic.predicate_words import SPOUSAL
from domain.formation.deterministic.relatives import KIN
from domain.formation.deterministic.topic_words import (
    LIMIT_ADJECTIVES,
    MORE_OCCUPATIONS,
    OCCUPATIONS,
    PARENTS,
    names_a_person,
    names_an_agent,
)
from domain.formation.language import STOPWORDS, Token, verb_lemma

_MIN_READ = 2
_MAX_FRAGMENT_WORDS = 6
# Where the role's noun may stand in its fragment: "full time electrician".
_ROLE_WORDS = 3
_STATUS = SPOUSAL | {"single", "retired"}
_ROLES = OCCUPATIONS | MORE_OCCUPATIONS
_COUNTS = frozenset({"a", "an", "one"})
# A colon ends a label before the list: "About me: retired teacher, 67, widowed".
_BREAKS = (",", ";", ":")
_PLACE_WORDS = frozenset({"in", "at", "for", "from", "with", "on", "near"})
# The parts of the day or week a shift covers, and the adverbs before them: "mostly nights".
_SHIFTS = frozenset({"nights", "overnights", "evenings", "days", "earlies", "lates"})
_SHIFT_ADVERBS = frozenset({"mostly", "mainly", "usually", "always", "only", "just"})


def _fragments(text: str, tokens: list[Token]) -> list[list[Token]]:
    """The clause's tokens cut at commas and semicolons."""
    pieces: list[list[Token]] = [[]]
    for at, token in enumerate(tokens):
        if at and any(mark in text[tokens[at - 1].end : token.start] for mark in _BREAKS):
            pieces.append([])
        pieces[-1].append(token)
    return [piece for piece in pieces if piece]


def _reading(text: str, piece: list[Token]) -> str | None:
    """The first-person sentence one fragment stands for, or None."""
    words = lowered(phrase_of(text, piece))
    first = piece[0]
    lowers = [t.lower for t in piece]
    if len(piece) == 1 and is_age(first):
        return f"I'm {words}"
    # "divorced", "married for 10 years", "allergic to peanuts"; "single dad of 2" is a parent.
    alone = len(piece) == 1 or piece[1].lower in STOPWORDS
    if alone and (first.lower in _STATUS or first.lower in LIMIT_ADJECTIVES):
        return f"I'm {words}"
    if (is_number(first) or first.lower in _COUNTS) and any(t.lemma in KIN for t in piece[1:]):
        return f"I have {words}"
    head = next((t for t in piece[:_ROLE_WORDS] if _role_noun(t)), None)
    parent = any(t.lower in PARENTS for t in piece) and "of" in lowers
    if (head is not None or parent) and first.lower not in STOPWORDS:
        article = "an" if first.lower[:1] in "aeiou" else "a"
        return f"I'm {article} {words}"
    # "work in IT", "wear a pump", "teach high school chemistry": a plain verb before its object or its
    # place, or a verb an item may open with before anything; "zero free time" is none.
    # A number is no verb: "4 on 3 off" formed "User 4s on 3 off.".
    if (
        len(piece) < 2
        or first.lower[:1].isdigit()
        or verb_lemma(first) != first.lemma
        or first.lemma != first.lower
    ):
        return None
    after = piece[1].lower
    if (
        verb_before_object(piece, 0)
        or after in _PLACE_WORDS
        or first.lower in ITEM_VERBS
        and after not in STOPWORDS
    ):
        return f"I {words}"
    return None


def _role_noun(token: Token) -> bool:
    return (
        token.lemma in _ROLES
        or token.lower in _ROLES
        or names_a_person(token.lower)
        or names_an_agent(token.lower)
    )


def _shift(text: str, piece: list[Token]) -> str | None:
    """ "nights", "mostly overnights": when the user works, beside the role they work in ("Warehouse picker,
    nights")."""
    at = 1 if piece[0].lower in _SHIFT_ADVERBS and len(piece) > 1 else 0
    return f"I work {lowered(phrase_of(text, piece))}" if piece[at].lower in _SHIFTS else None


def self_description(text: str, tokens: list[Token]) -> list[str]:
    """The first-person sentences a list of fragments stands for; empty when it is no self-description."""
    pieces = [piece for piece in _fragments(text, tokens) if len(piece) <= _MAX_FRAGMENT_WORDS]
    # One age a person has: "20, 30, 40" is a list of numbers.
    ages = sum(1 for piece in pieces if len(piece) == 1 and piece[0].lower.isdigit())
    readings = [_reading(text, piece) for piece in pieces if not (ages > 1 and piece[0].lower.isdigit())]
    found = [reading for reading in readings if reading is not None]
    if any(reading.startswith(("I'm a ", "I'm an ")) for reading in found):
        found += [shift for piece in pieces if (shift := _shift(text, piece)) is not None]
    return found if len(found) >= _MIN_READ else []
