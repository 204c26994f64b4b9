"""Tokens and lemmas for matching user text.

Why simplemma: it is a maintained, pure-Python lemmatizer whose dictionaries ship inside the wheel, so
nothing is downloaded at run time and the domain layer stays free of native code and model files. It
covers irregular forms ("swam" -> "swim", "gave" -> "give", "been" -> "be") that hand-written suffix
stripping gets wrong, and a dictionary lookup behind a cache costs well under a microsecond per token,
which keeps the deterministic former above a megabyte per second. spaCy or NLTK would bring model
downloads or heavy native dependencies for accuracy the pattern-based former cannot use.
"""

import functools
import re
from typing import NamedTuple

import simplemma
from simplemma.strategies import DEFAULT_DICTIONARY_FACTORY

_LANG = "en"
_CACHE_LIMIT = 200_000
_cache: dict[str, str] = {}

# Contractions are expanded into their words so patterns see "I am" whether the user typed "I'm" or not.
_CONTRACTIONS: dict[str, tuple[str, ...]] = {
    "i'm": ("i", "am"),
    "i've": ("i", "have"),
    "i'd": ("i", "would"),
    "i'll": ("i", "will"),
    "don't": ("do", "not"),
    "doesn't": ("does", "not"),
    "didn't": ("did", "not"),
    "can't": ("can", "not"),
    "cannot": ("can", "not"),
    "won't": ("will", "not"),
    "isn't": ("is", "not"),
    "aren't": ("are", "not"),
    "wasn't": ("was", "not"),
    "haven't": ("have", "not"),
    "hasn't": ("has", "not"),
    "hadn't": ("had", "not"),
    "wouldn't": ("would", "not"),
    "shouldn't": ("should", "not"),
    "couldn't": ("could", "not"),
    "it's": ("it", "is"),
    "that's": ("that", "is"),
    "what's": ("what", "is"),
}

STOPWORDS: frozenset[str] = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "if",
        "then",
        "else",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "with",
        "from",
        "into",
        "onto",
        "about",
        "as",
        "than",
        "so",
        "such",
        "i",
        "me",
        "my",
        "mine",
        "myself",
        "we",
        "us",
        "our",
        "you",
        "your",
        "he",
        "him",
        "his",
        "she",
        "her",
        "it",
        "its",
        "they",
        "them",
        "their",
        "this",
        "that",
        "these",
        "those",
        "be",
        "am",
        "is",
        "are",
        "was",
        "were",
        "been",
        "being",
        "have",
        "has",
        "had",
        "having",
        "do",
        "does",
        "did",
        "done",
        "will",
        "would",
        "shall",
        "should",
        "can",
        "could",
        "may",
        "might",
        "must",
        "not",
        "no",
        "nor",
        "very",
        "just",
        "also",
        "too",
        "only",
        "even",
        "still",
        "really",
        "quite",
        "some",
        "any",
        "all",
        "each",
        "every",
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "when",
        "where",
        "why",
        "how",
        "there",
        "here",
        "up",
        "out",
        "over",
        "off",
        "again",
        "once",
        "now",
        "then",
        "thing",
        "something",
        "anything",
        "stuff",
        "lot",
        "bit",
        "kind",
        "sort",
        "way",
    ]
)
# Filler and interjections typed in passing ("I love seafood actually haha"): no part of what a claim is about,
# so no part of the key it is filed under.
FILLER_WORDS: frozenset[str] = frozenset(
    {"actually", "haha", "hahaha", "hehe", "lol", "lmao", "rofl", "tho", "btw", "tbh", "imo", "idk", "jk"}
    | {"um", "umm", "uh", "uhh", "hmm", "ugh", "omg", "oh", "ah", "wow", "yay", "oops", "whoops"}
)

# simplemma has no part of speech, so these gerunds come back as nouns; a verb slot needs the verb.
_GERUND_NOUNS: dict[str, str] = {
    "building": "build",
    "writing": "write",
    "coding": "code",
    "programming": "program",
    "smoking": "smoke",
    "painting": "paint",
    "drawing": "draw",
    "meeting": "meet",
    "reading": "read",
    "learning": "learn",
    "teaching": "teach",
    "cooking": "cook",
    "gardening": "garden",
    "fishing": "fish",
    "sailing": "sail",
}

# simplemma's lemma is no word here ("playing" -> "playe"): "I stopped playing the cello" must retract
# "User plays the cello", and a statement's main verb and key must not carry the misspelling.
_LEMMA_FIXES: dict[str, str] = {"playing": "play"}

