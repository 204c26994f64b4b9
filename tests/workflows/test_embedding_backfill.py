"""The embedding backfill on real Temporal and real PostgreSQL: committed beliefs without a vector get one,
page by page, with continue-as-new; a model that is down fails the attempt (retried), never a commit; the
history carries ids and counts only."""

import uuid
from collections.abc import Iterator, Sequence

import pytest
from temporalio.api.enums.v1 import EventType

from adapters.embeddings.wordllama_embedder import WordLlamaEmbedder
from adapters.postgres.uow import PostgresStore
from adapters.temporal.worker import WorkerPorts
from domain.errors import EmbeddingFailed
from tests.builders import belief
from tests.workflows.conftest import time_skipping_harness
from tests.workflows.harness import Harness
from workflows.embedding_backfill import BackfillInput, BackfillSummary, EmbeddingBackfillWorkflow

pytestmark = [pytest.mark.postgres, pytest.mark.temporal]

STATEMENT = "User keeps bees behind the barn."


@pytest.fixture(scope="module")
def skipping() -> Iterator[Harness]:
    with time_skipping_harness() as h:
        yield h


class DownThenUp:
    """An endpoint that refuses its first two calls."""

    def __init__(self) -> None:
        self.calls = 0
        self._model = WordLlamaEmbedder()

    model = "wordllama/l2_supercat_256"
    dimension = 256

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        if self.calls <= 2:
            raise EmbeddingFailed("APIConnectionError")
        return self._model.embed(texts)


def _backfill(h: Harness, ports: WorkerPorts, params: BackfillInput) -> tuple[BackfillSummary, str]:
    tq = f"tq-{uuid.uuid4().hex[:8]}"
    wf_id = f"embedding-backfill-test-{uuid.uuid4().hex[:8]}"
    with h.worker(ports, task_queue=tq):
        summary = h.run(
            h.client.execute_workflow(EmbeddingBackfillWorkflow.run, params, id=wf_id, task_queue=tq)
        )
    return summary, wf_id


def test_committed_beliefs_are_embedded_page_by_page_and_the_history_is_content_free(
    skipping: Harness, store: PostgresStore
) -> None:
    records = [belief(subject=f"hobby:bees-{i}", statement=f"{STATEMENT} Hive {i}.") for i in range(5)]
    with store() as uow:
        uow.beliefs.upsert_many(records)
        uow.commit()
    summary, wf_id = _backfill(
        skipping,
        WorkerPorts(uow_factory=store, provider=None, embedder=WordLlamaEmbedder()),
        BackfillInput(page_size=2, pages_per_run=2),
    )
    # pages of 2, 2 and 1, the third after a continue-as-new
    assert (summary.stored, summary.pages) == (5, 3)
    with store() as uow:
        assert uow.beliefs.pending_embeddings(WordLlamaEmbedder().model, None, 10) == []
    # the last run's history, and the first's it continued as new from
    last = skipping.run(skipping.client.get_workflow_handle(wf_id).fetch_history())
    first_run = last.events[0].workflow_execution_started_event_attributes.continued_execution_run_id
    assert first_run
    first = skipping.run(skipping.client.get_workflow_handle(wf_id, run_id=first_run).fetch_history())
    for history in (last, first):
        text = history.to_json()
        assert "bees" not in text and "Hive" not in text and "barn" not in text


def test_a_model_that_is_down_is_retried_and_never_loses_a_belief(
    skipping: Harness, store: PostgresStore
) -> None:
    record = belief(subject="hobby:bees", statement=STATEMENT)
    with store() as uow:
        uow.beliefs.upsert_many([record])
        uow.commit()
    flaky = DownThenUp()
    summary, wf_id = _backfill(
        skipping, WorkerPorts(uow_factory=store, provider=None, embedder=flaky), BackfillInput()
    )
    assert summary.stored == 1 and flaky.calls == 3
    history = skipping.run(skipping.client.get_workflow_handle(wf_id).fetch_history())
    [started] = [e for e in history.events if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED]
    assert started.activity_task_started_event_attributes.attempt == 3
