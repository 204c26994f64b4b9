"""ConsolidateSessionWorkflow: one per session, started (or nudged) by signal-with-start "idle".

    agent ──signal-with-start idle──▶ consolidate/{tenant}/{principal}/{session}
      while an idle is pending:                       (idles during a round coalesce into one more round)
        load_batch (local)  ──▶ BatchPlan: segments over (watermark, last_seq], ids and sizes only,
                                after any late events' own segments (below the watermark)
        for each segment, in order:                   (a later segment ranks against earlier commits)
          FormSegmentWorkflow segment/{run_id}/{index} ──▶ SegmentOutcome
        advance_watermark   ──▶ compare-and-set watermark -> last_seq, after every segment committed, and
                                the ConsolidationRun (counts, classes, stage metrics) in the same transaction
                                (local, in the task that ends the round; scheduled in older histories)
                                (a round with nothing planned only records its run: record_run, local)
        retryable fallback? ──▶ RepassWorkflow per segment range, started and abandoned
        poisoned segment?   ──▶ (a deterministic failure, or a stored event that no longer validates)
                                the watermark stops before it, record_quarantine (content-free audit),
                                ConsolidationOutcome=poisoned; wait for the operator's release signal
                                (retry the range, or skip it: the watermark passes it, audited)
        history large?      ──▶ continue-as-new, carrying the pending idle

Not sandboxed, like FormSegment: the sandbox re-ran this module and proxied every passed-through module for
each session's workflow (about a tenth of the worker's CPU per consolidation) to guard orchestration whose
every decision is a pure function in domain/ or workflow.now()/uuid4(). The replay tests guard its
determinism.

Planning happens inside load_batch, not here: the plan is then recorded in history, so a later change of
the planner's bounds cannot make an in-flight history replay differently, and per-event footprints (which
need the text to count coverage units) never enter the history; only the planned SegmentRefs do.
"""

import asyncio
import contextlib
from uuid import UUID

from temporalio import workflow
from temporalio.common import SearchAttributePair, TypedSearchAttributes, WorkflowIDReusePolicy
from temporalio.exceptions import (
    ActivityError,
    ChildWorkflowError,
    WorkflowAlreadyStartedError,
)
from temporalio.workflow import ParentClosePolicy

with workflow.unsafe.imports_passed_through():
    from activities.batch import BatchActivities
    from activities.contracts import (
        AdvanceWatermarkInput,
        BatchPlan,
        LoadBatchInput,
        Poison,
        Quarantine,
        QuarantineInput,
        RecordRunInput,
        ReleaseInput,
        SegmentInput,
        SegmentOutcome,
        WatermarkAdvance,
    )
    from activities.quarantine import QuarantineActivities
    from domain.consolidation import GAP_GRACE, summarize_round
    from domain.errors import UnreadableEvent
    from domain.formation.segments import SegmentRef, passed_gaps, piece_resume
    from domain.telemetry import RunOutcome
    from workflows.form_segment import FormSegmentWorkflow, segment_workflow_id
    from workflows.poison import poison_of, store_local
    from workflows.policies import INFRASTRUCTURE_RETRY, STORE_START_TO_CLOSE
    from workflows.repass import RepassInput, RepassWorkflow, repass_workflow_id
    from workflows.revisions import takes
    from workflows.search_attributes import (
        CONSOLIDATION_OUTCOME,
        FORMATION_POLICY,
    )
    from workflows.session_contracts import (
        ConsolidateSessionInput,
        ConsolidationProgress,
        ConsolidationSummary,
        RoundResult,
    )

IDLE_SIGNAL = "idle"
RELEASE_SIGNAL = "release"
QUARANTINE_QUERY = "quarantine"
PROGRESS_QUERY = "progress"
# A gap whose following events keep looking recent (a skewed client clock) must not hold a run open forever.
MAX_GAP_WAITS = 3


def session_workflow_id(tenant_id: str, principal_id: str, session_id: UUID | str) -> str:
    return f"consolidate/{tenant_id}/{principal_id}/{session_id}"


