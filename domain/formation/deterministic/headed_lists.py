"""Lists under a header: "Stuff I can't eat: gluten, dairy, anything with sesame", "Equipment I have: a
kettlebell, a pull up bar", "Things about me: - 29 - software dev - live in Berlin".

People type a list after a label ending in a colon, its items cut by commas, dashes or numbers. The header
lends each item its predicate as the agent's question lends an answer its own: a header that is a noun
followed by what the user does with it ("Stuff I can't eat") reads each item as that clause's object ("I
can't eat dairy."), and a header naming the user ("Things about me:") has its dashed or numbered items read as
the comma list they stand for, so a self-description keeps its own rules. Any other header may list what is
not so ("My goals this year: 1) run a half marathon") and lends nothing. The former reads the sentences returned here through the same rules
as any clause, so an item they would not form from the user's own words forms nothing.
"""

import re

# "Stuff I can't eat:", "Equipment I have:", "Things I'm allergic to:": a noun phrase, then the user's own
# verb phrase, before the colon.
_RELATIVE_HEADER = re.compile(
    r"^(?:[A-Za-z]+ ){0,3}?[A-Za-z]+ (?P<vp>(?:I|i)(?:'m|'ve|m)? [^:,.!?]{1,40}?)\s*:\s*(?P<items>.+)$",
    re.DOTALL,
)
# A header that names the user: its items describe the user as a comma list would. Any other ("My goals
# this year:", "Shopping list:") may list what is not so ("1) run a half marathon" is no habit).
_SELF_HEADER = re.compile(
    r"^(?:[a-z ]*\babout me|me|my (?:bio|profile)|(?:quick |some )?facts)\s*:\s*(?P<items>.+)$",
    re.IGNORECASE | re.DOTALL,
)
# What cuts one item from the next: a comma or semicolon, a dash between spaces, or a number marking it.
_ITEM_BREAK = re.compile(r"\s*[,;]\s*|\s+-\s+|^-\s*|\s*\b\d{1,2}[.)]\s+")
# Dashes or numbers, which the other rules do not read as breaks.
_MARKED_BREAK = re.compile(r"\s+-\s+|^-\s*|\b\d{1,2}[.)]\s+")
_ITEM_OPENERS = re.compile(r"^(?:and|or)\s+", re.IGNORECASE)
_MIN_ITEMS = 2
# A verb phrase the item cannot be the object of: "Things I want to do: ..." names activities, not objects.
# Nor one that needs a preposition before a place ("Places I've lived: Leeds, ...").
_OPEN_ENDED = re.compile(
    r"\b(?:do|to|like|about|is|are|was|were|live|lived|been|work|worked|grew up|go|went|moved|stayed)$",
    re.IGNORECASE,
)


# "Places I've lived: Leeds, Cardiff": a header naming places with a verb that takes its place after a
# preposition lends the preposition too ("I've lived in Leeds."), also to one item alone.
_PLACES = re.compile(r"^(?:places|cities|countries|towns|states)\b", re.IGNORECASE)
_PLACED_VERB = re.compile(r"\b(?:(?P<been>been)|live|lived|work|worked|stayed|grew up|moved)$", re.IGNORECASE)


def _items(listed: str) -> list[str]:
    """The list's items, each without its break, its closing stop or a joining "and"."""
    items = [_ITEM_OPENERS.sub("", part.strip().rstrip(".!")) for part in _ITEM_BREAK.split(listed.strip())]
    return [item for item in items if item]


def headed_sentences(clause_text: str) -> list[str] | None:
    """The first-person sentences a headed list stands for, or None when the clause is no headed list."""
    body = clause_text.strip()
    if ":" not in body[:48] or body.endswith("?"):
        return None
    relative = _RELATIVE_HEADER.match(body)
    placed = _PLACED_VERB.search(relative["vp"]) if relative is not None and _PLACES.match(body) else None
    if relative is not None and placed is not None:
        preposition = "to" if placed["been"] else "in"
        return [f"{relative['vp']} {preposition} {item}." for item in _items(relative["items"])] or None
    if relative is not None and _OPEN_ENDED.search(relative["vp"]) is None:
        items = _items(relative["items"])
        if len(items) < _MIN_ITEMS:
            return None
        vp = relative["vp"]
        return [f"{vp} {item}." for item in items]
    header = _SELF_HEADER.match(body)
    if header is None or _MARKED_BREAK.search(header["items"]) is None:
        return None
    items = _items(header["items"])
    return [f"{', '.join(items)}."] if len(items) >= _MIN_ITEMS else None
