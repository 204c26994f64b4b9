"""Word families for recall with a query: the other words a statement may use for what a question asks.

People ask in their own words ("my mum", "who's my boss", "which herb do I hate") and beliefs are stated in
the words they were said or formed with ("User's mother", "User's manager", "User dislikes coriander"): a
search by the question's words alone misses them. Each query word is searched together with its family, and
a family counts once toward a belief's coverage, however many of its words the belief holds.

SYNONYMS are groups of words that name the same thing (spelling variants included); each word of a group
brings the whole group. BROADER maps a word to the narrower words it covers ("kid" finds a son or a
daughter) and works one way only: asking about a daughter does not find a son. The lists are kept by hand,
small and general (everyday words for people, home, work, health, food and plans), keyed by lemma; no
model, no download, and both stores expand a query the same way because the expansion happens here, before
the store is asked.
"""

from typing import Final

from domain.formation.language import lemma

SYNONYMS: Final[tuple[frozenset[str], ...]] = tuple(
    frozenset(group.split())
    for group in (
        # people (the deterministic former's relatives and positions)
        "mother mum mom mummy mommy mama",
        "father dad daddy papa",
        "grandmother grandma granny",
        "grandfather grandpa granddad grandad",
        "child kid",
        "wife husband spouse",
        "doctor physician",
        # preferences (the former's interest and dislike verbs)
        "like love enjoy adore",
        "dislike hate detest loathe despise",
        "prefer preference rather",
        # work, health, things
        "job occupation profession career",
        "employer company firm",
        "remote remotely",
        "medication medicine meds pill prescription",
        "allergy allergic",
        "apartment flat",
        "car vehicle",
        "phone smartphone",
        "laptop computer",
        "photo photograph photography camera",
        "film movie",
        "app application software",
        "wedding marry married",
        "trip travel",
        # British and American spellings and words
        "neighbour neighbor",
        "favourite favorite",
        "colour color",
        "centre center",
        "theatre theater",
        "programme program",
        "grey gray",
        "holiday vacation",
        "football soccer",
    )
)

BROADER: Final[dict[str, frozenset[str]]] = {
    word: frozenset(narrower.split())
    for word, narrower in (
        ("child", "son daughter"),
        ("kid", "son daughter"),
        ("parent", "mother father mum dad"),
        ("sibling", "brother sister"),
        ("partner", "wife husband spouse girlfriend boyfriend"),
        ("pet", "dog cat puppy kitten rabbit hamster"),
    )
}

_FAMILY_OF: Final[dict[str, frozenset[str]]] = {word: group for group in SYNONYMS for word in group}
_VOCABULARY: Final[frozenset[str]] = frozenset(_FAMILY_OF).union(BROADER, *BROADER.values())


def is_family_word(word: str) -> bool:
    """Whether a word belongs to any family, as a synonym, a broader or a narrower word."""
    return word in _VOCABULARY


def family(word: str) -> tuple[str, ...]:
    """The word first, then the rest of its family (its synonyms, and the narrower words it covers), each
    once, in a fixed order."""
    base = lemma(word)
    related = _FAMILY_OF.get(base, frozenset()) | _FAMILY_OF.get(word, frozenset())
    narrower = BROADER.get(base, frozenset()) | BROADER.get(word, frozenset())
    return tuple(dict.fromkeys((word, *sorted((related | narrower) - {word}))))
