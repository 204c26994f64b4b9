"""Operators' view of re-passes: list them by state and retry an exhausted or abandoned one."""

from dataclasses import dataclass

from temporalio.client import Client
from temporalio.common import WorkflowIDReusePolicy

from workflows.repass import RepassInput, RepassWorkflow


@dataclass(frozen=True)
class RepassRow:
    workflow_id: str
    run_id: str | None
    status: str
    state: str | None


def state_query(state: str | None) -> str:
    base = 'WorkflowType="Repass"'
    return f'{base} AND RepassState="{state}"' if state else base


async def list_repasses(client: Client, state: str | None, limit: int) -> list[RepassRow]:
    rows: list[RepassRow] = []
    async for execution in client.list_workflows(state_query(state), limit=limit):
        values = execution.search_attributes.get("RepassState") or []
        rows.append(
            RepassRow(
                workflow_id=execution.id,
                run_id=execution.run_id,
                status=execution.status.name if execution.status else "UNKNOWN",
                state=str(values[0]) if values else None,
            )
        )
    return rows


async def retry_repass(client: Client, workflow_id: str, task_queue: str) -> str:
    """Start the range's re-pass again from its recorded input (ids and a range, no content)."""
    history = await client.get_workflow_handle(workflow_id).fetch_history()
    started = history.events[0].workflow_execution_started_event_attributes
    (original,) = await client.data_converter.decode(started.input.payloads, [RepassInput])
    handle = await client.start_workflow(
        RepassWorkflow.run,
        original,
        id=workflow_id,
        task_queue=task_queue,
        id_reuse_policy=WorkflowIDReusePolicy.ALLOW_DUPLICATE,
    )
    return handle.result_run_id or ""
