"""Content-free formation telemetry: reason categories, stage metrics, runs and audits."""

from enum import StrEnum
from typing import Final
from uuid import UUID

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, NonNegativeFloat, NonNegativeInt

from domain.owner import BoundedId


class ReasonCategory(StrEnum):
    """Every proposed claim ends in exactly one of these."""

    COMMITTED_DIRECT = "committed_direct"
    COMMITTED_HYPOTHESIS = "committed_hypothesis"
    REINFORCED = "reinforced"
    PROMOTED = "promoted"
    REDUNDANT_ATTRIBUTED = "redundant_attributed"
    SUPERSEDED = "superseded"
    CONFLICTED = "conflicted"
    REJECTED_PROVENANCE = "rejected_provenance"
    REJECTED_CREDENTIAL = "rejected_credential"
    REJECTED_INJECTION = "rejected_injection"
    REJECTED_CORRECTION = "rejected_correction"
    REJECTED_PORTABILITY = "rejected_portability"
    REJECTED_VALIDATION = "rejected_validation"
    DISPLACED_PER_SOURCE = "displaced_per_source"
    DISPLACED_GLOBAL = "displaced_global"
    PROVIDER_INVALID = "provider_invalid"
    SKIPPED_UNMATCHED_RETRACTION = "skipped_unmatched_retraction"


class CoverageDisposition(StrEnum):
    FORMED = "formed"
    REPRESENTED = "represented"
    REPRESENTED_UNVERIFIED = "represented_unverified"
    TRANSIENT = "transient"
    UNSAFE = "unsafe"
    NOT_MEMORY = "not_memory"


class Stage(StrEnum):
    INTEGRATION = "integration"
    ANTICIPATION = "anticipation"
    DISTILLATION = "distillation"
    # formation@8 and formation@10: the one provider-assisted extraction call of a segment.
    EXTRACTION = "extraction"


# formation@9's three calls, in the order a segment makes them.
THREE_STAGES: Final = (Stage.INTEGRATION, Stage.ANTICIPATION, Stage.DISTILLATION)


class StageOutcome(StrEnum):
    OK = "ok"
    PARTIAL_VALIDATION = "partial_validation"
    FALLBACK = "fallback"
    SKIPPED = "skipped"


class FailureClass(StrEnum):
    """Normalized provider failure classes; the only failure detail that leaves the stage."""

    TRANSIENT = "transient"
    PERMANENT = "permanent"
    PROTOCOL = "protocol"
    STRUCTURAL = "structural"
    NOT_CONFIGURED = "not_configured"
    # formation@8's budget left no output token (or the request exceeds the input ceiling): not called.
    BUDGET = "budget"

    @property
    def retryable(self) -> bool:
        return self is FailureClass.TRANSIENT


class StageMetrics(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    segment_index: NonNegativeInt
    stage: Stage
    outcome: StageOutcome
    failure_class: FailureClass | None = None
    input_tokens: NonNegativeInt = 0
    cached_input_tokens: NonNegativeInt = 0
    cache_write_tokens: NonNegativeInt = 0
    output_tokens: NonNegativeInt = 0
    reasoning_tokens: NonNegativeInt = 0
    cost_usd: NonNegativeFloat = 0.0
    latency_ms: NonNegativeInt = 0
    # Set only for a call an owner moved to an evidenced alternative tuple (ADR-0119): the extractor's name,
    # then that tuple's policy and effort (nemori-assisted-v1/<profile>@<effort>). The choice is read at each
    # call, so a stage, not a run, is what runs on a tuple; older rows and histories read None.
    formed_on: str | None = Field(default=None, max_length=256)


class RunOutcome(StrEnum):
    COMPLETED = "completed"
    COMPLETED_WITH_FALLBACK = "completed_with_fallback"
    NOTHING_TO_DO = "nothing_to_do"
    # A segment failed deterministically: quarantined, the watermark stops before it until an operator acts.
    POISONED = "poisoned"


class ConsolidationRun(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: UUID
    tenant_id: str = BoundedId
    principal_id: str = BoundedId
    session_id: UUID
    formation_policy: str
    from_seq: NonNegativeInt
    to_seq: NonNegativeInt
    outcome: RunOutcome
    segment_count: NonNegativeInt = 0
    episode_count: NonNegativeInt = 0
    provider_call_count: NonNegativeInt = 0
    fallback_stages: tuple[Stage, ...] = ()
    categories: dict[ReasonCategory, NonNegativeInt] = Field(default_factory=dict)
    direct_proposed: NonNegativeInt = 0
    direct_committed: NonNegativeInt = 0
    hypothesis_proposed: NonNegativeInt = 0
    hypothesis_committed: NonNegativeInt = 0
    attributed_redundancies: NonNegativeInt = 0
    coverage: dict[CoverageDisposition, NonNegativeInt] = Field(default_factory=dict)
    rejected_provider_candidates: NonNegativeInt = 0
    stage_metrics: tuple[StageMetrics, ...] = ()
    started_at: AwareDatetime
    completed_at: AwareDatetime

    @property
    def formed_on(self) -> tuple[str, ...]:
        """The owner-selected alternative tuples this run's calls ran on, in order; empty on the configured."""
        return tuple(dict.fromkeys(m.formed_on for m in self.stage_metrics if m.formed_on is not None))


class AuditKind(StrEnum):
    STAGE_FALLBACK = "stage_fallback"
    DERIVATION_CONFLICT = "derivation_conflict"
    SEGMENT_COMMITTED = "segment_committed"
    REPASS_EXHAUSTED = "repass_exhausted"
    SEGMENT_QUARANTINED = "segment_quarantined"
    QUARANTINE_RELEASED = "quarantine_released"
    LATE_EVENT = "late_event"
    MEMORY_RETIRED = "memory.retired"
    MEMORY_USED = "memory.used"
    SELECTION = "selection"
    GOVERNED_WRITE = "governed_write"


AuditValue = str | int | float | bool | None


class FormationAudit(BaseModel):
    """A content-free audit record: ids, counts, versions and normalized classes only."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: UUID
    tenant_id: str = BoundedId
    principal_id: str = BoundedId
    session_id: UUID | None
    kind: AuditKind
    # Idempotency: one audit per key, however often a step is retried or replayed.
    dedupe_key: str = Field(min_length=1, max_length=256)
    details: dict[str, AuditValue] = Field(default_factory=dict)
    created_at: AwareDatetime
