"""A worker whose activation chose no provider policy forms deterministically and its workflows say so:
FormationPolicy="deterministic" on the session and its segments, formation@9's pipeline in the records."""

import uuid

import pytest

from adapters.postgres.uow import PostgresStore
from adapters.temporal.worker import WorkerPorts
from domain.policy.activation import FormationMode, ShippedCorpora, select_formation_policy
from domain.policy.versions import FORMATION_9
from domain.telemetry import FailureClass
from tests.evidence_builders import RUNNING
from tests.workflows.conversations import conversation
from tests.workflows.harness import Harness
from tests.workflows.support import OWNER, append, consolidate
from workflows.search_attributes import FORMATION_POLICY

pytestmark = [pytest.mark.temporal, pytest.mark.postgres]

NO_CORPORA = ShippedCorpora(corpus_digest=None, holdout_digest=None, formation_corpus_digest=None)


def test_deterministic_selection_shows_in_the_search_attribute(
    harness: Harness, store: PostgresStore
) -> None:
    decision = select_formation_policy(
        running=RUNNING, artifacts=(), corpora=NO_CORPORA, mode=FormationMode.AUTO
    )
    session = uuid.uuid4()
    append(store, conversation(OWNER, session, 3, seed=3))

    with harness.worker(WorkerPorts(store, None, activation=decision)) as worker:
        summary = consolidate(harness, worker.task_queue, session)

        async def attributes() -> list[str | None]:
            values: list[str | None] = []
            async for execution in harness.client.list_workflows(f'TaskQueue = "{worker.task_queue}"'):
                described = await harness.client.get_workflow_handle(execution.id).describe()
                values.append(described.typed_search_attributes.get(FORMATION_POLICY))
            return values

        shown = harness.run(attributes())

    assert summary.last_round is not None and summary.last_round.segment_count >= 1
    assert shown and set(shown) == {"deterministic"}
    with store() as uow:
        [run] = uow.runs.for_session(OWNER, session)
    assert run.formation_policy == FORMATION_9
    assert run.provider_call_count == 0
    assert {m.failure_class for m in run.stage_metrics} == {FailureClass.NOT_CONFIGURED}
