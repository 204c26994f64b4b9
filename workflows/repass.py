"""RepassWorkflow: the provider's delayed contribution to a range that fell back on a transient failure.

    ConsolidateSession ──start, abandoned──▶ repass/{tenant}/{principal}/{session}/{from}-{to}
      for attempt in 1..PROVIDER_MAX_ATTEMPTS:
        durable timer backoff(attempt, initial_backoff_s)
        run_formation_stages                     (re-read the range; three provider calls)
        every stage answered?  ──▶ commit_segment (a run of its own) ──▶ RepassState=succeeded
        a non-transient failure ──▶ RepassState=abandoned
      after the last attempt ──▶ record_exhaustion audit ──▶ RepassState=exhausted

What the fallback already committed from the same source is reinforced or enriched by the commit, never
duplicated, and what the user removed in the meantime stays removed (the commit honours tombstones).
"""

from datetime import timedelta
from uuid import UUID

from pydantic import BaseModel, ConfigDict, NonNegativeInt, PositiveFloat, PositiveInt
from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from activities.commit import CommitActivities
    from activities.contracts import CommitInput
    from activities.repass import ExhaustionInput, RepassActivities
    from domain.beliefs.commit import CommitReport
    from domain.formation.segments import SegmentRef
    from domain.policy.repass import (
        PROVIDER_INITIAL_BACKOFF,
        PROVIDER_MAX_ATTEMPTS,
        RepassState,
        attempt_verdict,
        backoff,
    )
    from workflows.policies import (
        COMMIT_START_TO_CLOSE,
        HEARTBEAT_TIMEOUT,
        INFRASTRUCTURE_RETRY,
        STORE_START_TO_CLOSE,
    )
    from workflows.search_attributes import FORMATION_POLICY, REPASS_STATE
    from workflows.stages import run_formation_stages


def repass_workflow_id(ref: SegmentRef) -> str:
    base = f"repass/{ref.tenant_id}/{ref.principal_id}/{ref.session_id}/{ref.first_seq}-{ref.last_seq}"
    # The pieces of one event share its range: each re-passes on its own.
    return base if ref.clauses is None else f"{base}/{ref.clauses[0]}-{ref.clauses[1]}"


class RepassInput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    ref: SegmentRef
    origin_run_id: UUID
    max_attempts: PositiveInt = PROVIDER_MAX_ATTEMPTS
    # The wait before the first attempt (an operator setting); later waits grow by the provider
    # control's coefficient up to its cap.
    initial_backoff_s: PositiveFloat = PROVIDER_INITIAL_BACKOFF.total_seconds()


class RepassResult(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    state: RepassState
    attempts: NonNegativeInt
    commit: CommitReport | None = None


@workflow.defn(name="Repass")
class RepassWorkflow:
    @workflow.run
    async def run(self, params: RepassInput) -> RepassResult:
        workflow.upsert_search_attributes(
            [
                FORMATION_POLICY.value_set(params.ref.formation_policy),
                REPASS_STATE.value_set(RepassState.WAITING.value),
            ]
        )
        for attempt in range(1, params.max_attempts + 1):
            await workflow.sleep(backoff(attempt, timedelta(seconds=params.initial_backoff_s)))
            run_id = workflow.uuid4()
            reports = await run_formation_stages(params.ref, run_id)
            verdict = attempt_verdict(
                [r.failure_class for r in reports if r.provider_called or r.failure_class]
            )
            if verdict is RepassState.WAITING:
                continue
            if verdict is RepassState.ABANDONED:
                return self._finish(RepassState.ABANDONED, attempt)
            commit = await workflow.execute_activity_method(
                CommitActivities.commit_segment,
                CommitInput(ref=params.ref, run_id=run_id),
                start_to_close_timeout=COMMIT_START_TO_CLOSE,
                heartbeat_timeout=HEARTBEAT_TIMEOUT,
                retry_policy=INFRASTRUCTURE_RETRY,
            )
            return self._finish(RepassState.SUCCEEDED, attempt, commit)
        await workflow.execute_activity_method(
            RepassActivities.record_exhaustion,
            ExhaustionInput(
                ref=params.ref,
                origin_run_id=params.origin_run_id,
                repass_run_id=workflow.info().run_id,
                attempts=params.max_attempts,
            ),
            start_to_close_timeout=STORE_START_TO_CLOSE,
            retry_policy=INFRASTRUCTURE_RETRY,
        )
        return self._finish(RepassState.EXHAUSTED, params.max_attempts)

    @staticmethod
    def _finish(state: RepassState, attempts: int, commit: CommitReport | None = None) -> RepassResult:
        workflow.upsert_search_attributes([REPASS_STATE.value_set(state.value)])
        workflow.logger.info("re-pass finished", extra={"state": state.value, "attempts": attempts})
        return RepassResult(state=state, attempts=attempts, commit=commit)
