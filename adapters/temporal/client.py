"""The agent's side of consolidation: connect with the pydantic converter and report a session idle."""

from uuid import UUID

from temporalio.client import Client, WorkflowHandle
from temporalio.common import SearchAttributePair, TypedSearchAttributes
from temporalio.contrib.pydantic import pydantic_data_converter

from activities.contracts import SessionKey
from domain.policy.versions import FORMATION_9
from workflows.consolidate_session import (
    IDLE_SIGNAL,
    ConsolidateSessionInput,
    ConsolidateSessionWorkflow,
    ConsolidationSummary,
    session_workflow_id,
)
from workflows.search_attributes import FORMATION_POLICY

DEFAULT_ADDRESS = "127.0.0.1:7233"
DEFAULT_NAMESPACE = "default"
TASK_QUEUE = "memory-consolidation"
# formation@9 is the candidate policy the service runs; the frozen controls are for evaluations.
DEFAULT_FORMATION_POLICY = FORMATION_9

SessionHandle = WorkflowHandle[ConsolidateSessionWorkflow, ConsolidationSummary]


class TemporalUnavailable(Exception):
    """No Temporal server answered at the address."""

    def __init__(self, address: str) -> None:
        super().__init__(f"Temporal is not reachable at {address}")
        self.address = address


async def connect(address: str = DEFAULT_ADDRESS, namespace: str = DEFAULT_NAMESPACE) -> Client:
    try:
        return await Client.connect(address, namespace=namespace, data_converter=pydantic_data_converter)
    except RuntimeError as failed:
        # The SDK's core reports every failure to connect as a bare RuntimeError.
        raise TemporalUnavailable(address) from failed


async def session_idle(
    client: Client,
    tenant: str,
    principal: str,
    session: UUID | str,
    *,
    formation_policy: str = DEFAULT_FORMATION_POLICY,
    task_queue: str = TASK_QUEUE,
    repass_initial_backoff_s: float | None = None,
) -> SessionHandle:
    """Signal-with-start: nudges a running consolidation (coalesced into one follow-up round) or starts
    one. Only ids travel; the workflow reads the events from the store. `repass_initial_backoff_s` is the
    first wait of any re-pass the session starts (None: the provider control's)."""
    key = SessionKey(tenant_id=tenant, principal_id=principal, session_id=UUID(str(session)))
    return await client.start_workflow(
        ConsolidateSessionWorkflow.run,
        ConsolidateSessionInput(
            session=key,
            formation_policy=formation_policy,
            repass_initial_backoff_s=repass_initial_backoff_s,
        ),
        id=session_workflow_id(tenant, principal, key.session_id),
        task_queue=task_queue,
        start_signal=IDLE_SIGNAL,
        # Set at start, the workflow does not upsert it: one history event and visibility write fewer.
        search_attributes=TypedSearchAttributes([SearchAttributePair(FORMATION_POLICY, formation_policy)]),
    )
