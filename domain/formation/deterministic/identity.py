"""Who the user is and what they have: occupation, role, skill, relationships, household and resources."""

from domain.candidates import ClaimKind, Longevity
from domain.formation.deterministic.claims import Claim, direct_claim, software_hypothesis
from domain.formation.deterministic.parsing import (
    Parse,
    aspect_of,
    content_words,
    copula_rest,
    cut,
    kept_rest,
    phrase_of,
)
from domain.formation.deterministic.predicate_words import (
    GOOD_AT,
    KNOW_STOP,
    PRONOUN_OBJECTS,
    ROLE_VERBS,
    SKILLED,
    SOFTWARE_GERUNDS,
    SPOUSAL,
    TEACHING_VERBS,
)
from domain.formation.deterministic.topic_words import (
    CREDENTIALS,
    LANGUAGES,
    MORE_OCCUPATIONS,
    OCCUPATIONS,
    POSITIONS,
    RELATIVES,
    TEAM_WORDS,
    VEHICLES_AND_THINGS,
)
from domain.formation.language import STOPWORDS, verb_lemma
from domain.formation.rendering import Aspect, Predicate, conflict_key

# A duration after a held job: the job is told in the perfect it was said in.
_DURATION_OPENERS = frozenset({"for", "since"})


def occupation_claims(text: str, parse: Parse) -> list[Claim]:
    rest = parse.rest
    if parse.lemma == "work" and len(rest) >= 3 and rest[0].lower == "as":
        noun_tokens = cut(rest[1:], text)
        verb, surface = "work", "works as"
    elif parse.lemma == "be" and len(rest) >= 2 and rest[0].lower in ("a", "an"):
        noun_tokens = kept_rest(parse, text)
        verb, surface = "be", "was" if parse.verb.lower in ("was", "were") else "is"
    else:
        return []
    head = next((t for t in noun_tokens if t.lemma in OCCUPATIONS or t.lemma in MORE_OCCUPATIONS), None)
    if head is None:
        return []
    at = noun_tokens.index(head) + 1
    # The occupation may modify the noun that ends the phrase: "a vet tech", "a nurse practitioner".
    while at < len(noun_tokens) and noun_tokens[at].lower not in STOPWORDS:
        at += 1
    words = content_words(noun_tokens[:at])
    # A job the user says they hold ("I work as", "I'm a nurse at the city hospital") is a role; a bare
    # "I'm a nurse" is the stated occupation, a skill.
    employed = verb == "work" or (at < len(noun_tokens) and noun_tokens[at].lower in ("at", "for", "with"))
    if not employed:
        noun_tokens = noun_tokens[:at]
    if parse.verb.lower == "been" and any(t.lower in _DURATION_OPENERS for t in noun_tokens[at:]):
        # "I've been a landscape architect at the firm for about 5 yrs": not "is ... for".
        surface = "has been"
    return [
        direct_claim(
            ClaimKind.ROLE if employed else ClaimKind.SKILL,
            conflict_key("occupation", words),
            Predicate(verb, surface, Aspect.BARE, phrase_of(text, noun_tokens)),
        )
    ]


def role_claims(text: str, parse: Parse) -> list[Claim]:
    """A position held: "I'm the treasurer of my club", "I lead the platform team", "I teach chemistry"."""
    lemma = parse.lemma
    crest = copula_rest(parse)
    if crest is not None:
        if len(crest) < 2 or crest[0].lower != "the" or crest[1].lemma not in POSITIONS:
            return []
        kept = cut(crest, text)
        if len(kept) < 2:
            return []
        return [
            direct_claim(
                ClaimKind.ROLE,
                conflict_key("role", content_words(kept)),
                Predicate("be", "is", Aspect.BARE, phrase_of(text, kept)),
            )
        ]
    aspect, _ = aspect_of(parse)
    if aspect is not Aspect.SIMPLE or parse.modal is not None:
        return []
    rest = parse.rest
    if lemma in ROLE_VERBS and rest and rest[0].lower in ("a", "an", "the", "our"):
        kept = kept_rest(parse, text)
        if not any(t.lemma in TEAM_WORDS for t in kept):
            return []
        return [
            direct_claim(
                ClaimKind.ROLE,
                conflict_key("role", [lemma] + content_words(kept)),
                Predicate(lemma, parse.verb.text, Aspect.SIMPLE, phrase_of(text, kept)),
            )
        ]
    if lemma in TEACHING_VERBS and rest and rest[0].lower not in PRONOUN_OBJECTS | {"me", "myself", "my"}:
        kept = kept_rest(parse, text)
        words = content_words(kept)
        if not words:
            return []
        return [
            direct_claim(
                ClaimKind.ROLE,
                conflict_key("role", [lemma] + words),
                Predicate(lemma, parse.verb.text, Aspect.SIMPLE, phrase_of(text, kept)),
            )
        ]
    return []


