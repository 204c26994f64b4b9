"""FormSegmentWorkflow: one planned segment, its provider stages, one commit.

    parent ──start child segment/{run_id}/{index}──▶ FormSegmentWorkflow
      run_formation_stages (workflows.stages)
        formation@9:
        integrate_episodes  (provider call 1)  ──▶ staged integration document, StageReport
        anticipate          (provider call 2)  ──▶ staged anticipation document, StageReport
        distill             (provider call 3)  ──▶ staged distillation document, StageReport
        formation@8 / formation@10:
        extract             (the one call)     ──▶ staged candidate document, StageReport
      commit_segment        (one unit of work; local, in the task that ends the segment) ──▶ CommitReport
                            (scheduled in older histories)
    ◀── SegmentOutcome (reports only)

Each stage reads its inputs from the store and stages its output there; only reports cross this file.
Completed activities are never re-run on replay, so a worker lost before the commit costs no provider call.
The parent sets the FormationPolicy search attribute when it starts the child (no upsert here).

Not sandboxed: the sandbox re-ran this module and rebuilt the workflow definition for every segment (the
largest single item in a profile of the worker) to guard a body that only awaits four activities. The
replay tests still guard its determinism; logic that decides anything belongs in domain/ or a sandboxed
workflow.
"""

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from activities.commit import CommitActivities
    from activities.contracts import CommitInput, SegmentInput, SegmentOutcome
    from domain.beliefs.commit import CommitReport
    from workflows.poison import bounded_store_local, within_time_bound
    from workflows.policies import COMMIT_START_TO_CLOSE, HEARTBEAT_TIMEOUT, STEP_RETRY
    from workflows.revisions import takes
    from workflows.stages import run_formation_stages


def segment_workflow_id(run_id: str, index: int) -> str:
    return f"segment/{run_id}/{index}"


@workflow.defn(name="FormSegment", sandboxed=False)
class FormSegmentWorkflow:
    @workflow.run
    async def run(self, params: SegmentInput) -> SegmentOutcome:
        stages = await run_formation_stages(params.ref, params.run_id)
        commit = await self._commit(
            CommitInput(ref=params.ref, run_id=params.run_id, admitted_before=params.admitted_before),
            params.revision,
        )
        workflow.logger.info(
            "segment committed",
            extra={"segment_index": params.ref.index, "event_count": params.ref.event_count},
        )
        return SegmentOutcome(ref=params.ref, stages=stages, commit=commit)

    @staticmethod
    async def _commit(params: CommitInput, revision: int) -> CommitReport:
        """A local activity since "commit-local": it runs in the workflow task that the last stage's
        completion starts, and that task also completes the segment (per segment one workflow task, one
        activity task and three history events fewer). The provider calls are behind it in history, so no
        retry of the commit calls a provider again; a second run after a lost task returns the recorded
        report (the commit is idempotent on run and segment key). Bounded like the other local store steps:
        a database outage waits on durable timers, not in a held workflow task."""
        if takes("commit-local", revision):
            return await bounded_store_local(CommitActivities.commit_segment, params)
        return await within_time_bound(
            lambda: workflow.execute_activity_method(
                CommitActivities.commit_segment,
                params,
                start_to_close_timeout=COMMIT_START_TO_CLOSE,
                heartbeat_timeout=HEARTBEAT_TIMEOUT,
                retry_policy=STEP_RETRY,
            ),
            "commit_segment",
        )
