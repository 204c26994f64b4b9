"""What a worker's activation chose shows in its workflows: with no provider policy, FormationPolicy=
"deterministic" on the session and its segments, formation@9's pipeline in the records and a normal completion
(not a fallback: no provider call failed); with formation@10,
each segment is one child whose history schedules the one extract activity, then commits (a local activity)."""

import uuid

import pytest

from adapters.postgres.uow import PostgresStore
from adapters.providers.policy_documents import load_memory_model
from adapters.providers.scripted import ScriptedProvider
from adapters.temporal.worker import WorkerPorts
from domain.policy.activation import (
    ArtifactSource,
    FormationMode,
    FoundArtifact,
    ShippedCorpora,
    select_formation_policy,
)
from domain.policy.versions import FORMATION_9, FORMATION_10
from domain.telemetry import FailureClass, RunOutcome, Stage, StageOutcome
from tests.evidence_builders import CORPORA, RUNNING, formation
from tests.workflows.conversations import NAMES, conversation, plausible_answer
from tests.workflows.harness import Harness, local_activities, scheduled_activities
from tests.workflows.support import OWNER, append, by_workflow_type, consolidate, histories
from workflows.search_attributes import CONSOLIDATION_OUTCOME, FORMATION_POLICY

pytestmark = [pytest.mark.temporal, pytest.mark.postgres]

NO_CORPORA = ShippedCorpora(corpus_digest=None, holdout_digest=None, formation_corpus_digest=None)


def test_deterministic_selection_shows_in_the_search_attribute_and_completes_normally(
    harness: Harness, store: PostgresStore
) -> None:
    decision = select_formation_policy(
        running=RUNNING, artifacts=(), corpora=NO_CORPORA, mode=FormationMode.AUTO
    )
    session = uuid.uuid4()
    append(store, conversation(OWNER, session, 3, seed=3))

    with harness.worker(WorkerPorts(store, None, activation=decision)) as worker:
        summary = consolidate(harness, worker.task_queue, session)

        async def attributes() -> tuple[list[str | None], list[str | None]]:
            policies: list[str | None] = []
            outcomes: list[str | None] = []
            async for execution in harness.client.list_workflows(f'TaskQueue = "{worker.task_queue}"'):
                described = await harness.client.get_workflow_handle(execution.id).describe()
                policies.append(described.typed_search_attributes.get(FORMATION_POLICY))
                if execution.id.startswith("consolidate/"):
                    outcomes.append(described.typed_search_attributes.get(CONSOLIDATION_OUTCOME))
            return policies, outcomes

        shown, outcomes = harness.run(attributes())

    assert summary.last_round is not None and summary.last_round.segment_count >= 1
    assert shown and set(shown) == {"deterministic"}
    assert summary.last_round.outcome is RunOutcome.COMPLETED
    assert outcomes == ["completed"]
    with store() as uow:
        [run] = uow.runs.for_session(OWNER, session)
    assert run.formation_policy == FORMATION_9
    assert run.outcome is RunOutcome.COMPLETED
    assert run.provider_call_count == 0
    assert {m.failure_class for m in run.stage_metrics} == {FailureClass.NOT_CONFIGURED}
    # The audit still says which stages formed deterministically.
    assert run.fallback_stages


def test_a_formation10_segment_is_one_extract_then_commit(harness: Harness, store: PostgresStore) -> None:
    decision = select_formation_policy(
        running=RUNNING,
        artifacts=(
            FoundArtifact(
                name="memory-formation-formation10.json",
                source=ArtifactSource.BUNDLED,
                evidence=formation(FORMATION_10),
            ),
        ),
        corpora=CORPORA,
        mode=FormationMode.AUTO,
        provider_configured=True,
    )
    assert decision.policy == FORMATION_10
    model = load_memory_model("scripted")
    provider = ScriptedProvider(plausible_answer, model=model)
    session = uuid.uuid4()
    append(store, conversation(OWNER, session, 3, seed=10))

    ports = WorkerPorts(store, provider, activation=decision, memory_model=model)
    with harness.worker(ports) as worker:
        summary = consolidate(harness, worker.task_queue, session)
        found = histories(harness, worker.task_queue, at_least=2)

    assert summary.last_round is not None and summary.last_round.segment_count == 1
    [segment] = by_workflow_type(found, "segment/").values()
    assert scheduled_activities(segment) == ["extract"]
    assert local_activities(segment) == ["commit_segment"]
    assert provider.calls == {Stage.EXTRACTION: 1}
    [request] = provider.requests
    assert request.max_output_tokens == 16_384
    for history in found.values():
        payload = history.to_json().encode()
        assert not any(name.encode() in payload for name in NAMES)
    with store() as uow:
        [run] = uow.runs.for_session(OWNER, session)
        beliefs = uow.beliefs.page(OWNER, None, 100)
    assert run.formation_policy == FORMATION_10 and run.provider_call_count == 1
    [metrics] = run.stage_metrics
    assert metrics.stage is Stage.EXTRACTION and metrics.outcome is StageOutcome.OK and metrics.cost_usd > 0
    assert beliefs and {b.formation_version for b in beliefs} == {FORMATION_10}
