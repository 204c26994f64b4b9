"""Correction claims: a correction ("I quit running", "I don't swim anymore", "Wait, I don't have a
sister") only retracts, keyed as the assertion its affirmative reading forms."""

import re

from domain.candidates import ClaimKind, Derivation, Longevity, Polarity
from domain.formation.clauses import Clause
from domain.formation.deterministic.claims import Claim, direct_claim
from domain.formation.deterministic.clause_first import NAMESPACES
from domain.formation.deterministic.habits import activity_of
from domain.formation.deterministic.kinds import classify
from domain.formation.deterministic.parsing import (
    Parse,
    content_words,
    copula_rest,
    cut,
    kept_rest,
    phrase_of,
)
from domain.formation.deterministic.rules import predicate_claims
from domain.formation.language import STOPWORDS, verb_lemma
from domain.formation.rendering import Aspect, Predicate, conflict_key, third_person

_ANY_MORE = re.compile(r"\bany\s+more\b", re.IGNORECASE)
# When a habit ended, at the end of what was quit: "in january", "in 2019", "last year", "two years ago".
_WHEN_ENDED = re.compile(
    r"\s*\b(?:(?:in|since)\s+(?:january|february|march|april|may|june|july|august|september|october"
    r"|november|december|\d{4})|last\s+\w+|(?:a|an|\w+)\s+(?:days?|weeks?|months?|years?)\s+ago|yesterday)$",
    re.IGNORECASE,
)


# "I sold my cello", "I gave away my bike", "I got rid of my car": the past forms that part the user from a
# thing they had, with the particle each takes before or after the thing.
_PARTED = {"sold": (), "gave": ("away",), "got": ("rid", "of")}
_MAX_THING_WORDS = 2


def parted_claims(text: str, parse: Parse) -> list[Claim]:
    """ "I sold my cello last year": the user no longer has (or owns) it. Exact only: a plain past, "my"
    and a noun of one or two words ending the clause (a time of when may follow); anything more ("to buy a
    new one", "and my bike", "it") forms nothing. The caller reads it of an asserted predicate with no
    negation, modal or hedge; a progressive ("I'm selling my car") has no past form to match."""
    particle = _PARTED.get(parse.verb.lower)
    if particle is None:
        return []
    rest = [t.lower for t in parse.rest]
    words = parse.rest
    if particle and rest[: len(particle)] == list(particle):
        words = words[len(particle) :]
    elif particle == ("away",) and rest[-1:] == ["away"]:
        words = words[:-1]  # "I gave my bike away"
    elif particle:
        return []
    if not words or words[0].lower != "my":
        return []
    said = phrase_of(text, words[1:])
    thing = _WHEN_ENDED.sub("", said).split()
    nouns = words[1 : 1 + len(thing)]
    if not 0 < len(nouns) <= _MAX_THING_WORDS or any(
        not t.text.isalpha() or t.lower in STOPWORDS for t in nouns
    ):
        return []
    head = nouns[-1]
    # A plural is had without an article ("User no longer has skis."), a singular with one, as it was said.
    article = "" if head.lemma != head.lower else ("an " if head.lower[0] in "aeiou" else "a ")
    complement = article + " ".join(t.text for t in nouns)
    key = conflict_key("resource", [t.lemma for t in nouns])
    return [
        Claim(
            ClaimKind.RESOURCE,
            Derivation.DIRECT,
            Longevity.DURABLE,
            Polarity.RETRACT,
            key,
            Predicate(verb, third_person(verb), Aspect.SIMPLE, complement),
        )
        for verb in ("have", "own")
    ]


