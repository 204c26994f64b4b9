"""lifecycle@2: the evidence clock decides when a belief retires; the usage clock never does.

Horizons, all measured from ``last_evidence_at`` (the latest supporting world event) and never from
``last_used_at``, ``last_reinforced_at`` or consolidation time:

    derivation / longevity            expiry without later evidence        reason code
    hypothesis, tentative             30 days                              retired_hypothesis_expired
    direct, ongoing                   90 days                              retired_ongoing_expired
    direct, durable                   DURABLE_HORIZON_DAYS[claim_kind]     retired_durable_expired
    explicit remember (any shape)     never (only the user closes it)      -

These constants are the one place the horizons are decided. The PostgreSQL store renders its sweep SQL from
them; the trigger of migration 0006 that fills ``expires_at`` holds a frozen copy (a migration never changes
meaning), which tests/postgres/test_expiry_horizons.py holds equal to them shape by shape. Changing a horizon
therefore takes a new data revision that replaces that trigger function.

The boundary is exact: a belief is live at ``boundary - 1 microsecond`` and expired at ``boundary``.
Evidence dated in the future (a skewed client clock) only moves the boundary later, so it can never retire a
belief early.

Durable direct beliefs also lose confidence in steps as their evidence ages (DURABLE_CONFIDENCE_STEPS). The
steps are applied when a belief is read (``effective_confidence``), never written back: the stored value
stays the formation policy's, so a later policy can change the steps without rewriting rows.

Usage: a faithful citation (cited and returned in the same run) moves ``last_used_at`` forward and pulls
``utility`` toward 1; a belief returned but not cited pulls ``utility`` toward 0. Neither touches evidence,
corroboration, confidence or expiry, so a memory cannot keep itself alive by being recalled.
"""

import functools
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final
from uuid import UUID

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, NonNegativeInt, PositiveInt, model_validator

from domain.beliefs.records import Authority, ClosedReason, MemoryRecord
from domain.candidates import ClaimKind, Derivation, Longevity
from domain.owner import BoundedId
from domain.policy.versions import LIFECYCLE
from domain.telemetry import AuditKind, FormationAudit

HYPOTHESIS_HORIZON: Final = timedelta(days=30)
ONGOING_HORIZON: Final = timedelta(days=90)

