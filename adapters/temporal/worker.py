"""The worker: every workflow and activity, ports injected, sync activities on a bounded thread pool."""

import asyncio
import logging
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from temporalio.client import Client
from temporalio.runtime import Runtime
from temporalio.worker import Interceptor, Worker, WorkerDeploymentConfig

from activities.batch import BatchActivities
from activities.commit import CommitActivities
from activities.embedding import EmbeddingActivities
from activities.formation_tuple import AlternativeTuples
from activities.quarantine import QuarantineActivities
from activities.repass import RepassActivities
from activities.retirement import RetirementActivities
from activities.stages import StageActivities
from adapters.observability.metrics import MetricsInterceptor, ServiceMetrics
from adapters.settings import DEFAULT_MAX_ACTIVITIES, DEFAULT_MAX_WORKFLOW_TASKS, DEFAULT_TASK_QUEUE
from adapters.temporal.failures import ContentFreeActivityFailures
from domain.beliefs.embedding import Embedder
from domain.policy.activation import ActivationDecision
from domain.policy.model_policy import MemoryModel
from domain.ports import UnitOfWorkFactory
from domain.providers import Provider
from workflows.consolidate_session import ConsolidateSessionWorkflow
from workflows.embedding_backfill import EmbeddingBackfillWorkflow
from workflows.form_segment import FormSegmentWorkflow
from workflows.repass import RepassWorkflow
from workflows.retirement_sweep import RetirementSweepWorkflow

log = logging.getLogger(__name__)

WORKFLOWS: Sequence[type] = (
    ConsolidateSessionWorkflow,
    FormSegmentWorkflow,
    RepassWorkflow,
    RetirementSweepWorkflow,
    EmbeddingBackfillWorkflow,
)
# In-flight activities get this long to finish on SIGTERM before Temporal retries them elsewhere.
GRACEFUL_SHUTDOWN_S = 30.0
# After the graceful timeout, cancelled activities get this long to give way before the worker stops anyway.
SHUTDOWN_MARGIN_S = 5.0
# A workflow task waiting on a lost worker's sticky queue moves to the shared queue after this (the SDK's
# default is 10 s): a crashed worker then delays its sessions by seconds, not tens.
STICKY_SCHEDULE_TO_START: Final = timedelta(seconds=2)


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
    # Owner-selected alternative tuples (ADR-0119); None: every call runs on the configured tuple.
    alternatives: AlternativeTuples | None = None
    # The embedding model beliefs are embedded with after their commit; None: the backfill does nothing.
    embedder: Embedder | None = None


def activities_for(ports: WorkerPorts) -> list[Callable[..., Any]]:
    batch = BatchActivities(ports.uow_factory, ports.clock, ports.activation)
    stages = StageActivities(
        ports.uow_factory,
        ports.provider,
        ports.clock,
        model=ports.memory_model,
        alternatives=ports.alternatives,
    )
    commit = CommitActivities(ports.uow_factory, ports.clock)
    repass = RepassActivities(ports.uow_factory, ports.clock)
    retirement = RetirementActivities(ports.uow_factory)
    quarantine = QuarantineActivities(ports.uow_factory, ports.clock)
    embedding = EmbeddingActivities(ports.uow_factory, ports.embedder)
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
        quarantine.record_quarantine,
        quarantine.release_quarantine,
        embedding.embed_page,
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
    task_queue: str = DEFAULT_TASK_QUEUE,
    max_activities: int = DEFAULT_MAX_ACTIVITIES,
    max_workflow_tasks: int = DEFAULT_MAX_WORKFLOW_TASKS,
    interceptors: Sequence[Interceptor] = (),
    graceful_shutdown_s: float = GRACEFUL_SHUTDOWN_S,
    deployment: WorkerDeploymentConfig | None = None,
) -> Worker:
    # The service's metrics go wherever the client's runtime sends the SDK's (nowhere by default).
    meter = (client.service_client.config.runtime or Runtime.default()).metric_meter
    return Worker(
        client,
        task_queue=task_queue,
        workflows=list(WORKFLOWS),
        activities=activities_for(ports),
        activity_executor=executor,
        max_concurrent_activities=max_activities,
        max_concurrent_workflow_tasks=max_workflow_tasks,
        # Always installed: no activity error message reaches a history or a log line.
        interceptors=[
            ContentFreeActivityFailures(),
            MetricsInterceptor(ServiceMetrics(meter)),
            *interceptors,
        ],
        graceful_shutdown_timeout=timedelta(seconds=graceful_shutdown_s),
        sticky_queue_schedule_to_start_timeout=STICKY_SCHEDULE_TO_START,
        deployment_config=deployment,
    )


async def run_until_signalled(
    worker: Worker, signals: Sequence[int] = (signal.SIGTERM, signal.SIGINT)
) -> None:
    """Run the worker until SIGTERM/SIGINT, then stop it within its graceful timeout (run_until)."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in signals:
        loop.add_signal_handler(signum, stop.set)
    try:
        await run_until(worker, stop)
    finally:
        for signum in signals:
            loop.remove_signal_handler(signum)


async def run_until(worker: Worker, stop: asyncio.Event) -> None:
    """Poll until stop is set, then shut down: stop polling, let running activities finish for the
    graceful timeout, cancel them (sync activities give way at their next heartbeat or check). An activity
    blocked past that (a provider call that ignores cancellation) is not waited for beyond a short margin:
    its attempt is lost with this worker and Temporal retries it elsewhere, as for a crash."""
    running = asyncio.create_task(worker.run())
    stopping = asyncio.create_task(stop.wait())
    config = worker.config()
    deployment = config.get("deployment_config")
    version = deployment.version if deployment is not None else None
    log.info(
        "worker polling",
        extra={
            "namespace": worker.client.namespace,
            "task_queue": worker.task_queue,
            # The version an operator makes current with `temporal worker deployment set-current-version`.
            "deployment": version.deployment_name if version else None,
            "build_id": version.build_id if version else None,
            "versioning": deployment.use_worker_versioning if deployment is not None else False,
        },
    )
    await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if running.done():
        running.result()  # the worker failed on its own: say why
        return
    log.info("worker shutting down")
    grace = config.get("graceful_shutdown_timeout") or timedelta()
    shutdown = asyncio.create_task(worker.shutdown())
    done, _ = await asyncio.wait({running}, timeout=grace.total_seconds() + SHUTDOWN_MARGIN_S)
    if not done:
        log.warning("activities still running after the graceful timeout; left to Temporal's retries")
        for task in (running, shutdown):
            task.cancel()
