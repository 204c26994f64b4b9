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
from domain.formation.language import verb_lemma
from domain.formation.rendering import Aspect, Predicate, conflict_key

_ANY_MORE = re.compile(r"\bany\s+more\b", re.IGNORECASE)
# When a habit ended, at the end of what was quit: "in january", "in 2019", "last year", "two years ago".
_WHEN_ENDED = re.compile(
    r"\s*\b(?:(?:in|since)\s+(?:january|february|march|april|may|june|july|august|september|october"
    r"|november|december|\d{4})|last\s+\w+|(?:a|an|\w+)\s+(?:days?|weeks?|months?|years?)\s+ago|yesterday)$",
    re.IGNORECASE,
)


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
