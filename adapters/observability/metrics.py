"""The service's own metrics, exported through the Temporal runtime's Prometheus endpoint.

One endpoint per process carries both the SDK's metrics (`temporal_*`) and these (`memory_*`): the
runtime built by `telemetry_runtime` serves them, and the worker's `ServiceMetrics` interceptor records
them from the content-free values activities and workflows already return. (The HTTP API, which runs no
worker, serves its own: adapters.observability.api_metrics.) Labels are ids of policies, stages, outcomes and classes
only: never a tenant, principal or session id (unbounded cardinality) and never text.

A counter moves when an activity attempt completes, so an attempt whose answer was lost and retried is
counted twice; metrics are for rates and alerts, the audit tables for exact counts.
"""

from collections.abc import Mapping, Sequence
from typing import Any, Final

from temporalio import workflow
from temporalio.common import MetricMeter
from temporalio.runtime import PrometheusConfig, Runtime, TelemetryConfig
from temporalio.worker import (
    ActivityInboundInterceptor,
    ExecuteActivityInput,
    ExecuteWorkflowInput,
    Interceptor,
    WorkflowInboundInterceptor,
    WorkflowInterceptorClassInput,
)

from activities.contracts import AdvanceWatermarkInput, RecordRunInput
from domain.beliefs.commit import CommitReport
from domain.beliefs.lifecycle import SweepPage
from domain.formation.stage_results import StageReport
from domain.telemetry import ConsolidationRun, StageOutcome

CONSOLIDATIONS: Final = "memory_consolidations"
SEGMENTS: Final = "memory_segments"
PROVIDER_CALLS: Final = "memory_provider_calls"
STAGE_FALLBACKS: Final = "memory_stage_fallbacks"
STAGE_TOKENS: Final = "memory_stage_tokens"
STAGE_COST: Final = "memory_stage_cost_usd"
STAGE_LATENCY: Final = "memory_stage_latency_seconds"
CANDIDATES: Final = "memory_candidates"
REPASSES_STARTED: Final = "memory_repasses_started"
REPASSES_FINISHED: Final = "memory_repasses_finished"
RETIREMENTS: Final = "memory_retirements"

# Counters are exported with the OpenMetrics `_total` suffix.
COUNTERS: Final = (
    CONSOLIDATIONS,
    SEGMENTS,
    PROVIDER_CALLS,
    STAGE_FALLBACKS,
    CANDIDATES,
    REPASSES_STARTED,
    REPASSES_FINISHED,
    RETIREMENTS,
)
HISTOGRAMS: Final = (STAGE_TOKENS, STAGE_COST, STAGE_LATENCY)

# Buckets sized for one provider call per stage (seconds to a minute, hundreds to tens of thousands of
# tokens, fractions of a cent to a few cents).
BUCKETS: Final[Mapping[str, Sequence[float]]] = {
    STAGE_TOKENS: (100, 300, 1_000, 3_000, 10_000, 30_000, 100_000),
    STAGE_COST: (0.0001, 0.0003, 0.001, 0.003, 0.01, 0.03, 0.1),
    STAGE_LATENCY: (0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80),
}
TOKEN_KINDS: Final = ("input", "cached_input", "cache_write", "output", "reasoning")


def telemetry_runtime(bind_address: str) -> Runtime:
    """A Temporal runtime serving /metrics on `bind_address` (host:port); pass it to `connect`."""
    return Runtime(
        telemetry=TelemetryConfig(
            metrics=PrometheusConfig(
                bind_address=bind_address,
                counters_total_suffix=True,
                durations_as_seconds=True,
                histogram_bucket_overrides=BUCKETS,
            )
        )
    )


