"""When two statements state one claim: the runtime's strict equivalence over lemmas.

Used to merge candidates within a batch, to match a candidate to the live belief it reinforces, to verify
that a represented clause is what a cited memory asserts, and to find what a retraction ends."""

import re

from domain.formation.language import STOPWORDS, Token, tokenize

NEGATIONS = frozenset({"not", "no", "never", "longer", "anymore", "nor", "without"})
QUALIFIERS = frozenset(
    {"user", "currently", "likely", "may", "tentatively", "probably", "perhaps", "now", "still", "really"}
)
AUXILIARIES = frozenset({"be", "have", "do", "will", "would", "can", "could", "should", "shall", "must"})
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
# Counts spelled as words are counts: "twice a week" and "2 times a week" agree, "once" and "twice" do not.
NUMBER_WORDS = {
    "once": "1",
    "one": "1",
    "twice": "2",
    "two": "2",
    "thrice": "3",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "dozen": "12",
    "hundred": "100",
}
# Markers that set a claim's direction; "from Berlin" and "to Berlin" share every content term.
DIRECTIONS = frozenset(
    {
        "from",
        "into",
        "more",
        "less",
        "fewer",
        "before",
        "after",
        "above",
        "below",
        "over",
        "under",
        "up",
        "down",
        "higher",
        "lower",
        "increase",
        "decrease",
    }
)
MOST_SHARED = 0.75
# What is not content, and what main_verb looks past: built once, not once per token.
_NOT_CONTENT = STOPWORDS | QUALIFIERS | NEGATIONS
_NOT_MAIN_VERB = (
    AUXILIARIES | NEGATIONS | QUALIFIERS | {"regularly", "usually", "often", "sometimes", "always"}
)


def content_tokens(statement: str) -> list[Token]:
    """The words a claim is about, in order: no negation, qualifiers or stopwords."""
    return [t for t in tokenize(statement) if t.lemma not in _NOT_CONTENT and t.lower not in _NOT_CONTENT]


def terms(statement: str) -> list[str]:
    """Content lemmas in order, without negation, qualifiers or stopwords."""
    return [t.lemma for t in content_tokens(statement)]


def negated(statement: str) -> bool:
    return any(t.lemma in NEGATIONS or t.lower in NEGATIONS for t in tokenize(statement))


def numbers(statement: str) -> frozenset[str]:
    spelled = {NUMBER_WORDS[t.lower] for t in tokenize(statement) if t.lower in NUMBER_WORDS}
    return frozenset(_NUMBER.findall(statement)) | spelled


def directions(statement: str) -> frozenset[str]:
    return frozenset(t.lower for t in tokenize(statement) if t.lower in DIRECTIONS)


def compatible(a: str, b: str) -> bool:
    """Same polarity and the same counts and numbers."""
    return negated(a) == negated(b) and numbers(a) == numbers(b)


def shared_in_order(shared: set[str], a: list[str], b: list[str]) -> bool:
    """Whether the shared terms come in one order in a and b (first occurrences)."""
    return [t for t in dict.fromkeys(a) if t in shared] == [t for t in dict.fromkeys(b) if t in shared]


def same_claim(a: str, b: str) -> bool:
    """Compatible, shared terms in one order, and either nested or sharing most of the smaller one."""
    if not compatible(a, b):
        return False
    ta, tb = terms(a), terms(b)
    sa, sb = set(ta), set(tb)
    if not sa or not sb:
        return sa == sb
    shared = sa & sb
    if not shared_in_order(shared, ta, tb):
        return False
    nested = sa <= sb or sb <= sa
    return nested or len(shared) >= MOST_SHARED * min(len(sa), len(sb))


def main_verb(statement: str) -> str | None:
    """The first verb after the holder, looking through auxiliaries and 'go <verb>ing'."""
    tokens = [t for t in tokenize(statement) if t.lemma != "user"]
    for position, token in enumerate(tokens):
        if token.lemma in _NOT_MAIN_VERB or token.lower in _NOT_MAIN_VERB:
            continue
        following = tokens[position + 1] if position + 1 < len(tokens) else None
        if token.lemma == "go" and following is not None and following.lower.endswith("ing"):
            return following.lemma
        return token.lemma
    return None


def retraction_ends(retraction: str, belief_statement: str) -> bool:
    """A retraction ends an affirmative belief with the same main verb whose content holds what it negates."""
    if negated(belief_statement):
        return False
    verb = main_verb(retraction)
    if verb is None or verb != main_verb(belief_statement):
        return False
    return set(terms(retraction)) <= set(terms(belief_statement))


def represents(memory_statement: str, clause: str) -> bool:
    """A live memory represents a clause when the clause states what the memory asserts: the same
    polarity, counts, numbers and direction, and most of the memory's terms in the clause, in order."""
    if not compatible(memory_statement, clause) or directions(memory_statement) != directions(clause):
        return False
    tm, tc = terms(memory_statement), terms(clause)
    sm, sc = set(tm), set(tc)
    if not sm:
        return False
    shared = sm & sc
    return shared_in_order(shared, tm, tc) and len(shared) >= MOST_SHARED * len(sm)


def match_keys(statement: str) -> tuple[str | None, tuple[str, ...]]:
    """The indexed lookup keys of a statement: its main verb and its distinct content lemmas.

    Stores keep these beside each belief so a commit finds the few beliefs a candidate could match or a
    retraction could end without reading the principal's whole memory."""
    return main_verb(statement), tuple(dict.fromkeys(terms(statement)))
