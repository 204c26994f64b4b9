"""Someone else's words or beliefs about the user: reported, not asserted, so they form nothing.

"My doctor thinks I have ADHD", "My mom always said I was a picky eater", "My wife is convinced I snore",
"I work too much, my roommate says": the clause after the reporting verb has the user as its subject, but
the one asserting it is someone else, and a memory must not turn their opinion into the user's stated fact.
The user reporting themselves stays theirs: "I told my boss I'm quitting" asserts the quitting, and "I
think I ..." is a hedge the caller handles.
"""

import re
from typing import Final

from domain.formation.language import Token

REPORTING: Final = frozenset(
    {
        "say",
        "tell",
        "think",
        "believe",
        "claim",
        "insist",
        "reckon",
        "swear",
        "suspect",
        "convince",
        "assume",
        "feel",
        "worry",
        "joke",
        "complain",
        "mention",
        "argue",
        "figure",
        "guess",
        "suppose",
        "doubt",
    }
)
# Words that may stand between a reporter and its verb: "my mom always said", "she is convinced".
_BETWEEN: Final = frozenset(
    {"always", "often", "sometimes", "still", "also", "even", "never", "apparently", "keeps", "kept", "just"}
    | {"is", "was", "are", "were", "am", "be", "been", "has", "had", "have", "really", "totally", "so"}
)
# "..., my roommate says.", "..., or so my wife thinks": the whole clause is someone else's.
_TRAILING_VERBS: Final = (
    "says", "said", "thinks", "thought", "claims", "claimed", "reckons", "swears", "insists", "tells me", "told me"
)  # fmt: skip
_TRAILING = re.compile(
    r",\s*(?P<reporter>(?:or so\s+|at least\s+)?[\w' ]{1,40}?)\s+(?:"
    + "|".join(_TRAILING_VERBS)
    + r")\s*[.!]*\s*$",
    re.IGNORECASE,
)
_INTRODUCERS: Final = frozenset({"like", "that", "as", "if", "im", "m", "'m"})
_USER = re.compile(r"\b(?:i|as i)\b", re.IGNORECASE)


def reported_by_other(tokens: list[Token], at: int, since: int) -> bool:
    """Whether the user subject at `at` follows a reporting verb (after `since`, the previous subject)
    whose own subject is not the user."""
    for j in range(at - 1, since, -1):
        if tokens[j].lemma not in REPORTING:
            continue
        k = j - 1
        while k > since and tokens[k].lower in _BETWEEN:
            k -= 1
        return not (k >= 0 and tokens[k].lower == "i")
    return False


def reported_clause(body: str) -> bool:
    """Whether the clause ends by naming someone else as the one who says or thinks it."""
    # The ending first: most clauses end otherwise, and the pattern need not scan them.
    if not body.rstrip(" .!\n").lower().endswith(_TRAILING_VERBS):
        return False
    found = _TRAILING.search(body)
    return found is not None and _USER.search(found.group("reporter")) is None


def only_introduces(predicate: list[Token]) -> bool:
    """Whether a predicate between the user and their next clause only introduces it ("I feel like | I
    never have time", "I'm convinced | I have ..."): what follows is the statement, this says nothing."""
    return bool(predicate) and all(
        t.lemma in REPORTING or t.lower in _BETWEEN or t.lower in _INTRODUCERS for t in predicate
    )