class ServiceMetrics:
    """The `memory_*` instruments on one meter, and how each content-free value moves them."""

    def __init__(self, meter: MetricMeter) -> None:
        self.consolidations = meter.create_counter(CONSOLIDATIONS, "consolidation rounds by outcome")
        self.segments = meter.create_counter(SEGMENTS, "segments formed by committed rounds")
        self.provider_calls = meter.create_counter(PROVIDER_CALLS, "provider calls by stage and outcome")
        self.fallbacks = meter.create_counter(STAGE_FALLBACKS, "deterministic fallbacks by failure class")
        self.tokens = meter.create_histogram(STAGE_TOKENS, "tokens of one provider call", "tokens")
        self.cost = meter.create_histogram_float(STAGE_COST, "cost of one provider call", "USD")
        self.latency = meter.create_histogram_float(STAGE_LATENCY, "latency of one provider call", "s")
        self.candidates = meter.create_counter(CANDIDATES, "proposed claims by terminal reason category")
        self.retirements = meter.create_counter(RETIREMENTS, "beliefs retired by the sweep, by reason")

    def record_run(self, run: ConsolidationRun) -> None:
        attributes = {"formation_policy": run.formation_policy}
        self.consolidations.add(1, {**attributes, "outcome": run.outcome.value})
        self.segments.add(run.segment_count, attributes)

    def record_stage(self, report: StageReport) -> None:
        stage = {"stage": report.stage.value}
        if report.outcome is StageOutcome.FALLBACK:
            failure = report.failure_class.value if report.failure_class else "none"
            self.fallbacks.add(1, {**stage, "failure_class": failure})
        if not report.provider_called:
            return
        self.provider_calls.add(1, {**stage, "outcome": report.outcome.value})
        metrics = report.metrics
        counts = (
            metrics.input_tokens,
            metrics.cached_input_tokens,
            metrics.cache_write_tokens,
            metrics.output_tokens,
            metrics.reasoning_tokens,
        )
        for kind, count in zip(TOKEN_KINDS, counts, strict=True):
            self.tokens.record(count, {**stage, "kind": kind})
        self.cost.record(metrics.cost_usd, stage)
        self.latency.record(metrics.latency_ms / 1000, stage)

    def record_commit(self, report: CommitReport) -> None:
        for category, count in report.categories.items():
            self.candidates.add(count, {"category": category.value})

    def record_sweep(self, page: SweepPage) -> None:
        for reason, count in page.by_reason.items():
            self.retirements.add(count, {"reason": reason.value})

    def record_activity(self, params: Any, result: Any) -> None:
        """Moves the instruments a completed activity's input or result speaks for."""
        if isinstance(result, StageReport):
            self.record_stage(result)
        elif isinstance(result, CommitReport):
            self.record_commit(result)
        elif isinstance(result, SweepPage):
            self.record_sweep(result)
        elif isinstance(params, AdvanceWatermarkInput) and params.run is not None:
            self.record_run(params.run)
        elif isinstance(params, RecordRunInput) and result is True:
            # False: this quiet round was already recorded (an idle on a session with nothing new).
            self.record_run(params.run)


class MetricsInterceptor(Interceptor):
    """Records `ServiceMetrics` from every activity and every re-pass workflow a worker runs."""

    def __init__(self, metrics: ServiceMetrics) -> None:
        self._metrics = metrics

    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        return _ActivityMetrics(next, self._metrics)

    def workflow_interceptor_class(
        self, input: WorkflowInterceptorClassInput
    ) -> type[WorkflowInboundInterceptor] | None:
        return _RepassMetrics


class _ActivityMetrics(ActivityInboundInterceptor):
    def __init__(self, next: ActivityInboundInterceptor, metrics: ServiceMetrics) -> None:
        super().__init__(next)
        self._metrics = metrics

    async def execute_activity(self, input: ExecuteActivityInput) -> Any:
        result = await self.next.execute_activity(input)
        params = input.args[0] if input.args else None
        self._metrics.record_activity(params, result)
        return result


class _RepassMetrics(WorkflowInboundInterceptor):
    """Re-passes by state, from inside the workflow: its meter records nothing while a history replays."""

    async def execute_workflow(self, input: ExecuteWorkflowInput) -> Any:
        if workflow.info().workflow_type != "Repass":
            return await self.next.execute_workflow(input)
        meter = workflow.metric_meter()
        meter.create_counter(REPASSES_STARTED, "re-passes started").add(1)
        result = await self.next.execute_workflow(input)
        # The sandbox re-imports RepassResult, so its state is read by name, not by class.
        state = getattr(result, "state", None)
        finished = meter.create_counter(REPASSES_FINISHED, "re-passes finished by RepassState")
        finished.add(1, {"state": str(getattr(state, "value", state))})
        return result
