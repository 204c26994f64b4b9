"""One trace from `session idle` through the workflows and the three stage activities to the commit, with
no user text in any span."""

import uuid

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from adapters.observability.tracing import tracing_interceptors
from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.temporal.client import connect, session_idle
from adapters.temporal.worker import WorkerPorts
from tests.workflows.conversations import NAMES, conversation, plausible_answer
from tests.workflows.harness import Harness
from tests.workflows.support import OWNER, append

pytestmark = [pytest.mark.temporal, pytest.mark.postgres]


def test_one_trace_from_the_idle_to_the_commit(harness: Harness, store: PostgresStore) -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    client = harness.run(connect(harness.address, interceptors=tracing_interceptors(provider)))
    session = uuid.uuid4()
    events = conversation(OWNER, session, 4, seed=3)
    append(store, events)

    with harness.worker(WorkerPorts(store, ScriptedProvider(plausible_answer)), client=client) as worker:
        handle = harness.run(
            session_idle(client, OWNER.tenant_id, OWNER.principal_id, session, task_queue=worker.task_queue)
        )
        harness.run(handle.result())
    provider.force_flush()

    spans = exporter.get_finished_spans()
    names = {span.name for span in spans}
    assert len({span.context.trace_id for span in spans}) == 1, "one trace"
    for expected in (
        "SignalWithStartWorkflow:ConsolidateSession",
        "RunWorkflow:ConsolidateSession",
        "RunWorkflow:FormSegment",
        "RunActivity:integrate_episodes",
        "RunActivity:anticipate",
        "RunActivity:distill",
        "RunActivity:commit_segment",
    ):
        assert expected in names, expected

    needles = [event.text for event in events] + list(NAMES)
    for span in spans:
        shown = f"{span.name} {dict(span.attributes or {})} {[e.attributes for e in span.events]}"
        assert not any(needle in shown for needle in needles), span.name
