"""The provider stages as activities: read, ask, decide, stage, report.

formation@9 runs integrate_episodes, anticipate and distill; a formation@8 or formation@10 segment runs
extract alone, its one provider-assisted call.

Each stage is thin I/O around pure domain functions:
  read the segment (reads that need no common transaction, each its own) -> build the request (domain)
  -> one provider call (port, outside any transaction) -> the outcome (domain) -> stage the document (one
  statement, committed as it completes) -> return the content-free StageReport.
A ProviderFailure never fails the activity: the stage falls back and reports the failure class, so every
activity failure Temporal retries is infrastructure. Each stage heartbeats while it runs (a lost worker's
stage is retried after the heartbeat timeout) and gives way to a cancellation (a worker shutting down).
The staged document may hold user content; it stays in the store, keyed by (segment key, stage), and never
reaches the workflow.
"""

import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import Final

from temporalio import activity
from temporalio.exceptions import CancelledError

from activities.contracts import StageInput
from activities.formation_tuple import AlternativeTuples
from activities.heartbeat import heartbeating
from activities.pieced_events import PiecedEvents
from domain.beliefs.records import MemoryRecord
from domain.events import SourceEvent
from domain.formation.anticipation import (
    CUE_SENSITIVITIES,
    MEMORY_POOL,
    anticipation_outcome,
    anticipation_request,
    earliest_evidence_seq,
    select_cue_memories,
)
from domain.formation.distillation import distillation_outcome, distillation_request
from domain.formation.extraction import ProviderAssistedExtractor
from domain.formation.integration import integration_outcome, integration_request
from domain.formation.segments import SegmentRef
from domain.formation.stage_results import ProviderAnswer, StageReport
from domain.policy.alternatives import TupleReason, choose_formation_tuple
from domain.policy.model_policy import MemoryModel
from domain.ports import UnitOfWork, UnitOfWorkFactory
from domain.providers import Provider, ProviderFailure, ProviderRequest
from domain.staging import AnticipationDocument, IntegrationDocument, StagedDocument

log = logging.getLogger(__name__)

CUE_EVENT_LIMIT: Final = 256
# A provider answer is paid for: a failed staging write is retried in-process for this long before the
# activity fails (and its retry would have to ask the provider again).
STAGING_PATIENCE_S: Final = 60.0
STAGING_BACKOFF_S: Final = (0.25, 0.5, 1.0, 2.0, 4.0)


