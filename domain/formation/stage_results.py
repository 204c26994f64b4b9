"""What a stage hands back: a staged document (may hold user content) and a content-free report."""

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt

from domain.providers import ProviderFailure, ProviderResponse
from domain.staging import StagedDocument
from domain.telemetry import FailureClass, Stage, StageMetrics, StageOutcome

ProviderAnswer = ProviderResponse | ProviderFailure | None


class StageReport(BaseModel):
    """Returned to the workflow: ids, counts and normalized classes only."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    segment_index: NonNegativeInt
    stage: Stage
    outcome: StageOutcome
    failure_class: FailureClass | None = None
    provider_called: bool
    metrics: StageMetrics
    counts: dict[str, NonNegativeInt] = Field(default_factory=dict)

    @property
    def retryable_fallback(self) -> bool:
        return self.outcome is StageOutcome.FALLBACK and self.failure_class is FailureClass.TRANSIENT


class StageResult(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    staged: StagedDocument
    report: StageReport

    @property
    def document(self) -> dict[str, Any]:
        """The staged document in the JSON form the store keeps."""
        return self.staged.model_dump(mode="json")


def stage_metrics(
    segment_index: int,
    stage: Stage,
    outcome: StageOutcome,
    answer: ProviderAnswer,
    failure: FailureClass | None,
) -> StageMetrics:
    usage = answer.usage if isinstance(answer, ProviderResponse) else None
    return StageMetrics(
        segment_index=segment_index,
        stage=stage,
        outcome=outcome,
        failure_class=failure,
        input_tokens=usage.input_tokens if usage else 0,
        cached_input_tokens=usage.cached_input_tokens if usage else 0,
        cache_write_tokens=usage.cache_write_tokens if usage else 0,
        output_tokens=usage.output_tokens if usage else 0,
        reasoning_tokens=usage.reasoning_tokens if usage else 0,
        cost_usd=answer.cost_usd if isinstance(answer, ProviderResponse) else 0.0,
        latency_ms=answer.latency_ms if isinstance(answer, ProviderResponse) else 0,
    )


def unanswered(answer: ProviderFailure | None) -> tuple[FailureClass, str]:
    """Why a stage has no provider document, as (failure class, reason code): the call's normalized
    failure, or not_configured when no provider was called."""
    if answer is None:
        return FailureClass.NOT_CONFIGURED, "not_configured"
    return answer.failure_class, answer.code


def report(
    segment_index: int,
    stage: Stage,
    outcome: StageOutcome,
    answer: ProviderAnswer,
    *,
    failure: FailureClass | None = None,
    counts: dict[str, int] | None = None,
) -> StageReport:
    if isinstance(answer, ProviderFailure):
        failure = answer.failure_class
    return StageReport(
        segment_index=segment_index,
        stage=stage,
        outcome=outcome,
        failure_class=failure,
        provider_called=answer is not None,
        metrics=stage_metrics(segment_index, stage, outcome, answer, failure),
        counts=counts or {},
    )
