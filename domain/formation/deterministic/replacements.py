"""A claim corrected in the same breath: "Quick correction: we're actually going to Porto, not Lisbon",
"Sorry, I play the cello, not the violin", "I have three grandkids not four". The claim stands as said, and
the claim it replaces (the same predicate with the rejected words in place of the stated ones) is retracted,
so an earlier belief in it ends at commit.

Exact or nothing: the clause must say it corrects (a cue word), the rejected words must end the clause right
after the claim's complement, and they must take the place of one phrase the complement holds (a number, a
name, or the whole phrase after one preposition), of the same shape; anything else forms no retraction."""

import re

from domain.candidates import Derivation, Polarity
from domain.formation.deterministic.claims import Claim
from domain.formation.equivalence import NUMBER_WORDS
from domain.formation.language import STOPWORDS
from domain.formation.rendering import Predicate, conflict_key

# A clause holding one of these says the user is correcting what was said before.
CUES = frozenset({"actually", "correction", "oops", "whoops", "sorry", "typo", "meant"})
# ", not Lisbon." ending the clause: one to three words.
_REJECTED = re.compile(r"[\s,]+not\s+((?:[\w'’-]+\s+){0,2}[\w'’-]+)[\s.!?]*$", re.IGNORECASE)
_PREPOSITIONS = frozenset({"to", "in", "at", "from", "with", "for", "of", "on", "into"})
_DETERMINERS = frozenset({"a", "an", "the", "my", "our"})
# Words a "not" ends a clause on that name no thing: "not really", "not sure", "not yet".
_NOT_THINGS = frozenset(
    {"really", "sure", "yet", "well", "much", "quite", "exactly", "always", "often", "anymore", "again"}
    | {"today", "now", "tomorrow", "here", "there", "bad", "true", "even", "just", "only", "too", "ever"}
)
_MAX_PHRASE_WORDS = 3


def _is_number(word: str) -> bool:
    return word.isdigit() or word.lower() in NUMBER_WORDS


def _is_name(words: list[str]) -> bool:
    return all(w[:1].isupper() for w in words)


def _replaced(complement: str, rejected: list[str]) -> str | None:
    """The complement with the rejected words in the place of the phrase they reject, or None when no one
    phrase of the same shape is there to take."""
    words = complement.split()
    if not words or not rejected:
        return None
    if len(rejected) == 1 and _is_number(rejected[0]):
        counts = [i for i, w in enumerate(words) if _is_number(w)]
        if len(counts) != 1:
            return None
        return " ".join([*words[: counts[0]], rejected[0], *words[counts[0] + 1 :]])
    lead = 1 if words[0].lower() in _PREPOSITIONS else 0
    phrase = words[lead:]
    if (
        not phrase
        or len(phrase) > _MAX_PHRASE_WORDS
        or any(w.lower() in _PREPOSITIONS for w in phrase)
        or _is_name(rejected) != _is_name(phrase)
        or rejected[-1].lower() in STOPWORDS
        or rejected[-1].lower() in _NOT_THINGS
    ):
        return None
    if phrase[0].lower() in _DETERMINERS and rejected[0].lower() not in _DETERMINERS:
        # "the cello, not violin": the rejected noun takes the stated one's determiner.
        rejected = [phrase[0], *rejected]
    return " ".join([*words[:lead], *rejected])


def replaced_claims(clause_text: str, lowers: list[str], claims: list[Claim]) -> list[Claim]:
    """Retractions of what the clause's stated claims replace ("..., not Lisbon"); none without a cue."""
    if CUES.isdisjoint(lowers):
        return []
    match = _REJECTED.search(clause_text)
    if match is None:
        return []
    said = clause_text[: match.start()]
    rejected = match.group(1).split()
    retractions: list[Claim] = []
    for claim in claims:
        complement = claim.predicate.complement
        if (
            claim.polarity is not Polarity.ASSERT
            or claim.derivation is not Derivation.DIRECT
            or claim.hedged
            or not complement
            or not said.endswith(complement)
        ):
            continue
        replaced = _replaced(complement, rejected)
        if replaced is None:
            continue
        predicate = claim.predicate
        namespace = claim.subject.partition(":")[0]
        retractions.append(
            Claim(
                claim.kind,
                Derivation.DIRECT,
                claim.longevity,
                Polarity.RETRACT,
                conflict_key(namespace, f"{predicate.verb} {replaced}"),
                Predicate(predicate.verb, predicate.surface, predicate.aspect, replaced),
                claim.holder,
            )
        )
    return retractions