class StageActivities:
    def __init__(
        self,
        uow_factory: UnitOfWorkFactory,
        provider: Provider | None,
        clock: Callable[[], datetime],
        sleep: Callable[[float], None] = time.sleep,
        model: MemoryModel | None = None,
        alternatives: AlternativeTuples | None = None,
    ) -> None:
        self._uow = uow_factory
        self._provider = provider
        # The memory model the provider calls: formation@8 and @10 budget their one call at its prices.
        self._model = model
        # Owner-selected alternative tuples of formation@9's calls; None: every call runs on the configured
        # tuple.
        self._alternatives = alternatives
        self._clock = clock
        self._sleep = sleep
        self._pieced = PiecedEvents()

    @activity.defn(name="integrate_episodes")
    def integrate_episodes(self, params: StageInput) -> StageReport:
        with heartbeating():
            return self._integrate_episodes(params.ref)

    @activity.defn(name="anticipate")
    def anticipate(self, params: StageInput) -> StageReport:
        with heartbeating():
            return self._anticipate(params.ref)

    @activity.defn(name="distill")
    def distill(self, params: StageInput) -> StageReport:
        with heartbeating():
            return self._distill(params.ref)

    def _integrate_episodes(self, ref: SegmentRef) -> StageReport:
        with self._uow.autocommit() as uow:
            events = self._pieced.segment_events(uow.events, ref)
            on = self._tuple_for(uow, ref)
        answer = on.ask(integration_request(ref, events))
        result = integration_outcome(ref, events, answer, now=self._clock())
        self._stage(ref, result.staged)
        return _logged(on.recorded(result.report))

    def _anticipate(self, ref: SegmentRef) -> StageReport:
        with self._uow.autocommit() as uow:
            events = self._pieced.segment_events(uow.events, ref)
            before_seq = earliest_evidence_seq(ref, events)
            # Causal blinding: the cue is only what came before the segment's first evidence.
            cue_events = uow.events.read_before(ref.owner, ref.session_id, before_seq, CUE_EVENT_LIMIT)
            memories = select_cue_memories(_cue_pool(uow, ref), _segment_text(events))
            on = self._tuple_for(uow, ref)
        answer = on.ask(
            anticipation_request(ref, cue_events, memories, before_seq=before_seq, segment_events=events)
        )
        result = anticipation_outcome(ref, memories, answer)
        self._stage(ref, result.staged)
        return _logged(on.recorded(result.report))

    def _distill(self, ref: SegmentRef) -> StageReport:
        with self._uow.autocommit() as uow:
            events = self._pieced.segment_events(uow.events, ref)
            staged = uow.staged.get_all(ref.owner, ref.segment_key)
            integration = IntegrationDocument.of(staged)
            anticipation = AnticipationDocument.of(staged)
            memories = select_cue_memories(_cue_pool(uow, ref), _segment_text(events))
            on = self._tuple_for(uow, ref)
        # The distiller takes predictions in their staged JSON form.
        predictions = [p.model_dump(mode="json") for p in anticipation.predictions]
        answer = on.ask(distillation_request(ref, events, list(integration.episodes), predictions))
        result = distillation_outcome(ref, events, predictions, memories, answer)
        self._stage(ref, result.staged)
        return _logged(on.recorded(result.report))

    @activity.defn(name="extract")
    def extract(self, params: StageInput) -> StageReport:
        with heartbeating():
            return self._extract(params.ref)

    def _extract(self, ref: SegmentRef) -> StageReport:
        extractor = ProviderAssistedExtractor(ref.formation_policy, self._model)
        with self._uow.autocommit() as uow:
            events = self._pieced.segment_events(uow.events, ref)
            pool = _cue_pool(uow, ref, extractor.pool_size)
        call = extractor.plan(ref, events, extractor.view(pool, _segment_text(events)))
        result = extractor.outcome(ref, events, call, _OnTuple(self._provider).ask(call.to_send))
        self._stage(ref, result.staged)
        return _logged(result.report)

    def _tuple_for(self, uow: UnitOfWork, ref: SegmentRef) -> "_OnTuple":
        """The tuple this call runs on: the owner's choice, read now, when an artifact evidences it on this
        tree; otherwise the configured tuple (a withdrawn or unevidenced choice is logged, content-free)."""
        if self._alternatives is None:
            return _OnTuple(self._provider)
        decision = choose_formation_tuple(uow.formation_choices.get(ref.owner), self._alternatives.evidence)
        if decision.model is None:
            if decision.reason is not TupleReason.CONFIGURED:
                log.warning(
                    "formation tuple choice not honoured; the configured tuple runs",
                    extra={"segment_index": ref.index, "reason": decision.reason.value},
                )
            return _OnTuple(self._provider)
        return _OnTuple(self._alternatives.provider_for(decision.model), decision.formed_on())

    def _stage(self, ref: SegmentRef, document: StagedDocument) -> None:
        staged = document.staged_output(ref)
        deadline = time.monotonic() + STAGING_PATIENCE_S
        attempt = 0
        while True:
            try:
                # One statement, committed as it completes: durable before the stage reports.
                with self._uow.autocommit() as uow:
                    uow.staged.put(staged)
                return
            except CancelledError:
                # The worker is shutting down (or the server cancelled): give way, Temporal retries.
                raise
            except Exception as error:
                if time.monotonic() >= deadline:
                    raise
                delay = STAGING_BACKOFF_S[min(attempt, len(STAGING_BACKOFF_S) - 1)]
                attempt += 1
                # The class name only: a driver message can quote a statement.
                log.warning(
                    "staging write failed; retrying in-process",
                    extra={
                        "stage": staged.stage.value,
                        "error_type": type(error).__name__,
                        "attempt": attempt,
                    },
                )
                self._sleep(delay)


class _OnTuple:
    """One call's provider and, on an owner's alternative, the label its stage metrics record."""

    def __init__(self, provider: Provider | None, formed_on: str | None = None) -> None:
        self._provider = provider
        self._formed_on = formed_on

    def ask(self, request: ProviderRequest | None) -> ProviderAnswer:
        """At most one provider call; None when there is nothing to ask or no provider is configured."""
        if request is None or self._provider is None:
            return None
        try:
            return self._provider.complete(request)
        except ProviderFailure as failure:
            return failure

    def recorded(self, report: StageReport) -> StageReport:
        if self._formed_on is None:
            return report
        metrics = report.metrics.model_copy(update={"formed_on": self._formed_on})
        return report.model_copy(update={"metrics": metrics})


def _segment_text(events: list[SourceEvent]) -> str:
    return "\n".join(e.text for e in events if e.is_owner_assertion)


def _cue_pool(uow: UnitOfWork, ref: SegmentRef, size: int = MEMORY_POOL) -> list[MemoryRecord]:
    """The owner's `size` most recently updated live beliefs a cue may show: one bounded read, so one
    principal's memory size cannot make a stage unbounded or push its newest beliefs out of the pool."""
    return uow.beliefs.most_recent(ref.owner, size, CUE_SENSITIVITIES)


def _logged(report: StageReport) -> StageReport:
    log.info(
        "stage finished",
        extra={
            "segment_index": report.segment_index,
            "stage": report.stage.value,
            "outcome": report.outcome.value,
            "failure_class": report.failure_class.value if report.failure_class else None,
            "provider_called": report.provider_called,
        },
    )
    return report
