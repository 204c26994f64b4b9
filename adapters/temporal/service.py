"""The `agent worker` process around one worker: the profile's connection, the metrics runtime, tracing,
the deployment version and the health endpoints.

Readiness is the worker polling, the database at a revision this release accepts, and the Temporal
frontend answering its health check; liveness is the worker still running (a worker that stopped on a
fatal error is restarted by the orchestrator instead of idling forever; one still starting is alive).
"""

import asyncio
from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass

from temporalio.client import Client
from temporalio.worker import Worker

from adapters.observability.health import Check, health_endpoint
from adapters.observability.metrics import telemetry_runtime
from adapters.observability.tracing import configure_tracing, tracing_interceptors
from adapters.settings import Settings
from adapters.temporal.client import connect
from adapters.temporal.connection import connect_config
from adapters.temporal.search_attributes import require_search_attributes
from adapters.temporal.versioning import deployment_config, require_reachable
from adapters.temporal.worker import WorkerPorts, activity_executor, build_worker, run_until_signalled

SERVICE_NAME = "memory-worker"
# Probes and scrapes come from outside the container: listen on every interface.
LISTEN_HOST = "0.0.0.0"


@dataclass(frozen=True)
class WorkerOptions:
    task_queue: str
    max_activities: int
    max_workflow_tasks: int
    metrics_port: int | None = None
    health_port: int | None = None


def liveness(worker: Worker) -> dict[str, Check]:
    async def not_stopped() -> bool:
        return not worker.is_shutdown

    return {"worker": not_stopped}


def readiness(worker: Worker, client: Client, database_ready: Callable[[], object]) -> dict[str, Check]:
    async def polling() -> bool:
        return worker.is_running

    async def database() -> bool:
        await asyncio.to_thread(database_ready)  # raises when unreachable or at the wrong revision
        return True

    async def temporal() -> bool:
        return await client.service_client.check_health()

    return {"worker": polling, "database": database, "temporal": temporal}


async def serve(
    settings: Settings,
    ports: WorkerPorts,
    options: WorkerOptions,
    database_ready: Callable[[], object],
) -> None:
    """Connect through the profile, poll until SIGTERM, drain, exit."""
    runtime = telemetry_runtime(f"{LISTEN_HOST}:{options.metrics_port}") if options.metrics_port else None
    tracer_provider = configure_tracing(settings, SERVICE_NAME)
    client = await connect(
        connect_config(settings), runtime=runtime, interceptors=tracing_interceptors(tracer_provider)
    )
    try:
        await require_search_attributes(client)
        await require_reachable(client, settings)
        with activity_executor(options.max_activities) as executor:
            worker = build_worker(
                client,
                ports,
                executor,
                task_queue=options.task_queue,
                max_activities=options.max_activities,
                max_workflow_tasks=options.max_workflow_tasks,
                deployment=deployment_config(settings),
            )
            async with AsyncExitStack() as stack:
                if options.health_port is not None:
                    await stack.enter_async_context(
                        health_endpoint(
                            LISTEN_HOST,
                            options.health_port,
                            live=liveness(worker),
                            ready=readiness(worker, client, database_ready),
                        )
                    )
                await run_until_signalled(worker)
    finally:
        if tracer_provider is not None:
            tracer_provider.shutdown()  # flushes the spans still batched
