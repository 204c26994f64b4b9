"""Operators' view of re-passes: list them by state and retry an exhausted or abandoned one."""

from dataclasses import dataclass

from temporalio.client import Client, WorkflowExecutionStatus
from temporalio.common import WorkflowIDReusePolicy
from temporalio.service import RPCError, RPCStatusCode

from domain.policy.repass import RepassState
from workflows.repass import RepassInput, RepassWorkflow
from workflows.search_attributes import REPASS_STATE

WORKFLOW_TYPE = "Repass"


class RepassNotRetryable(Exception):
    """The re-pass does not exist, is still running, succeeded, or the id names another workflow type; the
    message carries the workflow id and type only."""


@dataclass(frozen=True)
class RepassRow:
    workflow_id: str
    run_id: str | None
    status: str
    state: str | None


def state_query(state: str | RepassState | None) -> str:
    """The visibility query an operator types in the Temporal UI or `temporal workflow list --query`.

    The state is checked against RepassState, so a typo is an error rather than an empty list (and nothing
    but a known value is ever spliced into the query)."""
    base = f'WorkflowType="{WORKFLOW_TYPE}"'
    return f'{base} AND {REPASS_STATE.name}="{RepassState(state).value}"' if state else base


async def list_repasses(client: Client, state: str | RepassState | None, limit: int) -> list[RepassRow]:
    rows: list[RepassRow] = []
    async for execution in client.list_workflows(state_query(state), limit=limit):
        rows.append(
            RepassRow(
                workflow_id=execution.id,
                run_id=execution.run_id,
                status=execution.status.name if execution.status else "UNKNOWN",
                state=execution.typed_search_attributes.get(REPASS_STATE),
            )
        )
    return rows


async def retry_repass(client: Client, workflow_id: str, task_queue: str) -> str:
    """Start the range's re-pass again from its recorded input (ids and a range, no content), with a fresh
    attempt budget; returns the new run id. Refuses a re-pass that is still running or that succeeded, and
    a workflow of another type (its input is no re-pass's)."""
    handle = client.get_workflow_handle(workflow_id)
    try:
        described = await handle.describe()
    except RPCError as error:
        if error.status is RPCStatusCode.NOT_FOUND:
            raise RepassNotRetryable(f"no re-pass {workflow_id}") from None
        raise
    if described.workflow_type != WORKFLOW_TYPE:
        raise RepassNotRetryable(f"{workflow_id} is no re-pass (a {described.workflow_type} workflow)")
    if described.status is WorkflowExecutionStatus.RUNNING:
        raise RepassNotRetryable(f"re-pass {workflow_id} is still running")
    if described.typed_search_attributes.get(REPASS_STATE) == RepassState.SUCCEEDED.value:
        raise RepassNotRetryable(f"re-pass {workflow_id} succeeded: nothing to retry")
    # The first run's input: every run of this id was started from it.
    history = await client.get_workflow_handle(workflow_id, run_id=described.run_id).fetch_history()
    started = history.events[0].workflow_execution_started_event_attributes
    (original,) = await client.data_converter.decode(started.input.payloads, [RepassInput])
    retried = await client.start_workflow(
        RepassWorkflow.run,
        original,
        id=workflow_id,
        task_queue=described.task_queue or task_queue,
        id_reuse_policy=WorkflowIDReusePolicy.ALLOW_DUPLICATE,
    )
    return retried.result_run_id or ""
