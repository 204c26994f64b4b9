"""Recurring states and constraints: conditions the user lives with ("I get migraines when ...") and the
limits they live within ("I can't run", "I'm vegan", "I avoid gluten", "..., so no running for a while")."""

from domain.candidates import ClaimKind, Longevity
from domain.formation.deterministic.claims import Claim, direct_claim
from domain.formation.deterministic.clause_words import MOMENT
from domain.formation.deterministic.parsing import (
    Parse,
    aspect_of,
    content_words,
    copula_rest,
    cut,
    kept_rest,
    phrase_of,
    through_trigger,
)
from domain.formation.deterministic.patterns import frequency
from domain.formation.deterministic.predicate_words import (
    FREQUENCY_ADVERBS,
    LIMIT_TARGETS,
    META_GOALS,
    PRONOUN_OBJECTS,
    STATE_VERBS,
    TRIGGERS,
)
from domain.formation.deterministic.topic_words import CONDITIONS, LIMIT_ADJECTIVES, STATE_WORDS
from domain.formation.language import Token, verb_lemma
from domain.formation.rendering import Aspect, Predicate, conflict_key, third_person


def state_claims(text: str, parse: Parse, region_end: int) -> list[Claim]:
    """A recurring condition: "I get migraines when ...", "I often feel tired ...", "I struggle with ..."."""
    lemma = parse.lemma
    rest = parse.rest
    if not rest or parse.modal is not None or parse.progressive:
        return []
    if lemma in STATE_VERBS:
        if (
            not (
                lemma in ("struggle", "deal", "live")
                and rest[0].lower == "with"
                or lemma == "suffer"
                and rest[0].lower == "from"
            )
            or len(rest) < 2
        ):
            return []
        kept = through_trigger(text, rest, region_end)
        words = content_words(kept[1:])
        if not words or (
            lemma == "live" and not any(t.lemma in STATE_WORDS or t.lemma in CONDITIONS for t in kept)
        ):
            return []
        return [
            direct_claim(
                ClaimKind.RECURRING_STATE,
                conflict_key("state", words),
                Predicate(lemma, parse.verb.text, Aspect.SIMPLE, phrase_of(text, kept)),
                Longevity.ONGOING,
            )
        ]
    if lemma not in ("get", "feel"):
        return []
    aspect, _ = aspect_of(parse)
    if aspect is not Aspect.SIMPLE:
        return []
    head = (
        rest[1] if rest[0].lower in ("really", "so", "very", "quite", "pretty") and len(rest) > 1 else rest[0]
    )
    if head.lemma not in STATE_WORDS and head.lower not in STATE_WORDS:
        return []
    often = [a for a in parse.adverbs if a in FREQUENCY_ADVERBS or a == "sometimes"]
    kept = through_trigger(text, rest, region_end)
    recurring = (
        lemma == "get"
        or often
        or any(t.lower in TRIGGERS for t in kept)
        or frequency(text, parse.verb.start, region_end) is not None
    )
    if not recurring or not kept:
        return []
    words = [head.lemma] + [w for w in content_words(kept) if w != head.lemma][:3]
    surface = " ".join([*often, third_person(lemma)])
    return [
        direct_claim(
            ClaimKind.RECURRING_STATE,
            conflict_key("state", words),
            Predicate(lemma, surface, Aspect.BARE, phrase_of(text, kept)),
            Longevity.ONGOING,
        )
    ]


# Verbs that "can't" makes an exclamation: "I can't wait", "I can't believe ...", "I can't thank you enough".
_EXCLAIMED = frozenset({"wait", "believe", "thank", "tell", "say", "imagine", "remember", "decide", "help"})


def constraint_claims(text: str, parse: Parse) -> list[Claim]:
    if (
        parse.modal is None
        and parse.negated
        and parse.tokens[: parse.verb_at]
        and any(t.lower == "can" for t in parse.tokens[: parse.verb_at])
    ):
        kept = kept_rest(parse, text)
        if parse.lemma in _EXCLAIMED or kept[:1] and kept[0].lower in ("it", "that", "this"):
            return []  # "I can't wait!", "I can't believe it": a feeling of the moment, not a limit
        words = [parse.lemma] + content_words(kept)
        complement = " ".join(p for p in (parse.lemma, phrase_of(text, kept)) if p)
        return [
            direct_claim(
                ClaimKind.CONSTRAINT,
                conflict_key("constraint", words),
                Predicate("can", "cannot", Aspect.BARE, complement),
            )
        ]
    crest = copula_rest(parse)
    if crest and any(t.lower in LIMIT_ADJECTIVES for t in crest[:3]):
        kept = cut(crest, text)
        # The copula's tense: "I was vegan in college", "I've been a vegetarian for years".
        tense = "has been" if parse.perfect else "was" if parse.verb.lower in ("was", "were") else "is"
        return [
            direct_claim(
                ClaimKind.CONSTRAINT,
                conflict_key("constraint", content_words(kept)),
                Predicate("be", tense, Aspect.BARE, phrase_of(text, kept)),
            )
        ]
    return []


