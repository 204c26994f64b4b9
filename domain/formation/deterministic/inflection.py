"""Verb forms rendered from a lemma: the simple past an answer states ("grew up in") and the past participle
a wish is rendered with ("User does not want jargon used.")."""

import re

# Pasts and participles the regular endings get wrong; a verb missing here takes "-ed".
_IRREGULAR_PAST = {
    "grow": "grew",
    "go": "went",
    "meet": "met",
    "get": "got",
    "have": "had",
    "do": "did",
    "make": "made",
    "take": "took",
    "come": "came",
    "begin": "began",
    "buy": "bought",
    "find": "found",
    "leave": "left",
    "teach": "taught",
    "spend": "spent",
}
_IRREGULAR_PARTICIPLE = _IRREGULAR_PAST | {
    "grow": "grown",
    "go": "gone",
    "do": "done",
    "take": "taken",
    "come": "come",
    "begin": "begun",
    "give": "given",
    "show": "shown",
    "write": "written",
    "draw": "drawn",
    "choose": "chosen",
    "speak": "spoken",
    "break": "broken",
    "forget": "forgotten",
    "hide": "hidden",
    "see": "seen",
    "tell": "told",
    "send": "sent",
    "keep": "kept",
    "put": "put",
    "read": "read",
    "set": "set",
    "cut": "cut",
    "say": "said",
    "bring": "brought",
    "hold": "held",
    "feed": "fed",
    "pay": "paid",
}
# Simple pasts the "-ed" ending does not show, as a clause is read: "Moved to Leeds" and "Went back to
# school" open with a past; "..., my youngest started school" and "..., my knee gave out" state one.
IRREGULAR_PASTS = frozenset(
    {"grew", "went", "left", "spent", "taught", "wrote", "ran", "began", "became", "came", "took", "made"}
    | {
        "bought",
        "built",
        "sold",
        "kept",
        "lost",
        "won",
        "met",
        "drove",
        "rode",
        "swam",
        "fell",
        "quit",
        "got",
    }
    | {"brought", "held", "led", "paid", "sat", "slept", "spoke", "stood", "threw", "broke", "chose"}
    | {"gave", "said", "told", "found"}
)
_CONSONANT_Y = re.compile(r"[^aeiou]y$")
# One syllable closed by one consonant after one vowel doubles it: "stop" -> "stopped", "plan" -> "planned".
_DOUBLING = re.compile(r"^[^aeiou]*[aeiou][bdgmnpt]$")


def _regular(lemma: str) -> str:
    if lemma.endswith("e"):
        return lemma + "d"
    if _CONSONANT_Y.search(lemma):
        return lemma[:-1] + "ied"
    if _DOUBLING.match(lemma):
        return lemma + lemma[-1] + "ed"
    return lemma + "ed"


def simple_past(lemma: str) -> str:
    return _IRREGULAR_PAST.get(lemma) or _regular(lemma)


def past_participle(lemma: str) -> str:
    return _IRREGULAR_PARTICIPLE.get(lemma) or _regular(lemma)
