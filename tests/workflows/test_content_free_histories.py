"""No source text in any workflow history, search attribute or log line, after real consolidations."""

import logging
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.temporal.worker import WorkerPorts
from domain.owner import Owner
from domain.providers import transient
from domain.telemetry import Stage
from tests.builders import belief
from tests.workflows.conversations import NAMES, conversation, plausible_answer
from tests.workflows.harness import Harness
from tests.workflows.support import append, consolidate, histories
from workflows.retirement_sweep import RetirementSweepWorkflow, SweepInput

pytestmark = [pytest.mark.temporal, pytest.mark.postgres]

OWNERS = [Owner(tenant_id="t1", principal_id="p1"), Owner(tenant_id="t2", principal_id="alice")]


class _Failing(ScriptedProvider):
    def __init__(self) -> None:
        super().__init__(plausible_answer)

    def complete(self, request):  # type: ignore[no-untyped-def]
        if request.stage is Stage.DISTILLATION and request.content.count("\n") % 2 == 0:
            with self._lock:
                self.calls[request.stage] += 1
            raise transient("timeout")
        return super().complete(request)


def test_no_source_text_in_histories_search_attributes_or_logs(
    harness: Harness, store: PostgresStore, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    sessions = []
    texts: set[str] = set()
    for index, owner in enumerate(OWNERS):
        for turns in (3, 45):
            session = uuid.uuid4()
            events = conversation(owner, session, turns, seed=index * 100 + turns)
            append(store, events)
            texts.update(e.text for e in events)
            sessions.append((owner, session))

    with harness.worker(WorkerPorts(store, _Failing())) as worker:
        for owner, session in sessions:
            consolidate(harness, worker.task_queue, session, owner)
        found = histories(harness, worker.task_queue, at_least=2 * len(sessions))

    needles = [t.encode() for t in texts] + [n.encode() for n in NAMES]
    for key, history in found.items():
        for event in history.events:
            raw = event.SerializeToString()
            leaked = [n for n in needles if n in raw]
            assert not leaked, f"{key} event {event.event_id} carries source text"

    async def attributes() -> list[str]:
        values: list[str] = []
        for key in found:
            workflow_id, run_id = key.split("@")
            described = await harness.client.get_workflow_handle(workflow_id, run_id=run_id).describe()
            values += [str(pair.value) for pair in described.typed_search_attributes]
            assert not described.raw_description.workflow_execution_info.memo.fields
        return values

    values = harness.run(attributes())
    assert values, "workflows upsert their search attributes"
    assert "waiting" in values, "a transient fallback starts a re-pass, waiting on its first timer"
    for value in values:
        assert not any(n.decode() in value for n in needles)

    assert caplog.records
    for record in caplog.records:
        line = f"{record.getMessage()} {record.__dict__}"
        assert not any(n.decode() in line for n in needles), (
            f"log line from {record.name} carries source text"
        )


class _QuotingOnce:
    """A store whose first commit fails the way PostgreSQL does on a bad row: quoting the row."""

    def __init__(self, inner: PostgresStore, quoted: str) -> None:
        self.inner, self.quoted, self.failed = inner, quoted, False

    def __call__(self) -> Any:
        store = self

        class _Uow:
            def __enter__(self) -> Any:
                self.inner = store.inner().__enter__()
                return self

            def __exit__(self, *exc: Any) -> None:
                self.inner.__exit__(*exc)

            def __getattr__(self, name: str) -> Any:
                return getattr(self.inner, name)

            def commit(self) -> None:
                if not store.failed:
                    store.failed = True
                    raise RuntimeError(
                        f"new row violates check constraint DETAIL: Failing row contains ({store.quoted})"
                    )
                self.inner.commit()

        return _Uow()

    def autocommit(self) -> Any:
        return self.inner.autocommit()


def test_a_failed_activity_attempt_reaches_the_history_without_its_message(
    harness: Harness, store: PostgresStore, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    stale = belief(
        statement="User keeps a private diary about Marguerite.",
        valid_from=datetime.now(UTC) - timedelta(days=120),
        last_evidence_at=datetime.now(UTC) - timedelta(days=100),
    )
    with store() as uow:
        uow.beliefs.upsert(stale)
        uow.commit()
    quoting = _QuotingOnce(store, stale.statement)
    with harness.worker(WorkerPorts(quoting, None)) as worker:
        summary = harness.run(
            harness.client.execute_workflow(
                RetirementSweepWorkflow.run,
                SweepInput(),
                id=f"retirement-sweep-quoting-{uuid.uuid4().hex[:8]}",
                task_queue=worker.task_queue,
            )
        )
        (history,) = histories(harness, worker.task_queue).values()
    assert quoting.failed and summary.retired == 1
    # The failed attempt is in the history (the retried activity's last failure), named by class only.
    failures = [
        e.activity_task_started_event_attributes.last_failure
        for e in history.events
        if e.HasField("activity_task_started_event_attributes")
        and e.activity_task_started_event_attributes.HasField("last_failure")
    ]
    assert [f.application_failure_info.type for f in failures] == ["RuntimeError"]
    assert "message withheld" in failures[0].message
    for event in history.events:
        assert b"Marguerite" not in event.SerializeToString()
    for record in caplog.records:
        assert "Marguerite" not in f"{record.getMessage()} {record.__dict__} {record.exc_text or ''}"
