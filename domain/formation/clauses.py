"""Clause splitting: the coverage units a distiller must account for, and the spans a former may cite.

A clause ends at a sentence terminator that is followed by whitespace or the end of the text, at a line
break, at CJK full-width terminators, and at first-person clause boundaries (", and I ...", "; I ...",
" but I ..."). A period never ends a clause after a common abbreviation, so "e.g.", "v2.1.3",
"/usr/lib/python3.11/site.py" and "2.5" stay inside one clause and can be cited.

The splitter is a single left-to-right regex scan plus bounded post-processing: linear in the text, and
a turn with no punctuation at all is cut at whitespace into clauses of at most MAX_CLAUSE_CHARS.
"""

import re
from dataclasses import dataclass

# Well below the evidence-span bound, so any clause can be cited whole.
MAX_CLAUSE_CHARS = 1_000

# Only abbreviations that are not also ordinary sentence-final words ("no", "sun", "max" are left out).
ABBREVIATIONS: frozenset[str] = frozenset(
    [
        "e.g",
        "i.e",
        "etc",
        "vs",
        "cf",
        "ca",
        "approx",
        "mr",
        "mrs",
        "ms",
        "dr",
        "prof",
        "st",
        "jr",
        "sr",
        "inc",
        "ltd",
        "corp",
        "fig",
        "a.m",
        "p.m",
        "u.s",
        "u.k",
        "e.u",
        "dept",
        "mt",
        "ave",
        "jan",
        "feb",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "tue",
        "thu",
        "wk",
        "wks",
        "hr",
        "hrs",
        "yr",
        "yrs",
        "ft",
        "lb",
        "lbs",
        "kg",
        "km",
    ]
)

# One alternation so the whole text is scanned once; the empty named group in each branch says which
# boundary matched (a match's lastgroup). Every boundary starts with one character of the leading class, so
# the regex engine skips ahead to those characters instead of trying each branch at every position; each
# branch then checks that first character with a lookbehind. In order, the branches are: sentence
# terminators followed by whitespace or the end ("term"), CJK terminators ("cjk"), line breaks ("nl"),
# ", and I" / "; I" / " but I" ("fp"), and " and I" ("and").
_BOUNDARY = re.compile(
    r"[.!?…。！？\n,;\s]"
    r"(?:(?<=[.!?…])(?P<term>)[.!?…]*[\"'”’»)\]]*(?=\s|$)"
    r"|(?<=[。！？])(?P<cjk>)[。！？]*[」』”’）]*"
    r"|(?<=\n)(?P<nl>)\n*"
    r"|(?:(?<=,)\s*(?:and|but|so)|(?<=;)|(?<=\s)\s*but)(?P<fp>)\s+(?=I\b)"
    r"|(?<=\s)(?P<and>)\s*and\s+(?=I\b))"
)
_WORD_BEFORE = re.compile(r"[\w.]{1,12}$")
# The lookahead skips positions no alternative opens at (a leading \b gets no prefix scan): patterns.py.
_FIRST_PERSON = re.compile(r"(?=I)\bI\b")
# One character for which str.isalnum() holds: regex word characters are exactly those and "_".
_ALNUM = re.compile(r"[^\W_]")


@dataclass(frozen=True, slots=True)
class Clause:
    """One coverage unit: an exact slice text[start:end] of the event whose seq it names."""

    seq: int
    index: int
    start: int
    end: int
    text: str

    @property
    def id(self) -> str:
        return f"{self.seq}:{self.index}"


def _is_abbreviation(text: str, dot_at: int, line_start: int) -> bool:
    window = text[max(line_start, dot_at - 12) : dot_at]
    match = _WORD_BEFORE.search(window)
    if match is None:
        return False
    word = match.group(0).lower().lstrip(".")
    if word in ABBREVIATIONS:
        return True
    # A single letter is an initial ("J. Smith"); a bare number opening a line is a list marker ("1. ").
    if len(word) == 1 and word.isalpha():
        return True
    return word.isdigit() and _blank(text, line_start, dot_at - len(word))


def _blank(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is all whitespace, read backwards from end so the cost is the blank run
    itself, not everything since the line began (a long line full of periods stays linear)."""
    at = end - 1
    while at >= start:
        if not text[at].isspace():
            return False
        at -= 1
    return True


def _raw_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    start = 0
    line_start = 0
    for match in _BOUNDARY.finditer(text):
        kind = match.lastgroup
        if kind == "nl":
            spans.append((start, match.start()))
            start = match.end()
            line_start = match.end()
        elif kind in ("fp", "and"):
            # A bare " and I" splits only after the clause's own first-person subject, so "my wife and I
            # swim" stays whole while "I lift and I swim" becomes two claims.
            if kind == "and" and _FIRST_PERSON.search(text, start, match.start()) is None:
                continue
            spans.append((start, match.start()))
            start = match.end()
        elif kind == "term":
            terminator = match.group(0)
            single_period = terminator[0] == "." and len(terminator.rstrip("\"'”’»)]")) == 1
            if single_period and _is_abbreviation(text, match.start(), line_start):
                continue
            spans.append((start, match.end()))
            start = match.end()
        else:
            spans.append((start, match.end()))
            start = match.end()
    spans.append((start, len(text)))
    return spans


def _bounded(text: str, start: int, end: int) -> list[tuple[int, int]]:
    pieces: list[tuple[int, int]] = []
    while end - start > MAX_CLAUSE_CHARS:
        limit = start + MAX_CLAUSE_CHARS
        # Cut at the last whitespace inside the window; rfind is bounded by the window, so this stays linear.
        cut = text.rfind(" ", start + MAX_CLAUSE_CHARS // 2, limit)
        if cut <= start:
            cut = limit
        pieces.append((start, cut))
        start = cut
    pieces.append((start, end))
    return pieces


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and (text[start].isspace() or text[start] in "\x00"):
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def split_clauses(seq: int, text: str) -> list[Clause]:
    """Split one event's text into ordered, non-overlapping, non-blank clauses with stable ids."""
    clauses: list[Clause] = []
    for raw_start, raw_end in _raw_spans(text):
        start, end = _trim(text, raw_start, raw_end)
        if start >= end:
            continue
        # A span within the bound is its own single piece, and already trimmed: only the pieces of a longer
        # one are trimmed again.
        pieces = (
            [(start, end)]
            if end - start <= MAX_CLAUSE_CHARS
            else [_trim(text, s, e) for s, e in _bounded(text, start, end)]
        )
        for s, e in pieces:
            if s >= e or _ALNUM.search(text, s, e) is None:
                continue
            clauses.append(Clause(seq=seq, index=len(clauses), start=s, end=e, text=text[s:e]))
    return clauses


def count_coverage_units(text: str) -> int:
    """How many coverage units an event's text holds: what segment planning bounds a segment by."""
    return len(split_clauses(1, text))
