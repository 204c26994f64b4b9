"""ClaimMatcher screens pairs on content lemmas before same_claim: it must answer exactly as same_claim."""

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.formation.equivalence import same_claim
from domain.formation.merging import ClaimMatcher

WORDS = [
    "runs", "running", "swims", "builds", "building", "an", "agent", "robot", "outdoors", "every", "day",
    "not", "never", "two", "three", "3", "BMW", "Berlin", "in", "with", "friends", "likely", "often",
    "morning", "mornings", "journal", "reads", "books",
]  # fmt: skip
STATEMENTS = st.lists(st.sampled_from(WORDS), min_size=0, max_size=7).map(
    lambda words: " ".join(["User", *words]) + "."
)


@settings(max_examples=400, deadline=None)
@given(a=STATEMENTS, b=STATEMENTS)
def test_claim_matcher_answers_as_same_claim(a: str, b: str) -> None:
    matcher = ClaimMatcher()
    assert matcher.same(a, b) == same_claim(a, b)
    assert matcher.same(b, a) == same_claim(b, a)


def test_claim_matcher_finds_nested_and_mostly_shared_claims() -> None:
    matcher = ClaimMatcher()
    assert matcher.same("User is building an agent.", "User is building an agent in Berlin.")
    assert not matcher.same("User is building an agent.", "User is not building an agent.")
    assert not matcher.same("User runs outdoors.", "User swims in Berlin.")