# Type-aware horizon of durable direct beliefs: how long a lasting fact stays believable with no new
# evidence. Identity-like facts (role, relationship, skill) change slowly; a one-off project fact or a
# resource goes stale about as fast as an ongoing observation.
DURABLE_HORIZON_DAYS: Final[dict[ClaimKind, int]] = {
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
# (share of the durable horizon elapsed, confidence subtracted): 0.65 reads medium until half the horizon,
# 0.55 (still medium) until three quarters, then 0.45 (low) until it retires at the full horizon.
DURABLE_CONFIDENCE_STEPS: Final[tuple[tuple[float, float], ...]] = ((0.5, 0.10), (0.75, 0.20))
CONFIDENCE_FLOOR: Final = 0.05
_NO_TIME: Final = timedelta(0)

# Utility is an exponential moving average of "was this memory useful when it was returned".
USAGE_WEIGHT: Final = 0.2
CITED_REWARD: Final = 1.0
UNCITED_REWARD: Final = 0.0

# The retirement sweep's fixed page: large enough for throughput (per-page commit and round trips amortized),
# small enough for one short transaction (about half a second at 1M beliefs, two lanes at once).
SWEEP_PAGE_SIZE: Final = 10_000
# Lanes of one sweep run side by side, each a PostgreSQL backend of its own: a page's cost is per-row heap,
# index and WAL work on one core, so two lanes on disjoint rows nearly double throughput on a 2-core server
# (benchmarks/retirement_benchmark.py). More lanes than cores only contend.
SWEEP_LANES: Final = 2
MAX_SWEEP_LANES: Final = 16
_ID_SPACE: Final = 1 << 128


@dataclass(frozen=True)
class Horizon:
    after: timedelta
    reason: ClosedReason


@functools.cache
def horizon_of(
    authority: Authority, derivation: Derivation, longevity: Longevity, claim_kind: ClaimKind
) -> Horizon | None:
    """The belief's automatic expiry, or None when it never decays automatically (cached: a few shapes
    only, and recall asks for every live belief's)."""
    if authority is Authority.EXPLICIT_REMEMBER:
        return None
    # A hypothesis never outlives the hypothesis horizon, whatever longevity an old row carries.
    if derivation is Derivation.HYPOTHESIS or longevity is Longevity.TENTATIVE:
        return Horizon(HYPOTHESIS_HORIZON, ClosedReason.RETIRED_HYPOTHESIS)
    if longevity is Longevity.ONGOING:
        return Horizon(ONGOING_HORIZON, ClosedReason.RETIRED_ONGOING)
    return Horizon(timedelta(days=DURABLE_HORIZON_DAYS[claim_kind]), ClosedReason.RETIRED_DURABLE)


def horizon(record: MemoryRecord) -> Horizon | None:
    return horizon_of(record.authority, record.derivation, record.longevity, record.claim_kind)


def expires_at(record: MemoryRecord) -> datetime | None:
    found = horizon(record)
    return None if found is None else record.last_evidence_at + found.after


def is_expired(record: MemoryRecord, now: datetime) -> bool:
    boundary = expires_at(record)
    return boundary is not None and now >= boundary


def effective_confidence(record: MemoryRecord, now: datetime) -> float:
    """The confidence a reader sees now: durable direct beliefs step down as their evidence ages."""
    return confidence_at(horizon(record), record.confidence, record.last_evidence_at, now)


def confidence_at(
    found: Horizon | None, confidence: float, last_evidence_at: datetime, now: datetime
) -> float:
    """effective_confidence from the belief's horizon, stored confidence and evidence clock alone."""
    if found is None or found.reason is not ClosedReason.RETIRED_DURABLE:
        return confidence
    # Future-dated evidence counts as fresh, never as negative age.
    elapsed = max(now - last_evidence_at, _NO_TIME) / found.after
    drop = 0.0
    for share, step in DURABLE_CONFIDENCE_STEPS:  # a loop, not max(): recall runs this for every belief
        if elapsed >= share and step > drop:
            drop = step
    return max(CONFIDENCE_FLOOR, confidence - drop) if drop else confidence


# --- the sweep -------------------------------------------------------------------------------------


class ExpiryCursor(BaseModel):
    """Where a sweep continues: the last examined (last_evidence_at, id) in expiry-index order.

    A store that pages by the stored horizon (expires_at, id) also sets ``expires_at``; a cursor without it
    (written before that store existed, or by expiry_candidates) makes such a store start from the first
    expired row again, which only re-examines rows a previous page skipped.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    last_evidence_at: AwareDatetime
    id: UUID
    expires_at: AwareDatetime | None = None


class SweepLane(BaseModel):
    """Slice ``index`` of ``of`` equal, contiguous slices of the belief id space: [first_id, end_id).

    Ids are compared as 128-bit integers, which is PostgreSQL's uuid order too, so every store cuts the same
    slices. The lanes of one sweep partition the ids, so they never examine or retire the same row.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    index: NonNegativeInt = 0
    of: PositiveInt = Field(default=1, le=MAX_SWEEP_LANES)

    @model_validator(mode="after")
    def _index_in_range(self) -> "SweepLane":
        if self.index >= self.of:
            raise ValueError(f"lane index {self.index} is not below the lane count {self.of}")
        return self

    @property
    def first_id(self) -> UUID:
        return UUID(int=self.index * _ID_SPACE // self.of)

    @property
    def end_id(self) -> UUID | None:
        """Exclusive; None for the last lane, which runs to the end of the id space."""
        return None if self.index == self.of - 1 else UUID(int=(self.index + 1) * _ID_SPACE // self.of)

    def holds(self, belief_id: UUID) -> bool:
        end = self.end_id
        return self.first_id <= belief_id and (end is None or belief_id < end)


WHOLE_ID_SPACE: Final = SweepLane()


def sweep_lanes(count: int) -> tuple[SweepLane, ...]:
    return tuple(SweepLane(index=index, of=count) for index in range(count))


class ExpiryFacts(BaseModel):
    """Exactly the fields retirement is decided on; content-free. The store retires a row only while
    they are unchanged, so a belief edited or re-evidenced after it was read is never retired on stale
    facts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: UUID
    tenant_id: str = BoundedId
    principal_id: str = BoundedId
    last_evidence_at: AwareDatetime
    valid_from: AwareDatetime
    authority: Authority
    derivation: Derivation
    longevity: Longevity
    claim_kind: ClaimKind

    @property
    def horizon(self) -> Horizon | None:
        return horizon_of(self.authority, self.derivation, self.longevity, self.claim_kind)

    @property
    def cursor(self) -> ExpiryCursor:
        return ExpiryCursor(last_evidence_at=self.last_evidence_at, id=self.id)


def expiry_facts(record: MemoryRecord) -> ExpiryFacts:
    """A belief's deciding facts, as a store that holds whole records reads them."""
    return ExpiryFacts(
        id=record.id,
        tenant_id=record.tenant_id,
        principal_id=record.principal_id,
        last_evidence_at=record.last_evidence_at,
        valid_from=record.valid_from,
        authority=record.authority,
        derivation=record.derivation,
        longevity=record.longevity,
        claim_kind=record.claim_kind,
    )


@dataclass(frozen=True)
class ExpiryCutoffs:
    """The policy as of one instant: a belief of a class is expired when last_evidence_at <= its cutoff.

    Stores render this into their own query language; ``expired`` is the reference they must agree with.
    """

    now: datetime
    hypothesis: datetime
    ongoing: datetime
    durable: dict[ClaimKind, datetime]

    @property
    def scan_until(self) -> datetime:
        """No live belief with later evidence can be expired: the upper bound of the index range."""
        return max(self.hypothesis, self.ongoing, *self.durable.values())

    def expired(self, facts: ExpiryFacts) -> bool:
        found = facts.horizon
        return found is not None and self.now >= facts.last_evidence_at + found.after


def cutoffs(now: datetime) -> ExpiryCutoffs:
    return ExpiryCutoffs(
        now=now,
        hypothesis=now - HYPOTHESIS_HORIZON,
        ongoing=now - ONGOING_HORIZON,
        durable={kind: now - timedelta(days=days) for kind, days in DURABLE_HORIZON_DAYS.items()},
    )


class Retirement(BaseModel):
    """One decided retirement: the facts it was decided on, when validity ends and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    facts: ExpiryFacts
    valid_to: AwareDatetime
    reason: ClosedReason


def decide(facts: ExpiryFacts, now: datetime) -> Retirement | None:
    found = facts.horizon
    if found is None:
        return None
    boundary = facts.last_evidence_at + found.after
    if now < boundary:
        return None
    # Validity ends at the horizon, not at whenever the sweep got there (reads already hide it from then);
    # never before the belief began.
    return Retirement(facts=facts, valid_to=max(boundary, facts.valid_from), reason=found.reason)


class SweepPage(BaseModel):
    """One page's content-free outcome; crosses the workflow boundary."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    examined: NonNegativeInt
    retired: NonNegativeInt
    # Decided expired but changed or closed by someone else before the conditional update.
    skipped_changed: NonNegativeInt
    by_reason: dict[ClosedReason, NonNegativeInt]
    next_cursor: ExpiryCursor | None
    done: bool


def retirement_audit(retirement: Retirement, now: datetime, audit_id: UUID) -> FormationAudit:
    facts = retirement.facts
    return FormationAudit(
        id=audit_id,
        tenant_id=facts.tenant_id,
        principal_id=facts.principal_id,
        session_id=None,
        kind=AuditKind.MEMORY_RETIRED,
        # A belief is retired at most once, so its id alone makes the audit idempotent.
        dedupe_key=f"retired/{facts.id}",
        details={
            "belief_id": str(facts.id),
            "reason": retirement.reason.value,
            "derivation": facts.derivation.value,
            "longevity": facts.longevity.value,
            "claim_kind": facts.claim_kind.value,
            "valid_to": retirement.valid_to.isoformat(),
            "policy": LIFECYCLE,
        },
        created_at=now,
    )


# --- the usage clock -------------------------------------------------------------------------------


@dataclass(frozen=True)
class UsageUpdate:
    """What one run does to one belief's usage clock. ``used_at`` is set only for a faithful citation."""

    reward: float
    used_at: datetime | None
    weight: float = USAGE_WEIGHT

    def next_utility(self, utility: float) -> float:
        return utility + self.weight * (self.reward - utility)

    def next_last_used(self, last_used_at: datetime | None) -> datetime | None:
        if self.used_at is None:
            return last_used_at
        return self.used_at if last_used_at is None else max(last_used_at, self.used_at)
