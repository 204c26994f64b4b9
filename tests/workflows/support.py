"""Helpers shared by the workflow tests: seed the store, run a consolidation, collect every history."""

import time
from collections import Counter
from dataclasses import dataclass
from uuid import UUID

from temporalio.client import WorkflowHistory

from activities.contracts import SessionKey
from adapters.temporal.client import DEFAULT_FORMATION_POLICY, session_idle
from domain.events import SourceEvent
from domain.owner import Owner
from domain.ports import UnitOfWorkFactory
from domain.telemetry import ConsolidationRun
from tests.workflows.harness import Harness
from workflows.consolidate_session import (
    IDLE_SIGNAL,
    ConsolidateSessionInput,
    ConsolidateSessionWorkflow,
    ConsolidationSummary,
    session_workflow_id,
)
from workflows.revisions import CURRENT_REVISION

OWNER = Owner(tenant_id="t1", principal_id="p1")


def append(store: UnitOfWorkFactory, events: list[SourceEvent]) -> None:
    with store() as uow:
        uow.events.append(events)
        uow.commit()


def consolidate(
    harness: Harness, task_queue: str, session: UUID, owner: Owner = OWNER, timeout: float = 180.0
) -> ConsolidationSummary:
    handle = harness.run(
        session_idle(harness.client, owner.tenant_id, owner.principal_id, session, task_queue=task_queue)
    )
    return harness.run(handle.result(), timeout=timeout)


async def start_with_budget(
    harness: Harness, task_queue: str, session: UUID, budget: int, owner: Owner = OWNER
) -> object:
    key = SessionKey(tenant_id=owner.tenant_id, principal_id=owner.principal_id, session_id=session)
    return await harness.client.start_workflow(
        ConsolidateSessionWorkflow.run,
        ConsolidateSessionInput(
            session=key,
            formation_policy=DEFAULT_FORMATION_POLICY,
            history_event_budget=budget,
            revision=CURRENT_REVISION,
        ),
        id=session_workflow_id(owner.tenant_id, owner.principal_id, session),
        task_queue=task_queue,
        start_signal=IDLE_SIGNAL,
    )


def histories(harness: Harness, task_queue: str, *, at_least: int = 1) -> dict[str, WorkflowHistory]:
    """Every execution (each run of each workflow) on the task queue, keyed "workflow_id@run_id"."""

    async def collect() -> dict[str, WorkflowHistory]:
        found: dict[str, WorkflowHistory] = {}
        async for execution in harness.client.list_workflows(f'TaskQueue = "{task_queue}"'):
            handle = harness.client.get_workflow_handle(execution.id, run_id=execution.run_id)
            found[f"{execution.id}@{execution.run_id}"] = await handle.fetch_history()
        return found

    deadline = time.monotonic() + 30
    while True:
        found = harness.run(collect())
        # Visibility is eventually consistent: wait until every execution is listed.
        if len(found) >= at_least or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def by_workflow_type(found: dict[str, WorkflowHistory], prefix: str) -> dict[str, WorkflowHistory]:
    return {key: history for key, history in found.items() if key.startswith(prefix)}


@dataclass(frozen=True)
class StoreCounts:
    episodes: int
    episode_keys: int
    beliefs: int
    audits: Counter[str]
    audit_keys: int
    runs: list[ConsolidationRun]
    watermark: int


def store_counts(store: UnitOfWorkFactory, session: UUID, owner: Owner = OWNER) -> StoreCounts:
    with store() as uow:
        episodes = uow.episodes.for_session(owner, session)
        beliefs = uow.beliefs.page(owner, None, 10_000, live_only=False)
        audits = uow.audits.for_owner(owner)
        runs = uow.runs.for_session(owner, session)
        watermark = uow.watermarks.get(owner, session)
    return StoreCounts(
        episodes=len(episodes),
        episode_keys=len({e.derivation_key for e in episodes}),
        beliefs=len(beliefs),
        audits=Counter(a.kind.value for a in audits),
        audit_keys=len({a.dedupe_key for a in audits}),
        runs=runs,
        watermark=watermark,
    )
