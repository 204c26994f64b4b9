"""A Temporal test harness: one background event loop, tests stay synchronous.

The dev server, clients and workers live on one loop in a daemon thread; a test submits coroutines to it.
That keeps one session-wide server (no async test plugin needed) and lets sync activities (thread pool)
and test code touch the store directly.
"""

import asyncio
import json
import threading
import uuid
from collections.abc import Coroutine, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

from temporalio.api.enums.v1 import EventType
from temporalio.client import Client, WorkflowHistory
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import Interceptor, Worker, WorkerDeploymentConfig

from adapters.temporal.worker import WorkerPorts, build_worker

T = TypeVar("T")


class Harness:
    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="temporal-harness", daemon=True)
        self._thread.start()
        self.env: WorkflowEnvironment | None = None

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 180.0) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    @property
    def client(self) -> Client:
        assert self.env is not None
        return self.env.client

    @property
    def address(self) -> str:
        return self.client.service_client.config.target_host

    @contextmanager
    def worker(
        self,
        ports: WorkerPorts,
        *,
        task_queue: str | None = None,
        interceptors: Sequence[Interceptor] = (),
        max_activities: int = 16,
        client: Client | None = None,
        deployment: WorkerDeploymentConfig | None = None,
    ) -> Iterator[Worker]:
        """A worker on this loop; on `client` (a profile's, a metrics runtime's) instead of the server's own."""
        executor = ThreadPoolExecutor(max_workers=max_activities, thread_name_prefix="test-activity")

        async def make() -> Worker:
            return build_worker(
                client or self.client,
                ports,
                executor,
                task_queue=task_queue or f"tq-{uuid.uuid4().hex[:8]}",
                max_activities=max_activities,
                interceptors=interceptors,
                graceful_shutdown_s=2.0,
                deployment=deployment,
            )

        worker = self.run(make())
        running = asyncio.run_coroutine_threadsafe(worker.run(), self.loop)
        try:
            yield worker
        finally:
            self.run(worker.shutdown(), timeout=60)
            running.result(timeout=60)
            # A sync activity cannot be interrupted; never let one hang the test session.
            executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        if self.env is not None:
            self.run(self.env.shutdown(), timeout=60)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=10)


def scheduled_activities(history: WorkflowHistory) -> list[str]:
    return [
        event.activity_task_scheduled_event_attributes.activity_type.name
        for event in history.events
        if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED
    ]


def local_activities(history: WorkflowHistory) -> list[str]:
    """The activity type of every local activity the history recorded a result for (one marker each)."""
    names = []
    for event in history.events:
        if event.event_type != EventType.EVENT_TYPE_MARKER_RECORDED:
            continue
        attributes = event.marker_recorded_event_attributes
        if attributes.marker_name == "core_local_activity":
            names.append(json.loads(attributes.details["data"].payloads[0].data)["activity_type"])
    return names


def started_children(history: WorkflowHistory) -> list[str]:
    return [
        event.start_child_workflow_execution_initiated_event_attributes.workflow_id
        for event in history.events
        if event.event_type == EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED
    ]
