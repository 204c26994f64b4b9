"""The three provider stages of one segment, as FormSegmentWorkflow and RepassWorkflow both run them.

    integrate_episodes  (provider call 1)  ──▶ StageReport
    anticipate          (provider call 2)  ──▶ StageReport
    distill             (provider call 3)  ──▶ StageReport

One activity each, one after the other: distill reads the documents the two before it staged. Only
reports come back; the documents stay in the store.
"""

from uuid import UUID

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from activities.contracts import StageInput
    from activities.stages import StageActivities
    from domain.formation.segments import SegmentRef
    from domain.formation.stage_results import StageReport
    from workflows.policies import HEARTBEAT_TIMEOUT, INFRASTRUCTURE_RETRY, PROVIDER_STAGE_START_TO_CLOSE


async def run_formation_stages(ref: SegmentRef, run_id: UUID) -> tuple[StageReport, ...]:
    """The segment's integration, anticipation and distillation reports, in that order."""
    stage_input = StageInput(ref=ref, run_id=run_id)
    reports: list[StageReport] = []
    for stage in (StageActivities.integrate_episodes, StageActivities.anticipate, StageActivities.distill):
        reports.append(
            await workflow.execute_activity_method(
                stage,
                stage_input,
                start_to_close_timeout=PROVIDER_STAGE_START_TO_CLOSE,
                heartbeat_timeout=HEARTBEAT_TIMEOUT,
                retry_policy=INFRASTRUCTURE_RETRY,
            )
        )
    return tuple(reports)
