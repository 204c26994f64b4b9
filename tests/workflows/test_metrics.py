"""The worker's /metrics after real consolidations: the SDK's and the service's counters moved, and the
scrape names no user text and no tenant or principal."""

import urllib.request
import uuid

import pytest

from adapters.observability.metrics import (
    CANDIDATES,
    CONSOLIDATIONS,
    PROVIDER_CALLS,
    REPASSES_STARTED,
    SEGMENTS,
    STAGE_FALLBACKS,
    STAGE_LATENCY,
    STAGE_TOKENS,
    telemetry_runtime,
)
from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.temporal.client import connect
from adapters.temporal.worker import WorkerPorts
from domain.owner import Owner
from domain.providers import ProviderRequest, ProviderResponse, transient
from domain.telemetry import Stage
from tests.ports import free_port
from tests.unit.test_dashboard import dashboard_metrics
from tests.workflows.conversations import NAMES, conversation, plausible_answer
from tests.workflows.harness import Harness
from tests.workflows.support import append, consolidate

pytestmark = [pytest.mark.temporal, pytest.mark.postgres]

OWNER = Owner(tenant_id="tenant-qz81", principal_id="principal-xv27")


class TransientDistiller(ScriptedProvider):
    """Answers integration and anticipation; distillation times out, so every segment falls back and
    starts a re-pass."""

    def __init__(self) -> None:
        super().__init__(plausible_answer)

    def complete(self, request: ProviderRequest) -> ProviderResponse:
        if request.stage is Stage.DISTILLATION:
            raise transient("timeout")
        return super().complete(request)


def samples(scrape: str, metric: str) -> float:
    """The sum of a metric's samples over every label set."""
    total = 0.0
    for line in scrape.splitlines():
        name = line.split("{", 1)[0].split(" ", 1)[0]
        if name == metric:
            total += float(line.rsplit(" ", 1)[1])
    return total


def test_a_scrape_after_consolidations_moves_the_counters_and_holds_no_user_text(
    harness: Harness, store: PostgresStore
) -> None:
    port = free_port()
    client = harness.run(connect(harness.address, runtime=telemetry_runtime(f"127.0.0.1:{port}")))
    texts: set[str] = set()
    sessions = [uuid.uuid4() for _ in range(2)]
    for index, session in enumerate(sessions):
        events = conversation(OWNER, session, 30, seed=index + 11)
        append(store, events)
        texts.update(event.text for event in events)

    with harness.worker(WorkerPorts(store, TransientDistiller()), client=client) as worker:
        for session in sessions:
            consolidate(harness, worker.task_queue, session, OWNER)
        scrape = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()

    assert samples(scrape, f"{CONSOLIDATIONS}_total") >= 2
    assert samples(scrape, f"{SEGMENTS}_total") >= 2
    assert samples(scrape, f"{PROVIDER_CALLS}_total") >= 6, "three provider calls per segment"
    assert samples(scrape, f"{STAGE_FALLBACKS}_total") >= 1, "the failing distiller fell back"
    assert 'failure_class="transient"' in scrape
    assert samples(scrape, f"{CANDIDATES}_total") >= 1
    assert samples(scrape, f"{REPASSES_STARTED}_total") >= 1
    assert samples(scrape, f"{STAGE_LATENCY}_count") >= 6
    assert samples(scrape, f"{STAGE_TOKENS}_count") >= 6
    assert "temporal_workflow_completed" in scrape, "the SDK's own metrics share the endpoint"
    exported = {line.split("{", 1)[0].split(" ", 1)[0] for line in scrape.splitlines() if line[:1] != "#"}
    sdk_queried = {name for name in dashboard_metrics() if name.startswith("temporal_")}
    assert sdk_queried <= exported, sdk_queried - exported

    for needle in [*texts, *NAMES, OWNER.tenant_id, OWNER.principal_id, *map(str, sessions)]:
        assert needle not in scrape
