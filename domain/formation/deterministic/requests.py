"""Standing requests to the agent: an instruction that says it holds from now on forms the stated wish.

"Please never book me flights before 9am" forms "User wants the assistant never to book them flights
before 9am."; "Always answer me in bullet points" forms "User wants the assistant to always answer them in
bullet points.". An instruction about the current answer alone ("Make it shorter", "Give me three ideas")
carries no such marker and forms nothing.
"""

from domain.candidates import ClaimKind, Derivation, Longevity, Polarity
from domain.formation.deterministic.claims import Claim
from domain.formation.deterministic.clause_first import items_of, phrase
from domain.formation.language import STOPWORDS, Token
from domain.formation.rendering import Aspect, Predicate, conflict_key

_POLITE = frozenset({"please", "pls", "plz", "and", "also", "oh", "ok", "okay"})
_FROM_NOW_ON = (("from", "now", "on"), ("going", "forward"), ("in", "future"), ("in", "the", "future"))


def _standing(tokens: list[Token]) -> bool:
    lowers = [t.lower for t in tokens]
    return any(
        tuple(lowers[i : i + len(marker)]) == marker for marker in _FROM_NOW_ON for i in range(len(lowers))
    )


def _lowered(words: str) -> str:
    """An imperative's capital is the sentence's, not the word's: "Keep it short" -> "keep it short"."""
    return words[:1].lower() + words[1:] if words[1:2].islower() else words


def request_claims(text: str, tokens: list[Token]) -> list[Claim]:
    """The wish a standing instruction to the agent states, or nothing."""
    at = 0
    while at < len(tokens) and tokens[at].lower in _POLITE:
        at += 1
    rest = tokens[at:]
    if len(rest) < 2:
        return []
    first, second = rest[0].lower, rest[1].lower
    if first == "always":
        how, verb_at = "to always", 1
    elif first == "never":
        how, verb_at = "never to", 1
    elif first == "do" and second == "not" and len(rest) > 2 and rest[2].lower == "ever":
        how, verb_at = "never to", 3
    elif first == "do" and second == "not" and _standing(rest):
        how, verb_at = "not to", 2
    elif _standing(rest) and rest[0].lemma == rest[0].lower and rest[0].lower not in STOPWORDS:
        how, verb_at = "to", 0
    else:
        return []
    items = items_of(text, rest[verb_at:])
    if not items:
        return []
    words = items[0]
    statement_words = [t.lemma for t in words if t.lemma not in STOPWORDS]
    predicate = Predicate(
        "want", "wants", Aspect.SIMPLE, f"the assistant {how} {_lowered(phrase(text, words))}"
    )
    return [
        Claim(
            ClaimKind.PREFERENCE,
            Derivation.DIRECT,
            Longevity.DURABLE,
            Polarity.ASSERT,
            conflict_key("preference", ["request", *statement_words]),
            predicate,
        )
    ]
