"""Clause-scoped negation: whether a statement denies its claim, and which absences it states as conditions.

A negation inside a subordinate circumstance ("User cycles to work when it is not raining") qualifies the
claim rather than denying it. A fronted circumstance ends at its comma, or, without one, where the main
clause's subject ("User") begins, so "When travelling User does not cook" still denies. A trailing
circumstance runs to its comma or the end. "without X", "X-free" and "free of X" state an absence condition
of the claim ("drinks coffee without sugar"), and "except X" an exception to it: neither is a denial, nor
the same claim as the plain one.

The runtime's equivalence (equivalence.negated) reads any negation word as a denial; distillation-scorer@7
reads negation through this scope, as the reference asks of the comparative scorer.
"""

from domain.formation.equivalence import NEGATIONS, content_tokens
from domain.formation.language import Token, lemma, tokenize

# Words that open a subordinate circumstance. "before", "after" and "since" are left out: they are far
# more often a claim's direction or time ("since 2019") than a clause of their own.
CIRCUMSTANCES = frozenset(
    {"when", "whenever", "if", "unless", "because", "although", "though", "while", "whereas", "until"}
)
ABSENCE_MARKERS = frozenset({"without", "except"})
# "cannot" is written as one word, so no contraction split turns it into "can" + "not".
DENIALS = (NEGATIONS - ABSENCE_MARKERS) | {"cannot"}
_FREE_SUFFIX = "-free"


def _comma_between(text: str, before: Token, after: Token) -> bool:
    return "," in text[before.end : after.start]


def _fronted_end(text: str, tokens: list[Token]) -> int:
    """Where a fronted circumstance ends: its comma, else the main clause's capitalised holder."""
    for index in range(1, len(tokens)):
        if _comma_between(text, tokens[index - 1], tokens[index]):
            return index
        if tokens[index].lemma == "user" and tokens[index].text[:1].isupper():
            return index
    return len(tokens)


def main_clause(statement: str) -> list[Token]:
    """The words of the statement outside its subordinate circumstances, in order."""
    tokens = tokenize(statement)
    start = _fronted_end(statement, tokens) if tokens and tokens[0].lower in CIRCUMSTANCES else 0
    kept: list[Token] = []
    inside = False
    for index in range(start, len(tokens)):
        token = tokens[index]
        if inside and _comma_between(statement, tokens[index - 1], token):
            inside = False
        if token.lower in CIRCUMSTANCES:
            inside = True
        if not inside:
            kept.append(token)
    return kept


def denies(statement: str) -> bool:
    """Whether the main clause is negated ("not", "never", "no longer"); an absence condition is not."""
    return any(t.lower in DENIALS or t.lemma in DENIALS for t in main_clause(statement))


def absence_conditions(statement: str) -> frozenset[str]:
    """Lemmas of what the statement says is absent: "without sugar", "gluten-free", "free of nuts"."""
    tokens = tokenize(statement)
    content_starts = {t.start for t in content_tokens(statement)}
    absent: set[str] = set()
    for index, token in enumerate(tokens):
        if token.lower.endswith(_FREE_SUFFIX) and len(token.lower) > len(_FREE_SUFFIX):
            absent.add(lemma(token.lower[: -len(_FREE_SUFFIX)]))
            continue
        opens = token.lower in ABSENCE_MARKERS or (
            token.lower == "free" and index + 1 < len(tokens) and tokens[index + 1].lower == "of"
        )
        if opens:
            following = next((t for t in tokens[index + 1 :] if t.start in content_starts), None)
            if following is not None:
                absent.add(following.lemma)
    return frozenset(absent)
