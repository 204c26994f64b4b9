"""The worker: every workflow and activity, ports injected, sync activities on a bounded thread pool."""

import asyncio
import logging
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from temporalio.client import Client
from temporalio.worker import Interceptor, Worker

from activities.batch import BatchActivities
from activities.commit import CommitActivities
from activities.repass import RepassActivities
from activities.retirement import RetirementActivities
from activities.stages import StageActivities
from adapters.temporal.client import TASK_QUEUE, connect
from adapters.temporal.failures import ContentFreeActivityFailures
from domain.policy.activation import ActivationDecision
from domain.policy.model_policy import MemoryModel
from domain.ports import UnitOfWorkFactory
from domain.providers import Provider
from workflows.consolidate_session import ConsolidateSessionWorkflow
from workflows.form_segment import FormSegmentWorkflow
from workflows.repass import RepassWorkflow
from workflows.retirement_sweep import RetirementSweepWorkflow

log = logging.getLogger(__name__)

WORKFLOWS: Sequence[type] = (
    ConsolidateSessionWorkflow,
    FormSegmentWorkflow,
    RepassWorkflow,
    RetirementSweepWorkflow,
)
# Stage activities mostly wait on a provider, so a worker runs many more of them than it has cores.
DEFAULT_MAX_ACTIVITIES = 64
DEFAULT_MAX_WORKFLOW_TASKS = 64
# In-flight activities get this long to finish on SIGTERM before Temporal retries them elsewhere.
GRACEFUL_SHUTDOWN_S = 30.0


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class WorkerPorts:
    uow_factory: UnitOfWorkFactory
    provider: Provider | None
    clock: Callable[[], datetime] = utc_now
    # The composition's formation policy selection; None (test harnesses): plan as each session asks.
    activation: ActivationDecision | None = None
    # The provider's memory model: formation@8/@10 budget their one call at its prices and context window.
    memory_model: MemoryModel | None = None


def activities_for(ports: WorkerPorts) -> list[Callable[..., Any]]:
    batch = BatchActivities(ports.uow_factory, ports.clock, ports.activation)
    stages = StageActivities(ports.uow_factory, ports.provider, ports.clock, model=ports.memory_model)
    commit = CommitActivities(ports.uow_factory, ports.clock)
    repass = RepassActivities(ports.uow_factory, ports.clock)
    retirement = RetirementActivities(ports.uow_factory)
    return [
        batch.load_batch,
        batch.advance_watermark,
        batch.record_run,
        stages.integrate_episodes,
        stages.anticipate,
        stages.distill,
        stages.extract,
        commit.commit_segment,
        repass.record_exhaustion,
        retirement.retire_expired_page,
    ]


@contextmanager
def activity_executor(max_activities: int = DEFAULT_MAX_ACTIVITIES) -> Iterator[ThreadPoolExecutor]:
    executor = ThreadPoolExecutor(max_workers=max_activities, thread_name_prefix="activity")
    try:
        yield executor
    finally:
        executor.shutdown(wait=False, cancel_futures=True)


def build_worker(
    client: Client,
    ports: WorkerPorts,
    executor: ThreadPoolExecutor,
    *,
    task_queue: str = TASK_QUEUE,
    max_activities: int = DEFAULT_MAX_ACTIVITIES,
    max_workflow_tasks: int = DEFAULT_MAX_WORKFLOW_TASKS,
    interceptors: Sequence[Interceptor] = (),
    graceful_shutdown_s: float = GRACEFUL_SHUTDOWN_S,
) -> Worker:
    return Worker(
        client,
        task_queue=task_queue,
        workflows=list(WORKFLOWS),
        activities=activities_for(ports),
        activity_executor=executor,
        max_concurrent_activities=max_activities,
        max_concurrent_workflow_tasks=max_workflow_tasks,
        # Always installed: no activity error message reaches a history or a log line.
        interceptors=[ContentFreeActivityFailures(), *interceptors],
        graceful_shutdown_timeout=timedelta(seconds=graceful_shutdown_s),
    )


async def run_until_signalled(
    worker: Worker, signals: Sequence[int] = (signal.SIGTERM, signal.SIGINT)
) -> None:
    """Run the worker until SIGTERM/SIGINT, then shut down gracefully: stop polling, let running
    activities finish (up to the graceful timeout), complete."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in signals:
        loop.add_signal_handler(signum, stop.set)
    try:
        async with worker:
            log.info("worker polling", extra={"task_queue": worker.task_queue})
            await stop.wait()
            log.info("worker shutting down")
    finally:
        for signum in signals:
            loop.remove_signal_handler(signum)


async def serve(
    ports: WorkerPorts,
    *,
    address: str,
    namespace: str,
    task_queue: str = TASK_QUEUE,
    max_activities: int = DEFAULT_MAX_ACTIVITIES,
    max_workflow_tasks: int = DEFAULT_MAX_WORKFLOW_TASKS,
) -> None:
    """`agent worker`: connect, poll until SIGTERM, drain, exit."""
    client = await connect(address, namespace)
    with activity_executor(max_activities) as executor:
        worker = build_worker(
            client,
            ports,
            executor,
            task_queue=task_queue,
            max_activities=max_activities,
            max_workflow_tasks=max_workflow_tasks,
        )
        await run_until_signalled(worker)
