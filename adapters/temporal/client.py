"""The agent's side of consolidation: connect with the pydantic converter and report a session idle."""

import asyncio
import contextlib
from collections.abc import Awaitable, Sequence
from typing import TypeVar
from uuid import UUID

from temporalio.client import (
    Client,
    Interceptor,
    WorkflowExecutionStatus,
    WorkflowFailureError,
    WorkflowHandle,
)
from temporalio.common import SearchAttributePair, TypedSearchAttributes
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.envconfig import ClientConnectConfig
from temporalio.runtime import Runtime
from temporalio.service import RPCError, RPCStatusCode

from activities.contracts import SessionKey
from adapters.settings import DEFAULT_TASK_QUEUE
from adapters.temporal.connection import plaintext
from domain.policy.versions import FORMATION_9
from workflows.consolidate_session import (
    IDLE_SIGNAL,
    ConsolidateSessionInput,
    ConsolidateSessionWorkflow,
    ConsolidationSummary,
    session_workflow_id,
)
from workflows.revisions import CURRENT_REVISION
from workflows.search_attributes import FORMATION_POLICY

# formation@9 is the candidate policy the service runs; the frozen controls are for evaluations.
DEFAULT_FORMATION_POLICY = FORMATION_9

T = TypeVar("T")

SessionHandle = WorkflowHandle[ConsolidateSessionWorkflow, ConsolidationSummary]


class TemporalUnavailable(Exception):
    """No Temporal server answered at the address (over TLS when `tls`: a plaintext server cannot)."""

    def __init__(self, address: str, *, tls: bool = False) -> None:
        super().__init__(f"Temporal is not reachable at {address}{' over TLS' if tls else ''}")
        self.address = address
        self.tls = tls


async def connect(
    target: ClientConnectConfig | str,
    *,
    runtime: Runtime | None = None,
    interceptors: Sequence[Interceptor] = (),
) -> Client:
    """A client for a profile's connect config (`connection.connect_config`), or for a plaintext local
    address. `runtime` carries the metrics endpoint; `interceptors` the tracing."""
    config = plaintext(target) if isinstance(target, str) else target
    try:
        return await Client.connect(
            **config,
            data_converter=pydantic_data_converter,
            runtime=runtime,
            interceptors=interceptors,
        )
    except RuntimeError as failed:
        # The SDK's core reports every failure to connect (refused, TLS handshake) as a bare RuntimeError.
        raise TemporalUnavailable(config["target_host"], tls=bool(config.get("tls"))) from failed


async def answered(call: Awaitable[T], address: str) -> T:
    """The call's result. A server that stopped answering after the client connected (the SDK reconnects
    lazily, so a restart surfaces here) is TemporalUnavailable, as one that never answered."""
    try:
        return await call
    except RPCError as failed:
        if failed.status in (RPCStatusCode.UNAVAILABLE, RPCStatusCode.DEADLINE_EXCEEDED):
            raise TemporalUnavailable(address) from failed
        raise


async def session_idle(
    client: Client,
    tenant: str,
    principal: str,
    session: UUID | str,
    *,
    formation_policy: str = DEFAULT_FORMATION_POLICY,
    task_queue: str = DEFAULT_TASK_QUEUE,
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
            revision=CURRENT_REVISION,
        ),
        id=session_workflow_id(tenant, principal, key.session_id),
        task_queue=task_queue,
        start_signal=IDLE_SIGNAL,
        # Set at start, the workflow does not upsert it: one history event and visibility write fewer.
        search_attributes=TypedSearchAttributes([SearchAttributePair(FORMATION_POLICY, formation_policy)]),
    )


async def session_state(client: Client, tenant: str, principal: str, session: UUID) -> str:
    """idle (no consolidation open), running, or quarantined (held before a poisoned segment)."""
    handle = client.get_workflow_handle_for(
        ConsolidateSessionWorkflow.run, session_workflow_id(tenant, principal, session)
    )
    try:
        description = await handle.describe()
    except RPCError as failed:
        if failed.status is RPCStatusCode.NOT_FOUND:
            return "idle"
        raise
    if description.status is not WorkflowExecutionStatus.RUNNING:
        return "idle"
    held = await handle.query(ConsolidateSessionWorkflow.quarantine)
    return "running" if held is None else "quarantined"


async def await_session(client: Client, tenant: str, principal: str, session: UUID, timeout_s: float) -> None:
    """Return when the session's consolidation is done (its workflow closed), or after timeout_s."""
    handle = client.get_workflow_handle(session_workflow_id(tenant, principal, session))
    # A failed or quarantined round is reported by session_state afterwards, not raised here.
    with contextlib.suppress(TimeoutError, WorkflowFailureError, RPCError):
        await asyncio.wait_for(handle.result(), timeout_s)
