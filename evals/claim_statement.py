"""When a belief's statement states a gold claim: the statement rule of distillation-scorer@7.

Equal after normalization, or: the same polarity (negation scoped to the main clause), the same absence
conditions, the same counts, the same large numbers when both carry one, no reversed direction and the same
object after every directional marker both share, the shared terms in one order, no one-for-one swap of a
word (a sibling activity or another object), and either every content lemma of the gold or three quarters
of the combined lemmas with at most one added.

Built on the runtime's tokens, lemmas, content words, counts and directions (domain.formation); only the last
condition is more lenient than the runtime's same_claim, which keeps the stricter rule because merging is
irreversible. Every condition that keeps a different claim out compares the two statements alike, so it
rejects a pair in both directions (gate.memory.scorer_symmetric).
"""

from typing import Final

from domain.formation.equivalence import (
    DIRECTIONS,
    MOST_SHARED,
    content_tokens,
    numbers,
    shared_in_order,
)
from domain.formation.language import STOPWORDS, as_verb, lemma, tokenize
from domain.formation.negation import absence_conditions, denies
from evals.reasons import Reason

# Numbers from here up are amounts, years and sizes: compared only when both statements carry one.
LARGE_NUMBER: Final = 1_000
# A marker on one side and its opposite on the other reverse the claim ("more"/"less", "from"/"into").
_OPPOSITE_PAIRS: Final = (
    ("more", "less"),
    ("more", "fewer"),
    ("before", "after"),
    ("above", "below"),
    ("over", "under"),
    ("up", "down"),
    ("higher", "lower"),
    ("increase", "decrease"),
    ("from", "into"),
)
ORIGINS: Final = frozenset({"from", "into"})
# Verbs whose object is the activity itself: "plays tennis", "practises yoga".
ACTIVITY_VERBS: Final = frozenset({"play", "practice", "practise"})
# Words a marker's object may follow without ending it: "more than their brother" has no object.
_DETERMINERS: Final = frozenset({"a", "an", "the", "their", "his", "her", "its", "our", "my", "your"})


def normalized(statement: str) -> str:
    """The statement's words, lower-cased, without punctuation or spacing differences."""
    return " ".join(t.lower for t in tokenize(statement))


def claim_terms(statement: str) -> list[str]:
    """The runtime's content lemmas as the scorer compares them: gerunds read as verbs, hyphenated compounds
    as their words, without the possessive marker or the "go" of "goes swimming"."""
    tokens = content_tokens(statement)
    found: list[str] = []
    for index, token in enumerate(tokens):
        if not token.lemma[:1].isalnum():
            continue
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if token.lemma == "go" and following is not None and following.lower.endswith("ing"):
            continue
        if "-" in token.lower:
            found.extend(as_verb(lemma(part)) for part in token.lower.split("-") if part not in STOPWORDS)
        else:
            found.append(as_verb(token.lemma))
    return found


def _values(statement: str) -> list[float]:
    return [float(number.replace(",", "")) for number in numbers(statement)]


def counts(statement: str) -> frozenset[float]:
    """Small numbers: how often, how many, how far ("twice a week", "5 km")."""
    return frozenset(v for v in _values(statement) if v < LARGE_NUMBER)


def large_numbers(statement: str) -> frozenset[float]:
    return frozenset(v for v in _values(statement) if v >= LARGE_NUMBER)


def marker_objects(statement: str) -> dict[str, tuple[str | None, ...]]:
    """Each directional marker with the lemma it governs, in order ("from Berlin" -> berlin); None where
    the marker ends its phrase ("sleeps more", "more than their brother")."""
    tokens = tokenize(statement)
    found: dict[str, list[str | None]] = {}
    for index, token in enumerate(tokens):
        if token.lower not in DIRECTIONS:
            continue
        governed: str | None = None
        for after in tokens[index + 1 :]:
            if "," in statement[token.end : after.start] or after.lower in DIRECTIONS:
                break
            if after.lower in _DETERMINERS:
                continue
            if after.lower not in STOPWORDS:
                governed = as_verb(after.lemma)
            break
        found.setdefault(token.lower, []).append(governed)
    return {marker: tuple(objects) for marker, objects in found.items()}


def _reversed(gold: str, belief: str) -> Reason | None:
    gold_markers, belief_markers = marker_objects(gold), marker_objects(belief)
    only_gold, only_belief = gold_markers.keys() - belief_markers, belief_markers.keys() - gold_markers
    for one, other in _OPPOSITE_PAIRS:
        if (one in only_gold and other in only_belief) or (other in only_gold and one in only_belief):
            return Reason.ORIGIN_REVERSED if one in ORIGINS else Reason.COMPARISON_REVERSED
    for marker in gold_markers.keys() & belief_markers.keys():
        pairs = zip(gold_markers[marker], belief_markers[marker], strict=False)
        if any(g is not None and b is not None and g != b for g, b in pairs):
            return Reason.ORIGIN_REVERSED if marker in ORIGINS else Reason.COMPARISON_REVERSED
    return None


def _swapped_word(gold: list[str], belief: list[str], possessive_holder: bool) -> Reason | None:
    """A one-for-one swap: one word each side, in the same place among the shared ones."""
    only_gold = [t for t in gold if t not in belief]
    only_belief = [t for t in belief if t not in gold]
    if len(only_gold) != 1 or len(only_belief) != 1:
        return None
    slot = gold.index(only_gold[0])
    if slot != belief.index(only_belief[0]):
        return None
    # The first word of "User swims ..." is the activity; after "plays" or "practises" the next one is.
    if (slot == 0 and not possessive_holder) or (slot > 0 and gold[slot - 1] in ACTIVITY_VERBS):
        return Reason.SIBLING_ACTIVITY
    return Reason.OBJECT_DIFFERS


def _possessive_holder(statement: str) -> bool:
    tokens = tokenize(statement)
    return len(tokens) > 1 and tokens[0].lemma == "user" and tokens[1].lower == "'s"


def statement_reason(gold: str, belief: str) -> Reason:
    """Reason.MATCH when the belief's statement states the gold statement's claim, else the first rule it
    breaks."""
    if normalized(gold) == normalized(belief):
        return Reason.MATCH
    if denies(gold) != denies(belief):
        return Reason.NEGATION_DIFFERS
    if absence_conditions(gold) != absence_conditions(belief):
        return Reason.ABSENCE_CONDITION_DIFFERS
    if counts(gold) != counts(belief):
        return Reason.COUNT_DIFFERS
    gold_large, belief_large = large_numbers(gold), large_numbers(belief)
    if gold_large and belief_large and gold_large != belief_large:
        return Reason.LARGE_NUMBER_DIFFERS
    reversal = _reversed(gold, belief)
    if reversal is not None:
        return reversal
    gold_terms, belief_terms = (
        list(dict.fromkeys(claim_terms(gold))),
        list(dict.fromkeys(claim_terms(belief))),
    )
    gold_set, belief_set = set(gold_terms), set(belief_terms)
    if not shared_in_order(gold_set & belief_set, gold_terms, belief_terms):
        return Reason.ARGUMENTS_SWAPPED
    swap = _swapped_word(gold_terms, belief_terms, _possessive_holder(gold) and _possessive_holder(belief))
    if swap is not None:
        return swap
    if gold_set <= belief_set:
        return Reason.MATCH
    shared, added = gold_set & belief_set, belief_set - gold_set
    if len(shared) >= MOST_SHARED * len(gold_set | belief_set) and len(added) <= 1:
        return Reason.MATCH
    return Reason.STATEMENT_DIFFERS
