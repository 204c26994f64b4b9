"""A trailing "with" phrase that counts or denies is a claim of its own.

"I'm a stay-at-home dad with three kids under six" states two things: the role and the three kids; "I live
in a tiny studio in Brooklyn with no oven" the home and the missing oven. Kept inside the first claim, the
count or the absence makes that claim about something else (a dad of three, a home without an oven), so the
phrase is cut off the claim that carries it and forms "User has three kids under six." / "User has no
oven." beside it. Only after a verb of being, having or setting up is the phrase the user's possession;
after an action it says who came along ("I started a company with two friends") and stays where it is, as
does a "with" that opens the complement ("I live with two roommates"), which is the claim itself.
"""

import re
from dataclasses import replace

from domain.candidates import Derivation, Polarity
from domain.formation.deterministic.claims import Claim
from domain.formation.deterministic.clause_first import NAMESPACES
from domain.formation.deterministic.kinds import classify
from domain.formation.equivalence import NUMBER_WORDS
from domain.formation.language import STOPWORDS, tokenize
from domain.formation.rendering import Aspect, Predicate, conflict_key

_HOLDING = frozenset({"be", "have", "own", "rent", "live", "run", "set", "build", "keep"})
_WITH_COUNT = re.compile(
    r"\s+with\s+(?P<what>(?:no|\d+|"
    + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
    + r")\s[^,;:!?.]+)",
    re.IGNORECASE,
)


def _possession(what: str, claim: Claim) -> Claim:
    words = [t.lemma for t in tokenize(what) if t.lemma not in STOPWORDS]
    kind, longevity = classify("have", Aspect.SIMPLE, frozenset(words))
    predicate = Predicate("have", "has", Aspect.BARE, what)
    subject = conflict_key(NAMESPACES[kind], ["have", *words])
    return Claim(kind, Derivation.DIRECT, longevity, Polarity.ASSERT, subject, predicate, claim.holder)


def attachment_claims(claims: list[Claim]) -> list[Claim]:
    """The claims with each counted or denied "with" phrase cut off and stated on its own."""
    split: list[Claim] = []
    for claim in claims:
        predicate = claim.predicate
        field = "complement" if predicate.complement else "surface"
        value: str = getattr(predicate, field)
        # The pattern runs last: most claims fail a cheaper test first.
        match = (
            _WITH_COUNT.search(value)
            if claim.holder == "User"
            and predicate.verb in _HOLDING
            and claim.derivation is Derivation.DIRECT
            and claim.polarity is Polarity.ASSERT
            else None
        )
        if match is None or not value[: match.start()].strip():
            split.append(claim)
            continue
        head = value[: match.start()]
        kept = (
            replace(predicate, complement=head) if predicate.complement else replace(predicate, surface=head)
        )
        split.append(replace(claim, predicate=kept))
        split.append(_possession(match["what"].strip(), claim))
    return split