def correction_claims(
    text: str, clause: Clause, parse: Parse, region_end: int, cued: bool = False
) -> list[Claim]:
    """A correction names a belief it ends; it can only retract, keyed as the assertion would be. cued says
    the clause opened as a correction ("Wait, ...", "Correction: ..."), which makes any negation one."""
    rest = parse.rest
    quitting = (parse.lemma == "give" and rest[:1] and rest[0].lower == "up") or parse.lemma in {
        "quit",
        "stop",
    }
    if quitting and not parse.negated:
        object_tokens = rest[1:] if parse.lemma == "give" else rest
        if not object_tokens:
            return []
        head = object_tokens[0]
        activity = activity_of(head, as_verb=True)
        if activity is not None:
            return [
                Claim(
                    ClaimKind.HABIT,
                    Derivation.DIRECT,
                    Longevity.ONGOING,
                    Polarity.RETRACT,
                    f"activity:{activity.gerund}",
                    Predicate(activity.verb, activity.verb, Aspect.SIMPLE, activity.complement),
                )
            ]
        if not head.lower.endswith("ing"):
            # "I quit Twitter", "I quit my job": the object is a thing, not a habit's verb, and there is no
            # earlier claim it names; the clause is read as the statement it is.
            return []
        kept = cut(object_tokens[1:], text)
        verb = verb_lemma(head)
        # "I quit smoking in january": when the habit ended is no part of it ("User no longer smokes in
        # january.").
        said = phrase_of(text, kept)
        phrase = _WHEN_ENDED.sub("", said)
        ended = said[len(phrase) :].lower().split()
        return [
            Claim(
                ClaimKind.HABIT,
                Derivation.DIRECT,
                Longevity.ONGOING,
                Polarity.RETRACT,
                conflict_key("habit", [verb] + content_words([t for t in kept if t.lower not in ended])),
                Predicate(verb, head.text, Aspect.SIMPLE, phrase),
            )
        ]
    if parse.negated and parse.modal is not None:
        return []
    if not (
        parse.no_longer
        or parse.negated
        and cued
        or parse.negated
        and (
            any(t.lower == "anymore" for t in rest)
            or _ANY_MORE.search(text[parse.verb.start : region_end]) is not None
        )
    ):
        return []
    affirmative = Parse(
        parse.tokens,
        parse.verb_at,
        False,
        None,
        parse.perfect,
        parse.progressive,
        False,
        False,
        parse.been,
        parse.adverbs,
    )
    found = [
        c
        for c in predicate_claims(text, clause, affirmative, region_end)
        if c.derivation is Derivation.DIRECT
    ]
    # "I'm not a vegetarian anymore": the copula was read as an auxiliary before "not".
    copula = copula_rest(parse)
    if not found and copula is not None:
        kept = cut(copula, text)
        words = content_words(kept)
        kind, longevity = classify("be", Aspect.SIMPLE, frozenset(words))
        predicate = Predicate("be", "is", Aspect.SIMPLE, phrase_of(text, kept))
        found = [direct_claim(kind, conflict_key(NAMESPACES[kind], ["be", *words]), predicate, longevity)]
    elif not found:
        kept = kept_rest(parse, text)
        found = [
            direct_claim(
                ClaimKind.HABIT,
                conflict_key("habit", [parse.lemma] + content_words(kept)),
                Predicate(parse.lemma, parse.verb.text, Aspect.SIMPLE, phrase_of(text, kept)),
                Longevity.ONGOING,
            )
        ]
    retractions: list[Claim] = []
    for claim in found:
        predicate = claim.predicate
        if predicate.aspect is Aspect.BARE and copula is not None:
            predicate = Predicate("be", "is", Aspect.SIMPLE, phrase_of(text, cut(copula, text)))
        elif predicate.aspect is Aspect.BARE:
            predicate = Predicate(
                parse.lemma, parse.verb.text, Aspect.SIMPLE, phrase_of(text, kept_rest(parse, text))
            )
        retractions.append(
            Claim(
                claim.kind,
                Derivation.DIRECT,
                claim.longevity,
                Polarity.RETRACT,
                claim.subject,
                predicate,
                claim.holder,
            )
        )
    return retractions
