"""ADR-0119: an owner may move formation@9's calls to another tuple only when a formation@9 artifact
evaluated it exactly on this tree; the choice is read at each call, and anything else falls back to the
configured tuple with a content-free reason."""

from uuid import uuid4

from activities.contracts import StageInput
from activities.formation_tuple import AlternativeTuples
from activities.stages import StageActivities
from adapters.memory.store import InMemoryStore
from domain.consolidation import summarize_round
from domain.formation.segments import EventFootprint, plan_segments
from domain.policy.activation import ArtifactSource, FoundArtifact
from domain.policy.alternatives import (
    FormationChoice,
    TupleReason,
    choose_formation_tuple,
)
from domain.policy.model_policy import MemoryModel
from domain.policy.versions import FORMATION_9
from domain.providers import ProviderFailure, ProviderRequest, ProviderResponse
from domain.telemetry import FailureClass
from tests.builders import OWNER, T0, event
from tests.evidence_builders import ASTRA_MEDIUM, SOL, alternative_evidence, formation
from tests.pipeline import append


def _choice(profile: str = "anthropic", effort: str | None = "medium") -> FormationChoice:
    return FormationChoice(
        tenant_id=OWNER.tenant_id,
        principal_id=OWNER.principal_id,
        model_policy=profile,
        reasoning_effort=effort,
        chosen_at=T0,
    )


def test_an_evidenced_alternative_is_chosen_and_named_after_the_extractor() -> None:
    decision = choose_formation_tuple(_choice(), alternative_evidence(SOL, ASTRA_MEDIUM))

    assert decision.reason is TupleReason.EVIDENCED
    assert decision.model is not None
    assert (decision.model.model, decision.model.reasoning_effort) == ("claude-sonnet-5", "medium")
    assert decision.artifact == "sonnet-medium.json"
    assert decision.formed_on() == "nemori-assisted-v1/anthropic@medium"


def test_no_choice_or_the_configured_tuple_runs_configured_without_a_label() -> None:
    evidence = alternative_evidence(SOL, ASTRA_MEDIUM)
    for choice in (None, _choice("balanced", None)):
        decision = choose_formation_tuple(choice, evidence)
        assert decision.reason is TupleReason.CONFIGURED
        assert decision.model is None and decision.formed_on() is None
        assert (decision.model_policy, decision.reasoning_effort) == ("balanced", None)


def test_a_choice_falls_back_to_the_configured_tuple_with_its_reason() -> None:
    evidenced = alternative_evidence(SOL, ASTRA_MEDIUM)
    cases = [
        # Another effort than the artifact evaluated: not the same tuple.
        (_choice("anthropic", "high"), evidenced, TupleReason.ALTERNATIVE_UNEVIDENCED),
        # The artifact was withdrawn (no longer found): the choice no longer holds.
        (_choice(), alternative_evidence(SOL), TupleReason.ALTERNATIVE_UNEVIDENCED),
        (_choice("nonesuch", None), evidenced, TupleReason.UNKNOWN_PROFILE),
        (_choice("anthropic", "xhigh"), evidenced, TupleReason.EFFORT_NOT_ACCEPTED),
        # formation@9 is not what activation chose: an alternative formation@9 tuple has nothing to move.
        (_choice(), alternative_evidence(ASTRA_MEDIUM, _formation8()), TupleReason.POLICY_NOT_FORMATION_9),
    ]
    for choice, evidence, reason in cases:
        decision = choose_formation_tuple(choice, evidence)
        assert decision.reason is reason, (choice, reason)
        assert decision.model is None
        assert (decision.model_policy, decision.reasoning_effort) == ("balanced", None)


def _formation8() -> FoundArtifact:
    return FoundArtifact(name="f8.json", source=ArtifactSource.BUNDLED, evidence=formation("formation@8"))


class _Capture:
    def __init__(self, name: str) -> None:
        self.name = name
        self.requests: list[ProviderRequest] = []

    def complete(self, request: ProviderRequest) -> ProviderResponse:
        self.requests.append(request)
        raise ProviderFailure(FailureClass.TRANSIENT, "timeout")


def test_the_owners_choice_is_read_at_each_call_and_reaches_the_provider_and_the_run_record() -> None:
    store = InMemoryStore()
    session = uuid4()
    events = [event(1, "I swim twice a week.", session_id=session)]
    append(store, events)
    footprints = [EventFootprint(seq=e.seq, size_bytes=e.size_bytes, coverage_units=1) for e in events]
    [ref] = plan_segments(OWNER, session, FORMATION_9, footprints)
    configured, alternative = _Capture("configured"), _Capture("alternative")
    asked_for: list[MemoryModel] = []

    def provider_for(model: MemoryModel) -> _Capture:
        asked_for.append(model)
        return alternative

    stages = StageActivities(
        store,
        configured,
        clock=lambda: T0,
        alternatives=AlternativeTuples(
            evidence=alternative_evidence(SOL, ASTRA_MEDIUM), provider_for=provider_for
        ),
    )
    stage = StageInput(ref=ref, run_id=uuid4())

    before = stages.integrate_episodes(stage)
    with store() as uow:
        uow.formation_choices.put(_choice())
        uow.commit()
    chosen = stages.integrate_episodes(stage)
    with store() as uow:
        assert uow.formation_choices.clear(OWNER)
        uow.commit()
    withdrawn = stages.integrate_episodes(stage)

    assert (len(configured.requests), len(alternative.requests)) == (2, 1)
    assert [(m.model, m.reasoning_effort) for m in asked_for] == [("claude-sonnet-5", "medium")]
    assert before.metrics.formed_on is None and withdrawn.metrics.formed_on is None
    assert chosen.metrics.formed_on == "nemori-assisted-v1/anthropic@medium"
    run = summarize_round(
        run_id=uuid4(),
        owner=OWNER,
        session_id=session,
        formation_policy=FORMATION_9,
        from_seq=0,
        to_seq=1,
        stage_reports=[before, chosen, withdrawn],
        commits=[],
        started_at=T0,
        completed_at=T0,
    )
    assert run.formed_on == ("nemori-assisted-v1/anthropic@medium",)
