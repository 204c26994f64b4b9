"""Case-insensitive patterns more than one rule reads (a schedule, "not stalled"), each behind a substring test."""

import re


# Most clauses match none of the rules' case-insensitive patterns, and a regex with no literal prefix tries
# every position. A substring test on the folded text rules a pattern out first: every match of a pattern
# contains one of its hint words, and folded maps the only characters that IGNORECASE matches to an ASCII
# letter but str.lower() does not lower to it alone ("İ" and "ı" for i, "ſ" for s), so a hint is never
# missed.
def folded(text: str) -> str:
    if not text.isascii():
        text = text.replace("İ", "i").replace("ı", "i").replace("ſ", "s")
    return text.lower()


def hinted(low: str, hints: tuple[str, ...]) -> bool:
    # A plain loop: this runs for every predicate, and any() over a generator costs several times more.
    for hint in hints:  # noqa: SIM110
        if hint in low:
            return True
    return False


# The lookahead on the letters an alternative can open with lets the regex engine skip every other
# position at once: a pattern opening with \b gets no prefix scan of its own and tries them all.
_FREQUENCY = re.compile(
    r"(?=[\dotfsemidwnru])\b(?:(?:\d+|one|two|three|four|five|six|seven)(?:\s*(?:-|–|to|or)\s*(?:\d+|two|three|four|five|six|seven))?\s*(?:x|times)\s*(?:a|per|each|every|/)\s*(?:day|week|month)"
    r"|(?:once|twice|thrice)\s+(?:a|per|each|every)\s+(?:day|week|month)"
    r"|every\s+(?:other\s+)?(?:day|morning|evening|night|week|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
    r"|each\s+(?:day|morning|evening|week)"
    r"|on\s+(?:the\s+)?(?:other|off|rest|remaining|alternate|non-lifting|in-between)\s+days"
    r"|on\s+(?:weekends|weekdays|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)"
    r"|(?:most|some)\s+(?:days|mornings|evenings|nights|weekends)"
    r"|in\s+the\s+(?:mornings|evenings)"
    r"|daily|weekly|nightly|regularly|usually|often|frequently)\b",
    re.IGNORECASE,
)
_FREQUENCY_HINTS = (
    "day",
    "week",
    "month",
    "morning",
    "evening",
    "night",
    "daily",
    "regularly",
    "usually",
    "often",
    "frequently",
)


def frequency(text: str, start: int, end: int) -> re.Match[str] | None:
    if not hinted(folded(text[start:end]), _FREQUENCY_HINTS):
        return None
    return _FREQUENCY.search(text, start, end)


# The lookahead skips positions no alternative opens at (a leading \b gets no prefix scan): patterns.py.
_NOT_STALLED = re.compile(
    r"(?=n)(?:(?:\bnot|n't|\bnever)\s+(?:\w+\s+)?(?:stalled|plateaued|stuck)\b|\bno\s+(?:plateau|stall))",
    re.IGNORECASE,
)
_NOT_STALLED_HINTS = ("stall", "plateau", "stuck")


def says_not_stalled(clause_text: str) -> bool:
    return hinted(folded(clause_text), _NOT_STALLED_HINTS) and _NOT_STALLED.search(clause_text) is not None
