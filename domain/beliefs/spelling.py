"""Spelling for recall with a query: the known English words one edit away from a query word that is not one.

People type questions fast ("my alergies", "when is my brithday") and a belief holds the word spelt right;
full-text search matches words, not near-misses. A word that is neither in simplemma's bundled English
dictionary (domain.formation.language.english_words) nor in a word family is read as a possible typo, and
every string one edit away from it (a letter deleted, two neighbours swapped, one replaced or one inserted:
Norvig's edits1) that is a known word is searched with it. The word itself is kept and searched first, so a
correct rare word the dictionary lacks (a brand, a town, a colleague's name) still finds itself. There are
no word frequencies to prefer one correction to another, so every known one is kept; a belief holding any of
them holds the query's term once, as with a word family.

Bounded: only words of plain ASCII letters, MIN_CORRECTED_CHARS to MAX_CORRECTED_CHARS long, are corrected
(a shorter one has dozens of known neighbours, most of them wrong; a longer one is rarely an English word),
so one word costs at most 54 * MAX_CORRECTED_CHARS + 25 candidate strings and set lookups, and a query
MAX_QUERY_TERMS times that. Nothing is downloaded: the dictionary ships in simplemma's wheel.
"""

from functools import lru_cache
from string import ascii_lowercase
from typing import Final

from domain.beliefs.word_families import is_family_word
from domain.formation.language import english_words

MIN_CORRECTED_CHARS: Final = 4
MAX_CORRECTED_CHARS: Final = 20


# recall asks twice for a query's misspelt words (for its idioms, then for its terms)
@lru_cache(maxsize=4096)
def corrections(word: str) -> tuple[str, ...]:
    """The known words one edit away from a lower-cased word that is not itself known, in alphabetical
    order; nothing for a known word, a word outside the corrected lengths, or one with other characters."""
    if not (MIN_CORRECTED_CHARS <= len(word) <= MAX_CORRECTED_CHARS and word.isascii() and word.isalpha()):
        return ()
    known = english_words()
    if word in known or is_family_word(word):
        return ()
    return tuple(sorted(_edits(word) & known))


def _edits(word: str) -> set[str]:
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deletes = (left + right[1:] for left, right in splits if right)
    transposes = (left + right[1] + right[0] + right[2:] for left, right in splits if len(right) > 1)
    replaces = (left + c + right[1:] for left, right in splits if right for c in ascii_lowercase)
    inserts = (left + c + right for left, right in splits for c in ascii_lowercase)
    return {*deletes, *transposes, *replaces, *inserts}
