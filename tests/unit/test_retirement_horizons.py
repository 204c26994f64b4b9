"""The lifecycle@2 horizons are the reference's numbers, read as literals, never as the code's own constants.

The reference fixes two: tentative hypotheses retire thirty days after last_evidence_at, ongoing observations
ninety days after it. Durable direct beliefs keep "the existing type-aware horizon": the reference gives no
numbers, so the literals below are the table lifecycle@2 shipped with and froze in migration 0006's trigger
(tests/postgres/test_expiry_horizons.py holds that trigger to the same values).
"""

from datetime import timedelta

import pytest

from domain.beliefs.lifecycle import Horizon, horizon_of
from domain.beliefs.records import Authority, ClosedReason
from domain.candidates import ClaimKind, Derivation, Longevity

DAY = timedelta(days=1)
DURABLE_DAYS = {
    ClaimKind.ROLE: 730,
    ClaimKind.RELATIONSHIP: 730,
    ClaimKind.SKILL: 730,
    ClaimKind.CONSTRAINT: 365,
    ClaimKind.PREFERENCE: 365,
    ClaimKind.INTEREST: 365,
    ClaimKind.GOAL: 365,
    ClaimKind.HABIT: 180,
    ClaimKind.RECURRING_STATE: 180,
    ClaimKind.ONGOING_PROJECT: 180,
    ClaimKind.RESOURCE: 180,
    ClaimKind.PROJECT_FACT: 90,
}


@pytest.mark.parametrize("kind", list(ClaimKind))
def test_gate_memory_hypothesis_retirement_after_thirty_days(kind: ClaimKind) -> None:
    """Catches: HYPOTHESIS_HORIZON set to anything but 30 days (e.g. 20)."""
    assert horizon_of(Authority.AUTOMATIC, Derivation.HYPOTHESIS, Longevity.TENTATIVE, kind) == Horizon(
        30 * DAY, ClosedReason.RETIRED_HYPOTHESIS
    )


@pytest.mark.parametrize("kind", list(ClaimKind))
def test_gate_memory_ongoing_retirement_after_ninety_days(kind: ClaimKind) -> None:
    """Catches: ONGOING_HORIZON set to anything but 90 days (e.g. 60)."""
    assert horizon_of(Authority.AUTOMATIC, Derivation.DIRECT, Longevity.ONGOING, kind) == Horizon(
        90 * DAY, ClosedReason.RETIRED_ONGOING
    )


@pytest.mark.parametrize("kind", list(ClaimKind))
def test_durable_direct_beliefs_retire_at_the_type_aware_horizon(kind: ClaimKind) -> None:
    """Catches: any entry of DURABLE_HORIZON_DAYS changed, or a claim kind left without one."""
    assert horizon_of(Authority.AUTOMATIC, Derivation.DIRECT, Longevity.DURABLE, kind) == Horizon(
        DURABLE_DAYS[kind] * DAY, ClosedReason.RETIRED_DURABLE
    )


@pytest.mark.parametrize("derivation", list(Derivation))
@pytest.mark.parametrize("longevity", list(Longevity))
def test_explicit_remember_never_retires_automatically(derivation: Derivation, longevity: Longevity) -> None:
    for kind in ClaimKind:
        assert horizon_of(Authority.EXPLICIT_REMEMBER, derivation, longevity, kind) is None