@workflow.defn(name="ConsolidateSession", sandboxed=False)
class ConsolidateSessionWorkflow:
    @workflow.init
    def __init__(self, params: ConsolidateSessionInput) -> None:
        self._idle_pending = params.idle_pending
        # What the FormationPolicy search attribute shows: the requested policy until a worker's selection.
        self._shown_policy = params.formation_policy
        self._quarantine: Quarantine | None = None
        self._release: bool | None = None
        self._resume = params.resume
        # Only for the progress query: set from what the workflow code already decided, so replay-safe.
        self._progress = ConsolidationProgress(rounds=params.rounds_before)

    @workflow.signal(name=IDLE_SIGNAL)
    def idle(self) -> None:
        # However many idles arrive during a round, they owe exactly one more round.
        self._idle_pending = True

    @workflow.signal(name=RELEASE_SIGNAL)
    def release(self, skip: bool) -> None:
        """The operator's decision on a quarantined segment: retry it, or skip it. Ignored when nothing
        is quarantined."""
        if self._quarantine is not None:
            self._release = skip

    @workflow.query(name=QUARANTINE_QUERY)
    def quarantine(self) -> Quarantine | None:
        return self._quarantine

    @workflow.query(name=PROGRESS_QUERY)
    def progress(self) -> ConsolidationProgress:
        """Rounds completed and, while a round forms its segments, how many it planned and committed."""
        return self._progress

    @workflow.run
    async def run(self, params: ConsolidateSessionInput) -> ConsolidationSummary:
        # session_idle sets the attribute at start; a start without it (an older client) still shows it.
        if workflow.info().typed_search_attributes.get(FORMATION_POLICY) != params.formation_policy:
            workflow.upsert_search_attributes([FORMATION_POLICY.value_set(params.formation_policy)])
        rounds = params.rounds_before
        last: RoundResult | None = None
        gap_waits = 0
        while self._idle_pending:
            self._idle_pending = False
            last = await self._round(params)
            rounds += 1
            self._progress = ConsolidationProgress(rounds=rounds)
            gap_waits = gap_waits + 1 if last.held_back else 0
            if last.quarantine is not None:
                await self._hold(params, last.quarantine)
            elif last.held_back and not self._idle_pending and gap_waits <= MAX_GAP_WAITS:
                # Events wait above a sequence gap; look again once the gap grace has passed, or sooner
                # if the agent reports idle (usually because the missing event arrived).
                with contextlib.suppress(asyncio.TimeoutError):
                    await workflow.wait_condition(lambda: self._idle_pending, timeout=GAP_GRACE)
                self._idle_pending = True
            if self._idle_pending and self._history_is_large(params.history_event_budget):
                await workflow.wait_condition(workflow.all_handlers_finished)
                workflow.continue_as_new(
                    params.model_copy(
                        update={
                            "idle_pending": self._idle_pending,
                            "rounds_before": rounds,
                            "resume": self._resume,
                        }
                    )
                )
        return ConsolidationSummary(rounds=rounds, last_round=last)

    async def _round(self, params: ConsolidateSessionInput) -> RoundResult:
        run_id = workflow.uuid4()
        started_at = workflow.now()
        # A short store-only read: a local activity, run inside this workflow task (no round trip to the
        # server, one marker in the history), retried like any activity (it only reads).
        try:
            plan = await store_local(
                BatchActivities.load_batch,
                LoadBatchInput(
                    session=params.session, formation_policy=params.formation_policy, resume=self._resume
                ),
            )
        except ActivityError as failure:
            if (poison := poison_of(failure)) is None:
                raise
            unplanned = await self._record_quarantine(
                QuarantineInput(session=params.session, run_id=run_id, poison=poison)
            )
            workflow.upsert_search_attributes([CONSOLIDATION_OUTCOME.value_set(RunOutcome.POISONED.value)])
            return RoundResult(
                run_id=run_id,
                outcome=RunOutcome.POISONED,
                from_seq=unplanned.watermark,
                to_seq=unplanned.watermark,
                segment_count=0,
                held_back=0,
                watermark_advanced=False,
                quarantine=unplanned,
            )
        self._show_selection(plan, params.revision)
        self._progress = self._progress.model_copy(update={"segments_planned": len(plan.segments)})
        if plan.more_pending:
            # A backlog larger than one batch is worked off without waiting for another idle.
            self._idle_pending = True

        outcomes: list[SegmentOutcome] = []
        admitted = 0
        poisoned: QuarantineInput | None = None
        for ref in plan.segments:
            try:
                outcome = await workflow.execute_child_workflow(
                    FormSegmentWorkflow.run,
                    SegmentInput(ref=ref, run_id=run_id, admitted_before=admitted, revision=params.revision),
                    id=segment_workflow_id(str(run_id), ref.index),
                    # Set at start: no upsert command (and visibility write) in every child.
                    search_attributes=TypedSearchAttributes(
                        [SearchAttributePair(FORMATION_POLICY, plan.selection or ref.formation_policy)]
                    ),
                )
            except ChildWorkflowError as failure:
                if (poison := poison_of(failure)) is None:
                    raise
                # The segments before it are committed; the watermark stops where they end. A skip
                # passes it, so what none of them held (its gaps, any before it) is carried for that.
                poisoned = QuarantineInput(
                    session=params.session,
                    run_id=run_id,
                    poison=poison,
                    first_seq=ref.first_seq,
                    last_seq=ref.last_seq,
                    segment_key=ref.segment_key,
                    gaps=passed_gaps(plan.watermark, ref.last_seq, [*(o.ref for o in outcomes), ref]),
                )
                break
            admitted += outcome.commit.admitted
            outcomes.append(outcome)
            self._progress = self._progress.model_copy(update={"segments_committed": len(outcomes)})
        if poisoned is not None:
            # Late segments (planned first) end below the watermark: they never move it; nor does an event
            # whose last piece did not commit.
            consolidated_to = max([plan.watermark, *(o.ref.last_seq for o in outcomes if o.ref.last_piece)])
            # Pieces committed before the poisoned segment are not formed again after a retry.
            self._resume = piece_resume([o.ref for o in outcomes]) or (None if outcomes else self._resume)
        else:
            consolidated_to = plan.last_seq
            self._resume = plan.resume
            if plan.unreadable_seq is not None:
                poisoned = QuarantineInput(
                    session=params.session,
                    run_id=run_id,
                    poison=Poison(activity="load_batch", failure_type=UnreadableEvent.__name__),
                    last_seq=plan.unreadable_seq,
                    # Nothing was stored between the plan and it: any seq there is a gap a skip passes.
                    gaps=passed_gaps(plan.watermark, plan.unreadable_seq - 1, [o.ref for o in outcomes]),
                )

        run = summarize_round(
            run_id=run_id,
            owner=params.session.owner,
            session_id=params.session.session_id,
            formation_policy=plan.formation_policy or params.formation_policy,
            from_seq=plan.watermark,
            to_seq=consolidated_to,
            stage_reports=[report for outcome in outcomes for report in outcome.stages],
            commits=[outcome.commit for outcome in outcomes],
            started_at=started_at,
            completed_at=workflow.now(),
            poisoned=poisoned is not None,
        )
        advanced = False
        if plan.empty:
            await store_local(BatchActivities.record_run, RecordRunInput(run=run))
        else:
            # After every segment committed; the run is recorded in the same transaction.
            advance = await self._advance_watermark(
                AdvanceWatermarkInput(
                    session=params.session,
                    expected=plan.watermark,
                    new=consolidated_to,
                    run=run,
                    passed=passed_gaps(plan.watermark, consolidated_to, [o.ref for o in outcomes]),
                ),
                params.revision,
            )
            advanced = advance.advanced and consolidated_to > plan.watermark
        workflow.upsert_search_attributes([CONSOLIDATION_OUTCOME.value_set(run.outcome.value)])
        quarantine = None if poisoned is None else await self._record_quarantine(poisoned)

        repass = [outcome.ref for outcome in outcomes if outcome.retryable_fallback]
        for ref in repass:
            await self._start_repass(ref, run_id, params.repass_initial_backoff_s)
        workflow.logger.info(
            "consolidation round finished",
            extra={
                "outcome": run.outcome.value,
                "segment_count": len(plan.segments),
                "event_count": plan.event_count,
                "held_back": plan.held_back,
            },
        )
        return RoundResult(
            run_id=run_id,
            outcome=run.outcome,
            from_seq=plan.watermark,
            to_seq=consolidated_to,
            segment_count=len(plan.segments),
            held_back=plan.held_back,
            watermark_advanced=advanced,
            repass_segments=tuple(ref.index for ref in repass),
            quarantine=quarantine,
            late=tuple(
                dict.fromkeys(
                    (o.ref.first_seq, o.ref.last_seq) for o in outcomes if o.ref.last_seq <= plan.watermark
                )
            ),
        )

    @staticmethod
    async def _advance_watermark(params: AdvanceWatermarkInput, revision: int) -> WatermarkAdvance:
        """A local activity since "advance-watermark-local": it runs in the workflow task that the last
        child's completion starts, and that task also ends the round (per round one workflow task, one
        activity task and four history events fewer). A second run after a lost task is harmless: the
        move is a compare-and-set and the run record an upsert."""
        if takes("advance-watermark-local", revision):
            return await store_local(BatchActivities.advance_watermark, params)
        return await workflow.execute_activity_method(
            BatchActivities.advance_watermark,
            params,
            start_to_close_timeout=STORE_START_TO_CLOSE,
            retry_policy=INFRASTRUCTURE_RETRY,
        )

    def _show_selection(self, plan: BatchPlan, revision: int) -> None:
        """The worker's selection wins over the requested policy in the search attribute, so an operator
        filtering on FormationPolicy="deterministic" finds what formed without a provider. Histories from
        before selections replay without the marker (and never carry one)."""
        if plan.selection is None or plan.selection == self._shown_policy:
            return
        if takes("formation-policy-selection", revision):
            workflow.upsert_search_attributes([FORMATION_POLICY.value_set(plan.selection)])
            self._shown_policy = plan.selection

    @staticmethod
    async def _record_quarantine(held: QuarantineInput) -> Quarantine:
        return await workflow.execute_activity_method(
            QuarantineActivities.record_quarantine,
            held,
            start_to_close_timeout=STORE_START_TO_CLOSE,
            retry_policy=INFRASTRUCTURE_RETRY,
        )

    async def _hold(self, params: ConsolidateSessionInput, quarantine: Quarantine) -> None:
        """Wait for the operator (`agent session release`), then record the decision and run a round:
        a retry consolidates the range again, a skip first moves the watermark past it."""
        self._quarantine, self._release = quarantine, None
        await workflow.wait_condition(lambda: self._release is not None)
        skip = bool(self._release)
        await workflow.execute_activity_method(
            QuarantineActivities.release_quarantine,
            ReleaseInput(session=params.session, quarantine=quarantine, skip=skip),
            start_to_close_timeout=STORE_START_TO_CLOSE,
            retry_policy=INFRASTRUCTURE_RETRY,
        )
        self._quarantine, self._release = None, None
        self._idle_pending = True

    @staticmethod
    async def _start_repass(ref: SegmentRef, run_id: UUID, initial_backoff_s: float | None) -> None:
        """The watermark has advanced over the fallback; the provider's contribution follows later.

        Abandoned, so the re-pass outlives this run; its id is the range, so a second start is a no-op."""
        try:
            await workflow.start_child_workflow(
                RepassWorkflow.run,
                RepassInput(ref=ref, origin_run_id=run_id)
                if initial_backoff_s is None
                else RepassInput(ref=ref, origin_run_id=run_id, initial_backoff_s=initial_backoff_s),
                id=repass_workflow_id(ref),
                parent_close_policy=ParentClosePolicy.ABANDON,
                id_reuse_policy=WorkflowIDReusePolicy.REJECT_DUPLICATE,
            )
        except WorkflowAlreadyStartedError:
            workflow.logger.info("re-pass already started", extra={"segment_index": ref.index})

    @staticmethod
    def _history_is_large(budget: int) -> bool:
        info = workflow.info()
        return info.is_continue_as_new_suggested() or info.get_current_history_length() > budget


__all__ = [
    "IDLE_SIGNAL",
    "PROGRESS_QUERY",
    "QUARANTINE_QUERY",
    "RELEASE_SIGNAL",
    "BatchPlan",
    "ConsolidateSessionInput",
    "ConsolidateSessionWorkflow",
    "ConsolidationSummary",
    "RoundResult",
    "session_workflow_id",
]
