"""A worker in its own process, for fault tests: `python -m tests.workflows.worker_process`.

Configured by environment: TEMPORAL_ADDRESS, TASK_QUEUE, DATABASE_URL, CALLS_FILE (one line per provider
call, so calls are counted across processes) and KILL_AT_ACTIVITY (SIGKILL this process as soon as that
activity starts: the crash lands after the stages and before the commit's unit of work) and
PROVIDER_SLEEP_S (each provider call blocks this long after it is recorded, ignoring cancellation). The
process ends like `agent worker`: stopped by SIGTERM, without interpreter finalization."""

import asyncio
import os
import signal
import time
from typing import Any

from temporalio import activity
from temporalio.worker import (
    ActivityInboundInterceptor,
    ExecuteActivityInput,
    Interceptor,
)

from adapters.cli.main import exit_without_finalization
from adapters.postgres.engine import create_store_engine
from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.temporal.client import connect
from adapters.temporal.worker import WorkerPorts, activity_executor, build_worker, run_until_signalled
from domain.providers import ProviderRequest
from tests.workflows.conversations import plausible_answer


class _KillAt(ActivityInboundInterceptor):
    async def execute_activity(self, input: ExecuteActivityInput) -> Any:
        if activity.info().activity_type == os.environ.get("KILL_AT_ACTIVITY"):
            os.kill(os.getpid(), signal.SIGKILL)
        return await super().execute_activity(input)


class KillInterceptor(Interceptor):
    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        return _KillAt(next)


def recording_script(path: str, sleep_s: float):  # type: ignore[no-untyped-def]
    def answer(request: ProviderRequest) -> dict[str, object]:
        with open(path, "a", encoding="utf-8") as calls:
            calls.write(request.stage.value + "\n")
        time.sleep(sleep_s)
        return plausible_answer(request)

    return answer


async def main() -> None:
    store = PostgresStore(create_store_engine(os.environ["DATABASE_URL"]))
    provider = ScriptedProvider(
        recording_script(os.environ["CALLS_FILE"], float(os.environ.get("PROVIDER_SLEEP_S") or 0))
    )
    client = await connect(os.environ["TEMPORAL_ADDRESS"])
    with activity_executor(8) as executor:
        worker = build_worker(
            client,
            WorkerPorts(store, provider),
            executor,
            task_queue=os.environ["TASK_QUEUE"],
            max_activities=8,
            interceptors=[KillInterceptor()],
            graceful_shutdown_s=2.0,
        )
        await run_until_signalled(worker)


if __name__ == "__main__":
    asyncio.run(main())
    exit_without_finalization(0)
