"""The clause-first path's verb head: a first-person predicate's verb rewritten to the third person.

`verb_head` reads the main verb of a parsed predicate and gives its lemma, the phrase that stands for it in the
user's voice ("I've been a vet tech" -> "has been", "I never learned" -> "never learned", "I'm consulting"
-> "is consulting"), its aspect and the complement after it; a verb phrase that narrates a moment ("I was
reading about ...", "I didn't sleep well") has none. What the complement states is `clause_first`'s.
"""

from domain.formation.deterministic.clause_words import ACTIVITIES, PAST_MARKERS, SAME_FORM_PAST
from domain.formation.deterministic.parsing import Parse, aspect_of, copula_rest
from domain.formation.deterministic.predicate_words import PRONOUN_OBJECTS
from domain.formation.language import STOPWORDS, Token
from domain.formation.rendering import Aspect, third_person

_DROPPED_ADVERBS = frozenset(
    {"actually", "honestly", "personally", "definitely", "probably", "maybe", "possibly", "perhaps", "even"}
)


def verb_head(parse: Parse) -> tuple[str, str, Aspect, list[Token]] | None:
    """The main verb's lemma, its third-person phrase, its aspect and the complement tokens."""
    adverbs = " ".join(a for a in parse.adverbs if a not in _DROPPED_ADVERBS)
    spaced = f"{adverbs} " if adverbs else ""
    before = [t.lower for t in parse.tokens[: parse.verb_at]]
    never = parse.negated and "never" in before
    copula = copula_rest(parse)
    if copula is not None:
        negation = ("never " if never else "not ") if parse.negated else ""
        if parse.perfect:
            if parse.negated and not never:
                return None  # "I haven't been to the gym since January": a lapse up to now, as "I haven't had time"
            # "I've been a vet tech for nine years", "I've never been to Asia": since some time, in its own tense.
            return "be", f"has {negation}{spaced}been".replace("  ", " "), Aspect.PERFECT, copula
        # "I was born in Manila", "I was a teacher for 20 years": the past stays past.
        tense = "was" if parse.verb.lower in ("was", "were") and not parse.progressive else "is"
        return "be", f"{tense} {negation}{spaced}".rstrip(), Aspect.SIMPLE, copula
    aspect, surface = aspect_of(parse)
    verb = parse.verb
    lemma = parse.lemma
    if lemma == "have" and verb.lower == "got":
        aspect = Aspect.SIMPLE  # "I've got a bike" is possession, not the past of "get"
    if aspect is Aspect.SIMPLE and verb.lower in SAME_FORM_PAST and _names_past(parse.rest):
        aspect, surface = Aspect.PAST, verb.lower
    if parse.negated:
        return _negated_head(parse, spaced, never, aspect, surface, before)
    if parse.modal == "would":
        phrase_ = f"would {spaced}{verb.lower}"
    elif "can" in before:
        phrase_ = f"can {spaced}{lemma}"
    elif aspect is Aspect.SIMPLE:
        phrase_ = f"{spaced}{third_person(lemma)}"
    elif aspect is Aspect.PROGRESSIVE:
        if any(word in ("was", "were") for word in before):
            return None  # narration of a moment: "I was reading about ..."
        phrase_ = f"is {spaced}{surface}"
    elif aspect is Aspect.PERFECT:
        phrase_ = f"has {spaced}{surface}"
    else:
        phrase_ = f"{spaced}{surface}"
    return lemma, phrase_, aspect, parse.rest


def _names_past(words: list[Token]) -> bool:
    """Whether a complement names a past time: "ago", "yesterday", "last ...", or a year ("in 2019")."""
    return any(t.lower in PAST_MARKERS or is_year(t) for t in words)


def is_year(token: Token) -> bool:
    """A year of a life: four digits from 1900 to 2099 ("in 2019"; not "20th" or "1500")."""
    return len(token.lower) == 4 and token.lower.isdigit() and token.lower[:2] in ("19", "20")


def _negated_head(
    parse: Parse, spaced: str, never: bool, aspect: Aspect, surface: str, before: list[str]
) -> tuple[str, str, Aspect, list[Token]] | None:
    """A standing negation ("I don't eat pork", "I never learned to swim", "I've never been abroad"); a
    negated past, perfect or progressive ("I didn't sleep well", "I haven't had time", "I'm not asking")
    narrates a moment, and a negated modal is a limit the constraint rule reads."""
    rest = parse.rest
    # "to" is a pronoun object's ("I don't want to"), except before the verb "never" denies ("I never
    # learned to swim").
    infinitive = never and len(rest) > 1 and rest[0].lower == "to" and rest[1].lower not in STOPWORDS
    if (
        parse.modal is not None
        or "can" in before
        or rest
        and rest[0].lower in PRONOUN_OBJECTS
        and not infinitive
    ):
        return None
    if not rest and not (never and parse.lemma in ACTIVITIES):
        return None  # "I never cook" is a standing negation; "I don't know" is not
    lemma = parse.lemma
    if aspect is Aspect.SIMPLE:
        phrase_ = f"never {spaced}{third_person(lemma)}" if never else f"does not {spaced}{lemma}"
    elif never and aspect is Aspect.PAST:
        phrase_ = f"never {spaced}{surface}"
    elif never and aspect is Aspect.PERFECT:
        phrase_ = f"has never {spaced}{surface}"
    else:
        return None
    return lemma, phrase_, aspect, rest
