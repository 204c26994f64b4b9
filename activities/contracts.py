"""What crosses the workflow boundary: ids, sequence ranges, keys, versions and counts, never content.

Every value here is recorded in a Temporal history an operator can read in the UI, so none of them may
carry source text, narrative, evidence, prompts or statements. Stage documents stay in the store and are
named by (segment key, stage).
"""

from uuid import UUID

from pydantic import BaseModel, ConfigDict, NonNegativeInt

from domain.beliefs.commit import CommitReport
from domain.formation.segments import PieceResume, SegmentRef, SeqRange
from domain.formation.stage_results import StageReport
from domain.owner import BoundedId, Owner
from domain.telemetry import ConsolidationRun


class _Value(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SessionKey(_Value):
    tenant_id: str = BoundedId
    principal_id: str = BoundedId
    session_id: UUID

    @property
    def owner(self) -> Owner:
        return Owner(tenant_id=self.tenant_id, principal_id=self.principal_id)


class LoadBatchInput(_Value):
    session: SessionKey
    formation_policy: str
    # The previous round stopped inside an event planned in pieces: plan it from here on.
    resume: PieceResume | None = None


class BatchPlan(_Value):
    """The planned round: segments cover exactly the events in (watermark, last_seq], after late_count
    late events below the watermark (their segments come first and end at or below it)."""

    watermark: NonNegativeInt
    last_seq: NonNegativeInt
    event_count: NonNegativeInt
    total_bytes: NonNegativeInt
    coverage_units: NonNegativeInt
    segments: tuple[SegmentRef, ...] = ()
    # Events above a sequence gap wait for the gap to fill (or for the gap grace to pass).
    held_back: NonNegativeInt = 0
    late_count: NonNegativeInt = 0
    # The batch hit its size cap; the workflow runs another round without waiting for an idle.
    more_pending: bool = False
    # The worker's formation policy selection: the policy its segments are planned under, and the label
    # the FormationPolicy search attribute shows ("deterministic" when no provider policy is active).
    # None: a worker without a selection (test harnesses) planned under the session's requested policy.
    formation_policy: str | None = None
    selection: str | None = None
    # A stored event that no longer validates: the plan stops before it, the workflow quarantines it.
    unreadable_seq: NonNegativeInt | None = None
    # The plan was cut inside an event planned in pieces: last_seq stops before that event, and the next
    # round plans it from this point on.
    resume: PieceResume | None = None

    @property
    def empty(self) -> bool:
        return not self.segments


class StageInput(_Value):
    ref: SegmentRef
    run_id: UUID


class SegmentInput(_Value):
    ref: SegmentRef
    run_id: UUID
    # Proposals admitted by earlier segments of this consolidation count against its one ranking budget.
    admitted_before: NonNegativeInt = 0
    # The command sequence the segment's workflow takes (workflows/revisions.py); 0: inputs from before it.
    revision: NonNegativeInt = 0


class CommitInput(_Value):
    ref: SegmentRef
    run_id: UUID
    admitted_before: NonNegativeInt = 0


class AdvanceWatermarkInput(_Value):
    session: SessionKey
    expected: NonNegativeInt
    new: NonNegativeInt
    # The round's record, written in the same transaction as the watermark move (one activity, one commit).
    run: ConsolidationRun | None = None
    # The ranges in (expected, new] no committed segment held (segments.passed_gaps): an event stored
    # there after planning is flagged late in the same transaction. Empty in histories from before it.
    passed: tuple[SeqRange, ...] = ()


class WatermarkAdvance(_Value):
    advanced: bool
    current: NonNegativeInt


class RecordRunInput(_Value):
    run: ConsolidationRun


class Poison(_Value):
    """A deterministic activity failure: the activity's name and the error's class, never its message."""

    activity: str
    failure_type: str


class QuarantineInput(_Value):
    session: SessionKey
    run_id: UUID
    poison: Poison
    # The held range and its segment key; None when the batch could not be read at all (first_seq: also
    # for a stored event that no longer validates, and in histories from before it was recorded).
    first_seq: NonNegativeInt | None = None
    last_seq: NonNegativeInt | None = None
    segment_key: str | None = None
    # The ranges from the round's start to last_seq no segment held (segments.passed_gaps), the poisoned
    # segment's own gaps among them: a skip flags an event stored there late (those its advance passed
    # are flagged already; flagging is idempotent). Empty in older histories.
    gaps: tuple[SeqRange, ...] = ()


class Quarantine(_Value):
    """A session held before events it cannot consolidate, until an operator releases it."""

    run_id: UUID
    poison: Poison
    # Where the watermark stands: every event up to here was consolidated.
    watermark: NonNegativeInt
    # The quarantined segment's range and key; None when the batch could not be planned (load_batch).
    # A range that ends at or below the watermark is a late segment's.
    first_seq: NonNegativeInt | None = None
    last_seq: NonNegativeInt | None = None
    segment_key: str | None = None
    # What a skip passes without consolidating besides the poisoned events (QuarantineInput.gaps).
    gaps: tuple[SeqRange, ...] = ()


class ReleaseInput(_Value):
    session: SessionKey
    quarantine: Quarantine
    # Skip: the watermark passes the quarantined range (audited), which is then never consolidated.
    # Otherwise the range is consolidated again from the same watermark.
    skip: bool = False


class SegmentOutcome(_Value):
    """One FormSegmentWorkflow's result: its stage reports (three for formation@9, one for formation@8/@10)
    and a commit report, all content-free."""

    ref: SegmentRef
    stages: tuple[StageReport, ...]
    commit: CommitReport

    @property
    def retryable_fallback(self) -> bool:
        return any(report.retryable_fallback for report in self.stages)


__all__ = [
    "AdvanceWatermarkInput",
    "BatchPlan",
    "CommitInput",
    "LoadBatchInput",
    "Poison",
    "Quarantine",
    "QuarantineInput",
    "RecordRunInput",
    "ReleaseInput",
    "SegmentInput",
    "SegmentOutcome",
    "SessionKey",
    "StageInput",
    "WatermarkAdvance",
]
