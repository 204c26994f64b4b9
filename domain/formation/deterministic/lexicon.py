"""The noun lexicon: which lexicographer file a noun's most frequent WordNet sense is in, for the nouns the
former reads a kind of person or a claim kind from.

Princeton WordNet 3.0 (licence: domain/beliefs/wordnet/LICENSE), reduced by tools/lexicon_table.py to
lexicon.json beside this file: every plain noun whose most frequent sense (by tag count) is noun.person,
those of them that name a position held, and the illnesses, pastimes and music genres of noun.state,
noun.act and noun.communication. It replaces guessing a role or a kind from a word's ending or a hand list
with one general vocabulary. Read once per process, on first use.
"""

import functools
import json
from collections.abc import Iterable
from importlib import resources

PERSON = "noun.person"
CONDITION = "noun.state"
PASTIME = "noun.act"
GENRE = "noun.communication"
_OCCUPATIONS = "noun.person.occupation"


@functools.cache
def _loaded() -> tuple[dict[str, str], frozenset[str], frozenset[str]]:
    """lemma -> lexname, the noun.person lemmas, and those of them that name a position held."""
    loaded = json.loads(resources.files(__package__).joinpath("lexicon.json").read_text(encoding="utf-8"))
    occupations = frozenset(loaded.pop(_OCCUPATIONS))
    table = {lemma: lexname for lexname, lemmas in loaded.items() for lemma in lemmas}
    return table, frozenset(loaded[PERSON]), occupations


def persons() -> frozenset[str]:
    """The nouns whose most frequent sense is noun.person, as one set: the role tests run for most clauses
    without "I", where one membership test costs less than a lookup of the lexname."""
    return _loaded()[1]


def names_an_occupation(noun: str) -> bool:
    """Whether a noun.person noun names a position held (a worker, a professional, a leader, a student, a
    businessperson: "locksmith", "surgeon", "sophomore"), not a trait ("introvert") or a bond ("friend")."""
    return noun in _loaded()[2]


def lexnames(nouns: Iterable[str]) -> set[str | None]:
    """The lexicographer files of lower-cased noun lemmas' most frequent senses (None for a noun the lexicon
    does not keep): one table lookup a noun, where the classifier runs for most clauses."""
    table = _loaded()[0]
    return {table.get(noun) for noun in nouns}


@functools.cache
def filed_in(files: frozenset[str]) -> frozenset[str]:
    """The nouns whose most frequent sense is in one of the lexicographer files, as one set: a complement
    none of whose words is in it needs no lookup a word."""
    return frozenset(noun for noun, lexname in _loaded()[0].items() if lexname in files)
