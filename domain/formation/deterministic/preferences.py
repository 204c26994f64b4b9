"""Interests and preferences: what the user is into, prefers or dislikes, and the few durable negations
("I don't like long meetings", "I don't eat meat")."""

from domain.candidates import ClaimKind
from domain.formation.deterministic.claims import Claim, direct_claim
from domain.formation.deterministic.clause_words import NOT_ASSERTING
from domain.formation.deterministic.parsing import (
    Parse,
    aspect_of,
    content_words,
    copula_rest,
    cut,
    phrase_of,
)
from domain.formation.deterministic.predicate_words import (
    DIET_VERBS,
    DISLIKE_VERBS,
    FAN_WORDS,
    FASCINATED,
    PRONOUN_OBJECTS,
)
from domain.formation.rendering import Aspect, Predicate, conflict_key, third_person


def interest_claims(text: str, parse: Parse) -> list[Claim]:
    rest = parse.rest
    if parse.verb.lower in ("interested", "passionate") and parse.progressive:
        # "I'm really interested in": the adverb made "am" look like an auxiliary.
        rest = [parse.verb, *rest]
    elif parse.lemma != "be":
        rest = []
    if rest and rest[0].lower in ("interested", "passionate", "into"):
        start = 2 if rest[0].lower != "into" and len(rest) > 1 and rest[1].lower in ("in", "about") else 1
        kept = cut(rest[start:], text)
        words = content_words(kept)
        if not words:
            return []
        surface = " ".join(t.text for t in rest[:start])
        return [
            direct_claim(
                ClaimKind.INTEREST,
                conflict_key("interest", words),
                Predicate("be", f"is {surface}", Aspect.BARE, phrase_of(text, kept)),
            )
        ]
    rest = parse.rest
    # "I like to paint" is an interest; "I like to think ..." introduces a thought.
    thought = bool(rest) and rest[0].lower == "to" and (len(rest) < 2 or rest[1].lemma in NOT_ASSERTING)
    if parse.lemma in {"love", "enjoy", "like"} and parse.modal is None and rest and not thought:
        kept = cut(rest, text)
        words = content_words(kept)
        if not words or rest[0].lower in ("it", "that", "this", "them", "you", "your"):
            return []
        return [
            direct_claim(
                ClaimKind.INTEREST,
                conflict_key("interest", words),
                Predicate(parse.lemma, parse.verb.text, Aspect.SIMPLE, phrase_of(text, kept)),
            )
        ]
    return []


def interest_more_claims(text: str, parse: Parse) -> list[Claim]:
    """ "a big fan of", "fascinated by", "getting into"."""
    crest = copula_rest(parse)
    if crest is not None and len(crest) >= 3:
        fan_at = next((i for i, t in enumerate(crest[:4]) if t.lemma in FAN_WORDS), None)
        if crest[0].lower in ("a", "an", "the") and fan_at is not None and fan_at + 1 < len(crest):
            if crest[fan_at + 1].lower != "of":
                return []
            kept = cut(crest, text, keep_and=True)
            words = content_words(kept[fan_at + 2 :])
        elif crest[0].lower in FASCINATED and crest[1].lower in ("by", "with", "about", "on"):
            kept = cut(crest, text, keep_and=True)
            words = content_words(kept[2:])
        else:
            return []
        if not words:
            return []
        return [
            direct_claim(
                ClaimKind.INTEREST,
                conflict_key("interest", words),
                Predicate("be", "is", Aspect.BARE, phrase_of(text, kept)),
            )
        ]
    if (
        parse.lemma == "get"
        and len(parse.rest) >= 2
        and parse.rest[0].lower == "into"
        and parse.modal is None
    ):
        kept = cut(parse.rest[1:], text, keep_and=True)
        words = content_words(kept)
        if not words or kept[0].lower in PRONOUN_OBJECTS or kept[0].lower in ("trouble", "bed"):
            return []
        return [
            direct_claim(
                ClaimKind.INTEREST,
                conflict_key("interest", words),
                Predicate("get", "getting into", Aspect.PROGRESSIVE, phrase_of(text, kept)),
            )
        ]
    return []


def preference_claims(text: str, parse: Parse) -> list[Claim]:
    """ "I prefer ...", "I'd rather ...", "I'd prefer ...", "I hate ..."."""
    lemma = parse.lemma
    rest = parse.rest
    if not rest or rest[0].lower in ("not", "it", "that", "this", "you", "them"):
        return []
    would = parse.modal == "would"
    if parse.verb.lower == "rather" and would:
        verb, surface = "rather", "would rather"
    elif lemma == "prefer" and (parse.modal is None or would) and not parse.progressive:
        verb, surface = "prefer", "would prefer" if would else third_person("prefer")
    elif lemma in DISLIKE_VERBS and parse.modal is None and rest[0].lower not in PRONOUN_OBJECTS:
        verb, surface = lemma, third_person(lemma)
    else:
        return []
    kept = cut(rest, text, keep_and=True)
    words = content_words(kept)
    if not words or (aspect_of(parse)[0] is Aspect.PAST):
        return []
    return [
        direct_claim(
            ClaimKind.PREFERENCE,
            conflict_key("preference", words),
            Predicate(verb, surface, Aspect.BARE, phrase_of(text, kept)),
        )
    ]


def negated_claims(text: str, parse: Parse) -> list[Claim]:
    """The few negations that state something durable: "I don't eat meat", "I don't like long meetings"."""
    lemma = parse.lemma
    rest = parse.rest
    if parse.modal is not None or not rest or rest[0].lower in PRONOUN_OBJECTS or rest[0].lower == "any":
        return []
    if aspect_of(parse)[0] is not Aspect.SIMPLE:
        return []
    if "," in text[parse.verb.end : rest[0].start]:
        return []  # "I don't drink, 6 years sober": what follows the comma is no object of the verb
    kept = cut(rest, text, keep_and=True)
    words = content_words(kept)
    if not words:
        return []
    if lemma in DIET_VERBS:
        return [
            direct_claim(
                ClaimKind.CONSTRAINT,
                conflict_key("constraint", ["not", lemma] + words),
                Predicate(lemma, f"does not {lemma}", Aspect.BARE, phrase_of(text, kept)),
            )
        ]
    if lemma in ("like", "enjoy"):
        return [
            direct_claim(
                ClaimKind.PREFERENCE,
                conflict_key("preference", ["dislike"] + words),
                Predicate(lemma, f"does not {lemma}", Aspect.BARE, phrase_of(text, kept)),
            )
        ]
    return []
