"""Which content-free value moves which `memory_*` instrument, read back from a metric buffer."""

from datetime import UTC, datetime
from uuid import uuid4

from temporalio.runtime import MetricBuffer, Runtime, TelemetryConfig

from activities.contracts import RecordRunInput
from adapters.observability.metrics import CONSOLIDATIONS, RETIREMENTS, ServiceMetrics
from domain.beliefs.lifecycle import SweepPage
from domain.beliefs.records import ClosedReason
from domain.telemetry import ConsolidationRun, RunOutcome


def updates(buffer: MetricBuffer) -> dict[str, list[tuple[float, dict[str, object]]]]:
    found: dict[str, list[tuple[float, dict[str, object]]]] = {}
    for update in buffer.retrieve_updates():
        # service_name is the runtime's own label on every metric
        attributes: dict[str, object] = {k: v for k, v in update.attributes.items() if k != "service_name"}
        found.setdefault(update.metric.name, []).append((float(update.value), attributes))
    return found


def test_sweeps_and_quiet_rounds() -> None:
    buffer = MetricBuffer(1000)
    metrics = ServiceMetrics(Runtime(telemetry=TelemetryConfig(metrics=buffer)).metric_meter)
    page = SweepPage(
        examined=5,
        retired=3,
        skipped_changed=0,
        by_reason={ClosedReason.RETIRED_HYPOTHESIS: 2, ClosedReason.RETIRED_ONGOING: 1},
        next_cursor=None,
        done=True,
    )
    metrics.record_activity(None, page)
    now = datetime.now(UTC)
    quiet = ConsolidationRun(
        id=uuid4(),
        tenant_id="t1",
        principal_id="p1",
        session_id=uuid4(),
        formation_policy="formation@9",
        from_seq=4,
        to_seq=4,
        outcome=RunOutcome.NOTHING_TO_DO,
        started_at=now,
        completed_at=now,
    )
    metrics.record_activity(RecordRunInput(run=quiet), True)
    metrics.record_activity(RecordRunInput(run=quiet), False)  # already recorded: not a new round

    found = updates(buffer)
    assert sorted(found[RETIREMENTS], key=lambda u: u[0]) == [
        (1, {"reason": "retired_ongoing_expired"}),
        (2, {"reason": "retired_hypothesis_expired"}),
    ]
    assert found[CONSOLIDATIONS] == [(1, {"formation_policy": "formation@9", "outcome": "nothing_to_do"})]
    labels = {key for entries in found.values() for _, attributes in entries for key in attributes}
    assert labels <= {"reason", "formation_policy", "outcome", "stage", "failure_class", "kind", "category"}
