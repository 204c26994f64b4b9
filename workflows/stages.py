"""The provider stages of one segment, as FormSegmentWorkflow and RepassWorkflow both run them.

    formation@9                                  formation@8 / formation@10
      integrate_episodes  (provider call 1)        extract  (the one provider-assisted call)
      anticipate          (provider call 2)
      distill             (provider call 3)

One activity each, one after the other: distill reads the documents the two before it staged. Only
reports come back; the documents stay in the store. The branch follows the segment's own formation policy,
recorded in its SegmentRef, so a history replays the commands it was written with: formation@9 segments
(every history before formation@8/@10 existed) schedule exactly the three stages they always did.
"""

from functools import partial
from uuid import UUID

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from activities.contracts import StageInput
    from activities.stages import StageActivities
    from domain.formation.segments import SegmentRef
    from domain.formation.stage_results import StageReport
    from domain.policy.versions import ONE_CALL_POLICIES
    from workflows.poison import within_time_bound
    from workflows.policies import HEARTBEAT_TIMEOUT, PROVIDER_STAGE_START_TO_CLOSE, STEP_RETRY


async def run_formation_stages(ref: SegmentRef, run_id: UUID) -> tuple[StageReport, ...]:
    """The segment's stage reports in call order: integration, anticipation and distillation, or the
    extraction alone for a one-call policy."""
    stage_input = StageInput(ref=ref, run_id=run_id)
    reports: list[StageReport] = []
    stages = (
        (StageActivities.extract,)
        if ref.formation_policy in ONE_CALL_POLICIES
        else (StageActivities.integrate_episodes, StageActivities.anticipate, StageActivities.distill)
    )
    for stage in stages:
        reports.append(
            await within_time_bound(
                partial(
                    workflow.execute_activity_method,
                    stage,
                    stage_input,
                    start_to_close_timeout=PROVIDER_STAGE_START_TO_CLOSE,
                    heartbeat_timeout=HEARTBEAT_TIMEOUT,
                    retry_policy=STEP_RETRY,
                ),
                stage.__name__,
            )
        )
    return tuple(reports)
