"""A worker in its own process for the re-pass fault test: `python -m tests.workflows.repass_worker`.

Configured by environment: TEMPORAL_ADDRESS, TASK_QUEUE, DATABASE_URL, CALLS_FILE (one line per provider
call answered, counted across processes), PROVIDER_DOWN_CALLS (the first calls fail, transient) and KILL_AT_ACTIVITY (SIGKILL this process as soon as that activity starts
inside a Repass workflow). The provider answers correctly for the fixture conversations."""

import asyncio
import os
import signal
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

from temporalio import activity
from temporalio.worker import ActivityInboundInterceptor, ExecuteActivityInput, Interceptor, Worker

from adapters.postgres.engine import create_store_engine
from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.temporal.client import connect
from adapters.temporal.worker import WORKFLOWS, WorkerPorts, activities_for, run_until_signalled
from domain.providers import ProviderFailure, ProviderRequest, transient
from domain.telemetry import Stage
from tests import scripted_answers as answers

PERSONAL_AGENT: dict[Stage, dict[str, Any]] = {
    Stage.INTEGRATION: answers.PERSONAL_AGENT_INTEGRATION,
    Stage.ANTICIPATION: answers.NO_PREDICTIONS,
    Stage.DISTILLATION: answers.personal_agent_distillation(),
}
TRAINING: dict[Stage, dict[str, Any]] = {
    Stage.INTEGRATION: answers.TRAINING_INTEGRATION,
    Stage.ANTICIPATION: answers.NO_PREDICTIONS,
    Stage.DISTILLATION: answers.training_distillation(),
}


def correct_answer(request: ProviderRequest) -> dict[str, Any]:
    """What a correct model answers for either fixture conversation (told apart by their words)."""
    script = TRAINING if "5x5" in request.content else PERSONAL_AGENT
    return script[request.stage]


class _KillInRepass(ActivityInboundInterceptor):
    async def execute_activity(self, input: ExecuteActivityInput) -> Any:
        info = activity.info()
        if info.workflow_type == "Repass" and info.activity_type == os.environ.get("KILL_AT_ACTIVITY"):
            os.kill(os.getpid(), signal.SIGKILL)
        return await super().execute_activity(input)


class KillInterceptor(Interceptor):
    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        return _KillInRepass(next)


def recording(path: str, down_calls: int) -> Any:
    """Fails the first down_calls calls of this process (transient), then answers correctly."""
    made = [0]

    def answer(request: ProviderRequest) -> dict[str, Any] | ProviderFailure:
        made[0] += 1
        if made[0] <= down_calls:
            return transient("http_503")
        with open(path, "a", encoding="utf-8") as calls:
            calls.write(request.stage.value + "\n")
        return correct_answer(request)

    return answer


async def main() -> None:
    store = PostgresStore(create_store_engine(os.environ["DATABASE_URL"]))
    down = int(os.environ.get("PROVIDER_DOWN_CALLS") or 0)
    provider = ScriptedProvider(recording(os.environ["CALLS_FILE"], down))
    client = await connect(os.environ["TEMPORAL_ADDRESS"])
    with ThreadPoolExecutor(max_workers=8) as executor:
        # No workflow cache: the time-skipping test server never moves a task off a dead worker's sticky
        # queue, so a killed worker must not hold one.
        worker = Worker(
            client,
            task_queue=os.environ["TASK_QUEUE"],
            workflows=list(WORKFLOWS),
            activities=activities_for(WorkerPorts(store, provider)),
            activity_executor=executor,
            max_concurrent_activities=8,
            max_cached_workflows=0,
            interceptors=[KillInterceptor()],
            graceful_shutdown_timeout=timedelta(seconds=2),
        )
        await run_until_signalled(worker)


if __name__ == "__main__":
    asyncio.run(main())
