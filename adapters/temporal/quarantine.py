"""Operators' view of quarantined sessions: list them and release one (retry its range, or skip it).

A quarantined session is a running ConsolidateSession whose ConsolidationOutcome is `poisoned`; its
workflow answers the `quarantine` query with the held range, the failing activity and the error class
(never content), and waits for the `release` signal.
"""

from dataclasses import dataclass
from uuid import UUID

from temporalio.client import Client, WorkflowExecutionStatus
from temporalio.service import RPCError, RPCStatusCode

from activities.contracts import Quarantine
from domain.telemetry import RunOutcome
from workflows.consolidate_session import (
    RELEASE_SIGNAL,
    ConsolidateSessionWorkflow,
    session_workflow_id,
)
from workflows.search_attributes import CONSOLIDATION_OUTCOME

QUARANTINED_QUERY = (
    f'WorkflowType="ConsolidateSession" AND ExecutionStatus="Running" '
    f'AND {CONSOLIDATION_OUTCOME.name}="{RunOutcome.POISONED.value}"'
)


class NotQuarantined(Exception):
    """The session holds no quarantine to release; the message carries the workflow id only."""


@dataclass(frozen=True)
class QuarantinedSession:
    workflow_id: str
    quarantine: Quarantine | None


async def list_quarantined(client: Client, limit: int) -> list[QuarantinedSession]:
    rows: list[QuarantinedSession] = []
    async for execution in client.list_workflows(QUARANTINED_QUERY, limit=limit):
        handle = client.get_workflow_handle_for(ConsolidateSessionWorkflow.run, execution.id)
        rows.append(
            QuarantinedSession(execution.id, await handle.query(ConsolidateSessionWorkflow.quarantine))
        )
    return rows


async def release_session(
    client: Client, tenant: str, principal: str, session: UUID, *, skip: bool
) -> Quarantine:
    """Signal the operator's decision to the session's workflow; returns the quarantine released."""
    workflow_id = session_workflow_id(tenant, principal, session)
    handle = client.get_workflow_handle_for(ConsolidateSessionWorkflow.run, workflow_id)
    try:
        described = await handle.describe()
    except RPCError as error:
        if error.status is RPCStatusCode.NOT_FOUND:
            raise NotQuarantined(f"{workflow_id} was never consolidated: nothing is held") from None
        raise
    if described.status is not WorkflowExecutionStatus.RUNNING:
        # A closed consolidation holds nothing; asking it would wait on a worker to replay it.
        closed = described.status.name if described.status else "closed"
        raise NotQuarantined(f"{workflow_id} is not running ({closed}): nothing is held")
    quarantine = await handle.query(ConsolidateSessionWorkflow.quarantine)
    if quarantine is None:
        raise NotQuarantined(f"{workflow_id} holds no quarantined segment")
    if skip and quarantine.last_seq is None:
        raise NotQuarantined(
            f"{workflow_id} could not plan its batch ({quarantine.poison.failure_type} in "
            f"{quarantine.poison.activity}): there is no planned range to skip; retry it once fixed"
        )
    await handle.signal(RELEASE_SIGNAL, skip)
    return quarantine


__all__ = ["QUARANTINED_QUERY", "NotQuarantined", "QuarantinedSession", "list_quarantined", "release_session"]