def limit_claims(text: str, parse: Parse) -> list[Claim]:
    """Constraints: "I avoid ...", "I have to ...", "I need to avoid ...", "I only have ...", "I can only ..."."""
    lemma = parse.lemma
    rest = parse.rest
    if parse.modal is not None or not rest:
        return []
    aspect, _ = aspect_of(parse)
    if aspect is not Aspect.SIMPLE:
        return []
    if lemma == "avoid" and rest[0].lower not in PRONOUN_OBJECTS:
        kept = cut(rest, text, keep_and=True)
        words = content_words(kept)
        if not words:
            return []
        return [
            direct_claim(
                ClaimKind.CONSTRAINT,
                conflict_key("constraint", ["avoid"] + words),
                Predicate("avoid", parse.verb.text, Aspect.SIMPLE, phrase_of(text, kept)),
            )
        ]
    if lemma in ("have", "need") and len(rest) >= 3 and rest[0].lower == "to":
        target = verb_lemma(rest[1])
        if target in META_GOALS or target in ("go", "leave", "admit", "run", "say", "think", "get"):
            return []
        if lemma == "need" and target not in LIMIT_TARGETS:
            return []
        kept = cut(rest[1:], text)
        words = content_words(kept)
        if not words:
            return []
        return [
            direct_claim(
                ClaimKind.CONSTRAINT,
                conflict_key("constraint", words),
                Predicate(lemma, f"{third_person(lemma)} to", Aspect.BARE, phrase_of(text, kept)),
            )
        ]
    if "only" in parse.adverbs and not parse.negated:
        can = any(t.lower == "can" for t in parse.tokens[: parse.verb_at])
        if not (can or lemma == "have" and any(t.lower.isdigit() for t in rest[:3])):
            return []
        kept = kept_rest(parse, text)
        words = content_words(kept)
        if not words:
            return []
        surface = f"can only {parse.verb.lower}" if can else "only has"
        return [
            direct_claim(
                ClaimKind.CONSTRAINT,
                conflict_key("constraint", [lemma] + words),
                Predicate(lemma, surface, Aspect.BARE, phrase_of(text, kept)),
            )
        ]
    return []


def refusal_claims(text: str, tokens: list[Token]) -> list[Claim]:
    """ "I'm recovering from knee surgery so no running for a while": "so no" or ", no" before a gerund is a
    limit the user states on themselves, with "for me" left out; not a formula ("no kidding")."""
    for at in range(1, len(tokens) - 1):
        gerund = tokens[at + 1]
        if tokens[at].lower != "no" or not gerund.lower.endswith("ing"):
            continue
        lemma = verb_lemma(gerund)
        if (
            lemma == gerund.lower
            or lemma in MOMENT
            or not (tokens[at - 1].lower == "so" or "," in text[tokens[at - 1].end : tokens[at].start])
        ):
            continue
        kept = cut(tokens[at + 2 :], text)
        lowers = [t.lower for t in kept]
        if "me" in lowers and lowers[lowers.index("me") - 1] == "for":
            del kept[lowers.index("me") - 1 : lowers.index("me") + 1]
        words = [" ".join(t.text for t in kept)] if kept else []
        complement = " ".join([lemma, *words])
        return [
            direct_claim(
                ClaimKind.CONSTRAINT,
                conflict_key("constraint", [lemma, *content_words(kept)]),
                Predicate("can", "cannot", Aspect.BARE, complement),
            )
        ]
    return []


# "No problem for me": a formula of the conversation, not a limit.
_NO_FORMULAS = frozenset(
    {"problem", "problems", "worries", "worry", "idea", "thanks", "way", "rush", "pressure"}
)


def kept_from_claims(text: str, tokens: list[Token]) -> list[Claim]:
    """ "No caffeine after 2pm for me", "No alcohol for me, I'm pregnant": a thing the user keeps from,
    "for me" naming them; not "No, ..." nor a formula ("No problem for me")."""
    if len(tokens) < 4 or tokens[0].lower != "no" or "," in text[tokens[0].end : tokens[1].start]:
        return []
    end = next(
        (
            at
            for at in range(2, len(tokens) - 1)
            if tokens[at].lower == "for" and tokens[at + 1].lower == "me"
        ),
        None,
    )
    if end is None or tokens[1].lower in _NO_FORMULAS:
        return []
    thing = cut(tokens[1:end], text)
    words = content_words(thing)
    if not words or len(thing) < end - 1:
        return []  # a comma or a clause before "for me": the "no" is not what the user keeps from
    return [
        direct_claim(
            ClaimKind.CONSTRAINT,
            conflict_key("constraint", ["no", *words]),
            Predicate("have", "has", Aspect.BARE, f"no {phrase_of(text, thing)}"),
        )
    ]
