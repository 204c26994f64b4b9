"""distillation-scorer@7: whether a formed belief matches a gold claim, and why not.

A belief matches when its derivation agrees; its kind is the gold kind with the gold longevity, or a
compatible kind with a longevity local policy gives that kind; its subject names the gold conflict key
(evals.subject_names); it asserts; and its statement states one of the gold statement alternatives
(evals.claim_statement). The frozen controls formation@7 and formation@8 cannot express the closed fields,
so they are scored on the statement alone (statement_result; score_statement for a formed belief).

Local policy assigns longevity by derivation, not by kind: a hypothesis is tentative whatever was proposed,
and a direct claim keeps the ongoing or durable longevity its former gave it (domain.candidates'
ALLOWED_LONGEVITY). A compatible kind therefore matches with any longevity local policy allows its
derivation, while the gold kind must carry the gold longevity exactly.
"""

from typing import Final, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from domain.candidates import (
    ALLOWED_LONGEVITY,
    MAX_STATEMENT_CHARS,
    MAX_SUBJECT_CHARS,
    ClaimKind,
    Derivation,
    Longevity,
    Polarity,
)
from domain.policy.versions import DISTILLATION_SCORER
from evals.claim_statement import statement_reason
from evals.reasons import Reason
from evals.subject_names import is_user_bucket, names_key

MAX_COMPATIBLE_KINDS: Final = 3

_FROZEN = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)


class ClosedFields(BaseModel):
    """The closed fields a gold claim and a formed belief both carry."""

    model_config = _FROZEN

    claim_kind: ClaimKind
    derivation: Derivation
    longevity: Longevity
    subject: str = Field(min_length=1, max_length=MAX_SUBJECT_CHARS)


class GoldExpectation(ClosedFields):
    """One expected claim of a corpus case: its closed fields, statement alternatives and compatible kinds."""

    statements: tuple[str, ...] = Field(min_length=1)
    compatible_kinds: tuple[ClaimKind, ...] = Field(default=(), max_length=MAX_COMPATIBLE_KINDS)

    @model_validator(mode="after")
    def _labelled_as_the_reference_asks(self) -> Self:
        if self.longevity not in ALLOWED_LONGEVITY[self.derivation]:
            raise ValueError("longevity is not allowed for the derivation")
        if is_user_bucket(self.subject):
            raise ValueError("subject must be a specific conflict key, not the user")
        if self.derivation is Derivation.HYPOTHESIS and self.compatible_kinds:
            raise ValueError("a hypothesis declares no compatible kinds")
        if self.claim_kind in self.compatible_kinds or len(set(self.compatible_kinds)) != len(
            self.compatible_kinds
        ):
            raise ValueError("compatible kinds are distinct and other than the claim kind")
        if any(not s.strip() or len(s) > MAX_STATEMENT_CHARS for s in self.statements):
            raise ValueError("every statement alternative is a non-blank statement")
        return self


class FormedBelief(ClosedFields):
    """What a policy formed (a MemoryCandidate or belief reduced to what is scored)."""

    statement: str = Field(min_length=1, max_length=MAX_STATEMENT_CHARS)
    polarity: Polarity


class ScoredPair(BaseModel):
    """One line of `agent eval score`: a gold claim and a formed belief."""

    model_config = _FROZEN

    gold: GoldExpectation
    belief: FormedBelief


class ScoreResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    match: bool
    reason: Reason
    scorer: str = DISTILLATION_SCORER


def _result(reason: Reason) -> ScoreResult:
    return ScoreResult(match=reason is Reason.MATCH, reason=reason)


def _kind_reason(gold: GoldExpectation, belief: FormedBelief) -> Reason | None:
    if belief.claim_kind is gold.claim_kind:
        return None if belief.longevity is gold.longevity else Reason.LONGEVITY_DIFFERS
    if belief.claim_kind not in gold.compatible_kinds:
        return Reason.KIND_INCOMPATIBLE
    return None if belief.longevity in ALLOWED_LONGEVITY[belief.derivation] else Reason.LONGEVITY_DIFFERS


def statement_result(gold: GoldExpectation, statement: str) -> ScoreResult:
    """Statement equivalence alone: how the controls formation@7 and formation@8 are scored. A match on
    any alternative is a match; otherwise the reason the first (primary) alternative gives."""
    reasons = [statement_reason(alternative, statement) for alternative in gold.statements]
    return _result(Reason.MATCH if Reason.MATCH in reasons else reasons[0])


def score_statement(gold: GoldExpectation, belief: FormedBelief) -> ScoreResult:
    """A formed belief scored on its statement alone (statement_result)."""
    return statement_result(gold, belief.statement)


def score(gold: GoldExpectation, belief: FormedBelief) -> ScoreResult:
    """distillation-scorer@7 on one pair: the closed fields first, then the statement."""
    if belief.derivation is not gold.derivation:
        return _result(Reason.DERIVATION_DIFFERS)
    kind = _kind_reason(gold, belief)
    if kind is not None:
        return _result(kind)
    if is_user_bucket(belief.subject):
        return _result(Reason.USER_SUBJECT)
    if not names_key(belief.subject, gold.subject, gold.statements):
        return _result(Reason.SUBJECT_DIFFERS)
    if belief.polarity is not Polarity.ASSERT:
        return _result(Reason.POLARITY_DIFFERS)
    return statement_result(gold, belief.statement)
