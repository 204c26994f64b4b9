"""Local canonical rendering: statements are composed here from closed fields, never copied from a former.

A statement is "User" (or "User's <relation>") plus the predicate the user stated, conjugated for the third
person, with first-person words of the copied complement turned into the user's. A hypothesis always
carries uncertainty language; a retraction always says the claim no longer holds.
"""

import re
from dataclasses import dataclass
from enum import StrEnum

from domain.candidates import MAX_STATEMENT_CHARS, MAX_SUBJECT_CHARS, ClaimKind, Derivation, Polarity
from domain.formation.language import FILLER_WORDS, STOPWORDS, tokenize

UNCERTAINTY_WORDS: frozenset[str] = frozenset({"likely", "may", "tentatively"})


class Aspect(StrEnum):
    SIMPLE = "simple"  # present simple: the user's habit or state
    PROGRESSIVE = "progressive"  # "is building"
    PERFECT = "perfect"  # "has trained"
    PAST = "past"  # "restarted"
    BARE = "bare"  # the complement already carries its verb: "has years of ..."


@dataclass(frozen=True, slots=True)
class Predicate:
    """What the user said of themselves: the verb (lemma and as written) and the words after it."""

    verb: str
    surface: str
    aspect: Aspect
    complement: str = ""


# Members read once: each read of a member through its enum class is a lookup (Python 3.11), and every claim
# the former reads is rendered.
_SIMPLE = Aspect.SIMPLE
_PROGRESSIVE = Aspect.PROGRESSIVE
_PERFECT = Aspect.PERFECT
_RETRACT = Polarity.RETRACT
_HYPOTHESIS = Derivation.HYPOTHESIS

_IRREGULAR_3SG = {"be": "is", "have": "has", "do": "does", "go": "goes"}
_SIBILANT = re.compile(r"(?:s|sh|ch|x|z|o)$")
_CONSONANT_Y = re.compile(r"[^aeiou]y$")

_VOICE = {
    "my": "their",
    "mine": "theirs",
    "myself": "themselves",
    "me": "them",
    "i": "they",
    "i'm": "they're",
    "i've": "they've",
    "i'd": "they'd",
    "i'll": "they'll",
    "i was": "they were",
    "we": "they",
    "our": "their",
    "ours": "theirs",
    "us": "them",
}
_NOT_SLUG = re.compile(r"[^\w.+#-]")
# "I was" is one entry so its verb agrees ("since they were nine"); "I-95" is a road, not the user. A
# contracted "I" is tried before the bare one, which would otherwise match its "I" alone ("they'm").
# The lookahead skips positions no alternative opens at (a leading \b gets no prefix scan): patterns.py.
_VOICE_WORD = re.compile(
    r"(?=[miouw])\b(?:my|mine|myself|me|I\s+was|I['’](?:m|ve|d|ll)|I(?!-\d)|our|ours|us|we)\b", re.IGNORECASE
)


_third_person_cache: dict[str, str] = {}


def third_person(verb: str) -> str:
    """Present simple, third person singular, of a verb lemma."""
    cached = _third_person_cache.get(verb)
    if cached is None:
        cached = _third_person(verb)
        if len(_third_person_cache) >= 10_000:
            _third_person_cache.clear()
        _third_person_cache[verb] = cached
    return cached


def _third_person(verb: str) -> str:
    if verb in _IRREGULAR_3SG:
        return _IRREGULAR_3SG[verb]
    if _CONSONANT_Y.search(verb):
        return verb[:-1] + "ies"
    if _SIBILANT.search(verb):
        return verb + "es"
    return verb + "s"


def user_voice(phrase: str) -> str:
    """The user's own words with first-person references turned into the user's ("my age" -> "their age")."""

    def swap(match: re.Match[str]) -> str:
        word = match.group(0)
        key = " ".join(word.lower().replace("’", "'").split())
        if key == "us" and word == "US":
            return word
        return _VOICE.get(key, word)

    return _VOICE_WORD.sub(swap, phrase).strip()


def _verb_phrase(predicate: Predicate) -> str:
    if predicate.aspect is _SIMPLE:
        return third_person(predicate.verb)
    if predicate.aspect is _PROGRESSIVE:
        return f"is {predicate.surface}"
    if predicate.aspect is _PERFECT:
        return f"has {predicate.surface}"
    return predicate.surface


def _hedge(verb_phrase: str) -> str:
    """Uncertainty language inside a verb phrase: "is likely allergic", "likely runs"."""
    head, _, rest = verb_phrase.partition(" ")
    if head in ("is", "are", "was"):
        return f"{head} likely {rest}".rstrip()
    return f"likely {verb_phrase}"


def _clip(statement: str) -> str:
    if len(statement) <= MAX_STATEMENT_CHARS:
        return statement
    cut = statement.rfind(" ", 0, MAX_STATEMENT_CHARS - 4)
    return statement[: cut if cut > 0 else MAX_STATEMENT_CHARS - 4].rstrip(" ,;:") + " ..."


def render_statement(
    claim_kind: ClaimKind,
    derivation: Derivation,
    polarity: Polarity,
    predicate: Predicate,
    holder: str = "User",
    hedged: bool = False,
) -> str:
    """The canonical statement of a claim. claim_kind is accepted so kind-specific wording has one home.

    hedged keeps the uncertainty the user expressed ("I think I'm allergic to cats") in a direct claim.
    """
    del claim_kind  # every kind currently renders through its predicate; kept for a stable signature
    complement = user_voice(predicate.complement)
    tail = f" {complement}" if complement else ""
    if polarity is _RETRACT:
        body = f"{holder} no longer {third_person(predicate.verb)}{tail}"
    elif derivation is _HYPOTHESIS:
        if predicate.verb == "be" and predicate.aspect is _SIMPLE:
            body = f"{holder} is likely{tail}"
        else:
            body = f"{holder} likely {_verb_phrase(predicate)}{tail}"
    elif hedged:
        body = f"{holder} {_hedge(_verb_phrase(predicate))}{tail}"
    else:
        body = f"{holder} {_verb_phrase(predicate)}{tail}"
    body = body.rstrip(" ,;:-")
    if not body.endswith((".", "!", "?")):
        body += "."
    return _clip(body)


def has_uncertainty(statement: str) -> bool:
    words = {word.lower() for word in re.findall(r"[A-Za-z]+", statement)}
    return bool(words & UNCERTAINTY_WORDS)


def conflict_key(namespace: str, words: list[str] | str, max_words: int = 5) -> str:
    """A specific subject key such as "activity:swimming" or "project:personal-ai-agent".

    A list is taken as lemmas already; a string is lemmatized here, acronyms kept as written.
    """
    raw = [t.lemma for t in tokenize(words)] if isinstance(words, str) else words
    parts: list[str] = []
    for word in raw:
        cleaned = word.lower()
        if not cleaned.isalnum():
            # An alphanumeric word is all word characters already: nothing to strip.
            cleaned = _NOT_SLUG.sub("", cleaned).strip(".-")
        if not cleaned or cleaned in STOPWORDS or cleaned in FILLER_WORDS or cleaned in parts:
            continue
        parts.append(cleaned)
        if len(parts) >= max_words:
            break
    slug = "-".join(parts) or "unspecified"
    return f"{namespace}:{slug}"[:MAX_SUBJECT_CHARS]