_TOKEN = re.compile(r"[^\W_]+(?:['’.\-/][^\W_]+)*", re.UNICODE)
# The same scan with the gap before each word captured: findall hands back plain strings, so offsets come
# from summing lengths instead of asking a match object for each word's span. The gap is every character
# that cannot start a word, taken possessively, so each match starts where the last ended and the scan
# stays linear; the empty word at the end of the text (\Z) ends it.
_GAP_AND_TOKEN = re.compile(r"([\W_]*+)(" + _TOKEN.pattern + r"|\Z)", re.UNICODE)


class Token(NamedTuple):
    """A word of the source text: its exact slice, lower-cased form and lemma.

    A named tuple rather than a frozen dataclass: it is as immutable and hashable, compares by its fields,
    and costs a quarter as much to build, which matters at one object per word.
    """

    text: str
    lower: str
    lemma: str
    start: int
    end: int


def lemma(word: str) -> str:
    """The lemma of one lower-cased word; acronyms and non-alphabetic tokens are kept as they are."""
    cached = _cache.get(word)
    if cached is not None:
        return cached
    if not word.isalpha() or not word.isascii():
        result = word
    else:
        result = _LEMMA_FIXES.get(word) or simplemma.lemmatize(word, lang=_LANG).lower()
    if len(_cache) >= _CACHE_LIMIT:
        _cache.clear()
    _cache[word] = result
    return result


@functools.cache
def english_words() -> frozenset[str]:
    """Every word of simplemma's bundled English dictionary (its lemmas and their inflected forms, about
    180,000), lower-cased; read once, on first use (a fraction of a second), and shared by the process."""
    return frozenset(word.lower() for word in DEFAULT_DICTIONARY_FACTORY.get_dictionary(_LANG))


# What one surface word reads as: (lower, lemma) for each token it stands for. A lemma cache keyed by the
# word as written, so the per-word case, apostrophe and acronym checks run once per distinct word.
_Reading = tuple[tuple[str, str], ...]
_readings: dict[str, _Reading] = {}


def _reading(surface: str) -> _Reading:
    lower = surface.lower()
    if "'" in lower or "’" in lower:
        lower = lower.replace("’", "'")
        expanded = _CONTRACTIONS.get(lower)
        if expanded is None and (lower.endswith("n't") or lower.endswith("'s") or lower.endswith("'re")):
            head, _, tail = lower.rpartition("'")
            # "'s" is a possessive or "is"; patterns that care look at the marker, not a guess.
            expanded = (head[:-1], "not") if tail == "t" else (head, "'" + tail)
        if expanded is not None:
            result = tuple((part, lemma(part)) for part in expanded)
            _remember(surface, result)
            return result
    # Acronyms keep their letters: "AI" must not lemmatize to a form of "be".
    acronym = surface.isupper() and len(surface) > 1
    result = ((lower, lower if acronym else lemma(lower)),)
    _remember(surface, result)
    return result


def _remember(surface: str, reading: _Reading) -> None:
    if len(_readings) >= _CACHE_LIMIT:
        _readings.clear()
    _readings[surface] = reading


def tokenize(text: str, start: int = 0, end: int | None = None) -> list[Token]:
    """Words of text[start:end] with offsets into text; contractions become several tokens on one span."""
    tokens: list[Token] = []
    append = tokens.append
    readings_get = _readings.get
    new = tuple.__new__
    size = len(text)
    # Bounds clamp as a regex's pos and endpos do; slicing then scans exactly text[start:stop], since no
    # look-around in the pattern reaches past a word's own characters.
    start = min(max(start, 0), size)
    stop = size if end is None else min(max(end, 0), size)
    at = start
    for gap, surface in _GAP_AND_TOKEN.findall(text[start:stop] if start or stop != size else text):
        if not surface:
            break
        at += len(gap)
        to = at + len(surface)
        reading = readings_get(surface) or _reading(surface)
        if len(reading) == 1:
            lower, word_lemma = reading[0]
            append(new(Token, (surface, lower, word_lemma, at, to)))
        else:
            for lower, word_lemma in reading:
                append(new(Token, (surface, lower, word_lemma, at, to)))
        at = to
    return tokens


def verb_lemma(token: Token) -> str:
    """The lemma of a word standing in a verb slot ("am building" -> "build")."""
    return _GERUND_NOUNS.get(token.lower, token.lemma)


def as_verb(word_lemma: str) -> str:
    """A lemma read as its verb where simplemma kept a gerund as a noun ("building" -> "build"), so
    "is building" and "builds" agree; any other lemma as it is."""
    return _GERUND_NOUNS.get(word_lemma, word_lemma)


def lemmas(text: str) -> list[str]:
    """Lemmas of every word in text, in order."""
    return [token.lemma for token in tokenize(text)]


def content_lemmas(text: str) -> list[str]:
    """Lemmas of text without stopwords: what a claim is about."""
    return [lem for lem in lemmas(text) if lem not in STOPWORDS]
