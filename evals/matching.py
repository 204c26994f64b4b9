"""What an arm formed in a case, and whether it matches a gold expectation under distillation-scorer@7.

A formed claim carries its closed fields when its policy can express them (formation@9) and is then scored
strictly (evals.scorer.score); the frozen controls formation@7 and formation@8 cannot, and are scored on
the statement alone. A correction forms a retraction, never a belief: a retraction expectation matches a
retraction on the same closed fields and statement, an assertion expectation never matches one.
"""

from dataclasses import dataclass
from uuid import UUID

from domain.candidates import Polarity
from evals.corpus import Expectation
from evals.scorer import FormedBelief, GoldExpectation, score, statement_result

Source = tuple[UUID, int]


@dataclass(frozen=True)
class FormedClaim:
    statement: str
    sources: frozenset[Source]
    spans: tuple[str, ...]
    # None for a statement-only control.
    closed: FormedBelief | None
    boundary_failure: bool = False

    @property
    def retracts(self) -> bool:
        return self.closed is not None and self.closed.polarity is Polarity.RETRACT


def gold_of(expectation: Expectation) -> GoldExpectation:
    return GoldExpectation(
        claim_kind=expectation.claim_kind,
        derivation=expectation.derivation,
        longevity=expectation.longevity,
        subject=expectation.subject,
        statements=expectation.statements,
        compatible_kinds=expectation.compatible_kinds,
    )


def matches(expectation: Expectation, claim: FormedClaim) -> bool:
    gold = gold_of(expectation)
    if claim.closed is None:
        return statement_result(gold, claim.statement).match
    if claim.retracts != (expectation.polarity is Polarity.RETRACT):
        return False
    # The scorer judges assertions; a retraction is compared as the claim it states.
    return score(gold, claim.closed.model_copy(update={"polarity": Polarity.ASSERT})).match
