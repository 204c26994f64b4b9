"""The group a "we" stands for: the band, club or team the user named in the same turn before it.

"we" is read as the user when it is the user and their household ("We moved to Austin in 2018": the user
did). When the turn has named a group the user is part of before the "we" ("I've joined a book club, we meet
once a month", "band stuff is going good, we added a keys player", "I manage a team of eight, we're migrating
our backend to Go"), what "we" do or are is the group's, and the claim is held by it ("User's book club meets
once a month.") rather than read as the user's own ("User meets once a month.", "User is basically a team.").
"""

import re
from typing import Final

# Groups a person belongs to and speaks for as "we"; a household ("family", "house") is the user's own "we".
_GROUPS: Final = (
    "band|club|team|crew|choir|league|squad|troupe|orchestra|ensemble|cohort|committee|startup|lab|church"
    "|congregation|chorus|quartet"
)
# The last group noun before the "we", with the words naming it after a determiner ("a book club"); a group
# after a possessive "'s" is someone else's.
_GROUP: Final = re.compile(
    rf"\b(?:(?:a|an|the|my|our)\s+((?:[a-z][a-z-]*\s+){{0,3}}))?({_GROUPS})s?\b(?!['’]s)",
    re.IGNORECASE,
)
_OTHERS: Final = re.compile(r"['’]s(?:\s+[a-z-]+){0,3}\s+$", re.IGNORECASE)
# "he plays on a travel team so every weekend we're at some rink": a group someone else is in, said in a
# clause another person holds, is theirs; the "we" after it stays the user's.
_HELD_BY_OTHER: Final = re.compile(r"\b(?:he|she|they|he's|she's|they're|his|her|their)\b", re.IGNORECASE)
_CLAUSE_OPENS: Final = re.compile(r"[.!?;,]")
# The group a turn names is read only this far back from the "we": a sentence or two.
_REACH: Final = 160


def group_of(text: str, at: int) -> str | None:
    """The group the "we" at position at of the turn stands for ("book club"), or None when the words
    before it in the turn name none."""
    start = max(0, at - _REACH)
    found = None
    for match in _GROUP.finditer(text, start, at):
        found = match
    # "my son's soccer team": someone else's group.
    if found is None or _OTHERS.search(text, start, found.start(2)) is not None:
        return None
    opened = max((m.end() for m in _CLAUSE_OPENS.finditer(text, start, found.start())), default=start)
    if _HELD_BY_OTHER.search(text, opened, found.start()) is not None:
        return None
    return " ".join(
        [*found.group(1).lower().split(), found.group(2).lower()]
        if found.group(1)
        else [found.group(2).lower()]
    )
