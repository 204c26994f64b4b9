"""WordNet relatives of a query word: the general vocabulary a hand-kept word family does not hold.

Princeton WordNet 3.0 (LICENSE beside this file), reduced by tools/wordnet_table.py to relations.json: for
each plain one-word lemma and part of speech, the one-word lemmas its frequent senses relate it to (the same
synset, its derived forms, a noun's hyponyms to depth 2). A word is looked up as WordNet's own morphology
reads it for each part of speech (the word itself, an irregular inflection from the exception lists, else a
regular ending taken off), and its relatives are the union over the parts of speech ("phone" the noun:
"telephone", "handset"; the verb: "call", "ring"). The table is read once per process, on first use
(about 0.1 s).
"""

import functools
import json
from importlib import resources
from typing import Final

_PARTS: Final = ("n", "v", "a", "r")
# WordNet's detachment rules (morphy): a regular ending and what replaces it, per part of speech.
_ENDINGS: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "n": (
        ("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
        ("ies", "y"),
    ),
    "v": (
        ("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", ""),
    ),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}  # fmt: skip


@functools.cache
def _table() -> tuple[dict[str, dict[str, list[str]]], dict[str, dict[str, str]]]:
    """Per part of speech, each lemma's relatives, and each irregular form's lemma."""
    text = resources.files(__package__).joinpath("relations.json").read_text(encoding="utf-8")
    loaded = json.loads(text)
    return {part: loaded[part] for part in _PARTS}, {part: loaded[f"{part}.exc"] for part in _PARTS}


def _base(word: str, part: str) -> str | None:
    """The lemma WordNet reads word as in this part of speech, if the table relates it to anything."""
    related, irregular = _table()[0][part], _table()[1][part]
    if word in related:
        return word
    if word in irregular:
        return irregular[word]
    for ending, replacement in _ENDINGS[part]:
        if word.endswith(ending) and (base := word[: len(word) - len(ending)] + replacement) in related:
            return base
    return None


@functools.lru_cache(maxsize=16_384)
def relatives(word: str) -> tuple[str, ...]:
    """The word's WordNet relatives over every part of speech (its lemmas among them: "went" finds "go"),
    without the word itself, in order."""
    bases = {part: base for part in _PARTS if (base := _base(word, part)) is not None}
    found = set(bases.values()).union(*(_table()[0][part][base] for part, base in bases.items()))
    return tuple(sorted(found - {word}))


@functools.lru_cache(maxsize=16_384)
def only_a_verb(word: str) -> bool:
    """Whether WordNet reads the word as a verb and as no noun or adjective ("got", "closes"; not "run")."""
    return _base(word, "v") is not None and _base(word, "n") is None and _base(word, "a") is None


@functools.lru_cache(maxsize=16_384)
def only_a_noun(word: str) -> bool:
    """Whether WordNet reads the word as a noun and as no verb or adjective ("recipe"; not "nurse", "vegan")."""
    return _base(word, "n") is not None and _base(word, "v") is None and _base(word, "a") is None