def skill_claims(text: str, parse: Parse) -> list[Claim]:
    """Stated abilities: languages, tools, credentials, learning; and the software-work cue."""
    lemma = parse.lemma
    rest = parse.rest
    crest = copula_rest(parse)
    if crest is not None:
        if len(crest) >= 3 and (
            crest[0].lower in SKILLED
            and crest[1].lower in ("in", "at", "with")
            or crest[0].lower in GOOD_AT
            and crest[1].lower == "at"
        ):
            kept = cut(crest, text, keep_and=True)
            words = content_words(kept[2:])
            if words:
                return [
                    direct_claim(
                        ClaimKind.SKILL,
                        conflict_key("skill", words),
                        Predicate("be", "is", Aspect.BARE, phrase_of(text, kept)),
                    )
                ]
        return []
    aspect, _ = aspect_of(parse)
    if lemma == "learn" and (parse.progressive or parse.been) and rest:
        kept = cut(rest, text, keep_and=True)
        words = [w for w in content_words(kept) if w not in ("lot", "much")]
        if not words:
            return []
        return [
            direct_claim(
                ClaimKind.SKILL,
                conflict_key("learning", words),
                # "I've been learning piano for two years" keeps its perfect: "has been learning".
                Predicate("learn", "been learning", Aspect.PERFECT, phrase_of(text, kept))
                if parse.been
                else Predicate("learn", "learning", Aspect.PROGRESSIVE, phrase_of(text, kept)),
                Longevity.ONGOING,
            )
        ]
    if aspect is not Aspect.SIMPLE or parse.modal is not None or not rest:
        if lemma in SOFTWARE_GERUNDS and parse.progressive and rest:
            return [software_hypothesis()]
        return []
    if lemma == "speak":
        kept = cut(rest, text, keep_and=True)
        if any(t.lower in LANGUAGES for t in kept):
            return [
                direct_claim(
                    ClaimKind.SKILL,
                    conflict_key("skill", ["speak"] + content_words(kept)),
                    Predicate("speak", parse.verb.text, Aspect.SIMPLE, phrase_of(text, kept)),
                )
            ]
        return []
    if lemma == "know" and rest[0].lower not in KNOW_STOP:
        kept = cut(rest, text, keep_and=True)
        named = [t for t in kept if t.text[:1].isupper() or t.lower in LANGUAGES]
        if not named or kept[0] not in named:
            return []
        return [
            direct_claim(
                ClaimKind.SKILL,
                conflict_key("skill", [t.lower for t in named]),
                Predicate("know", parse.verb.text, Aspect.SIMPLE, phrase_of(text, kept)),
            )
        ]
    if lemma == "have" and any(t.lower in CREDENTIALS for t in rest[:4]):
        kept = kept_rest(parse, text)
        return [
            direct_claim(
                ClaimKind.SKILL,
                conflict_key("skill", content_words(kept)),
                Predicate("have", parse.verb.text, Aspect.SIMPLE, phrase_of(text, kept)),
            )
        ]
    if lemma in SOFTWARE_GERUNDS or (
        lemma == "spend" and any(verb_lemma(t) in SOFTWARE_GERUNDS for t in rest[:5])
    ):
        return [software_hypothesis()]
    return []


def relationship_claims(text: str, parse: Parse) -> list[Claim]:
    rest = parse.rest
    if parse.lemma != "have" or len(rest) < 2:
        return []
    kept = kept_rest(parse, text)
    relative = next((t for t in kept if t.lemma in RELATIVES), None)
    if (
        relative is None
        or kept[0].lower not in ("a", "an", "one", "two", "three", "four", "five")
        and not kept[0].lower.isdigit()
    ):
        return []
    kept = kept[: kept.index(relative) + 1]
    return [
        direct_claim(
            ClaimKind.RELATIONSHIP,
            conflict_key("relationship", [relative.lemma]),
            Predicate("have", "has", Aspect.SIMPLE, phrase_of(text, kept)),
        )
    ]


def household_claims(text: str, parse: Parse) -> list[Claim]:
    """ "I'm married to ...", "I live with my partner ..."."""
    crest = copula_rest(parse)
    if crest is not None:
        if not crest or crest[0].lower not in SPOUSAL:
            return []
        kept = cut(crest, text)
        return [
            direct_claim(
                ClaimKind.RELATIONSHIP,
                "relationship:spouse" if crest[0].lower != "divorced" else "relationship:marital-status",
                Predicate("be", "is", Aspect.BARE, phrase_of(text, kept)),
            )
        ]
    rest = parse.rest
    if parse.lemma != "live" or len(rest) < 3 or rest[0].lower != "with" or parse.modal is not None:
        return []
    kept = cut(rest, text, keep_and=True)
    relatives = [t.lemma for t in kept if t.lemma in RELATIVES]
    if not relatives:
        return []
    return [
        direct_claim(
            ClaimKind.RELATIONSHIP,
            conflict_key("relationship", relatives),
            Predicate("live", parse.verb.text, Aspect.SIMPLE, phrase_of(text, kept)),
        )
    ]


def resource_claims(text: str, parse: Parse) -> list[Claim]:
    rest = parse.rest
    if parse.lemma not in {"drive", "own", "ride", "have", "use"} or not rest:
        return []
    kept = kept_rest(parse, text)
    if parse.lemma == "use":
        named = [t for t in kept if t.text[:1].isupper() and t.lower not in STOPWORDS]
        if not named:
            return []
        words = [t.lower for t in named]
    else:
        words = content_words(kept)
        things = [
            t for t in kept if t.lemma in VEHICLES_AND_THINGS or (t.text[:1].isupper() and t.lower != "i")
        ]
        if not things or (parse.lemma == "have" and not any(t.lemma in VEHICLES_AND_THINGS for t in kept)):
            return []
        words = [t.lower if t.text.isupper() else t.lemma for t in things]
    return [
        direct_claim(
            ClaimKind.RESOURCE,
            conflict_key("resource", words),
            Predicate(parse.lemma, parse.verb.text, Aspect.SIMPLE, phrase_of(text, kept)),
        )
    ]
