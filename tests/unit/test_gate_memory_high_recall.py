"""gate.memory.direct_high_recall and gate.memory.hypothesis_high_recall through the provider pipeline.

The provider answers are correct ones written by hand (tests/scripted_answers.py); the gates hold when
local validation keeps every claim they make and commits it with exact provenance.

Watched failing on purpose, undone after: with local_statement (domain/formation/distillation.py) no longer
hedging a hypothesis, the unhedged hypothesis case failed.
"""

from typing import Any

import pytest

from adapters.memory.store import InMemoryStore
from adapters.providers.scripted import ScriptedProvider
from domain.beliefs.records import MemoryRecord
from domain.candidates import ClaimKind, Derivation, Longevity
from domain.events import EventRef
from domain.formation.rendering import has_uncertainty
from domain.telemetry import ReasonCategory, Stage, StageOutcome
from tests.builders import OWNER, T0
from tests.pipeline import append, consolidate
from tests.scripted_answers import (
    HYPOTHESIS,
    NO_PREDICTIONS,
    PERSONAL_AGENT_INTEGRATION,
    PERSONAL_AGENT_SESSION,
    PROJECT,
    SEARCH_GOAL,
    TRAINING_INTEGRATION,
    TRAINING_MEMORIES,
    TRAINING_SESSION,
    load,
    personal_agent_distillation,
    training_distillation,
)


def _run(fixture: str, session: Any, script: dict[Stage, Any]) -> tuple[list[MemoryRecord], Any, Any, Any]:
    store = InMemoryStore()
    append(store, load(fixture))
    provider = ScriptedProvider(script)
    reports, commits = consolidate(store, OWNER, session, provider, now=T0)
    with store() as uow:
        beliefs = uow.beliefs.page(OWNER, None, 100)
        episodes = uow.episodes.for_session(OWNER, session)
    return beliefs, reports, commits, (provider, episodes)


def _personal_agent(hypothesis_statement: str = HYPOTHESIS) -> tuple[list[MemoryRecord], Any, Any, Any]:
    return _run(
        "personal_agent.jsonl",
        PERSONAL_AGENT_SESSION,
        {
            Stage.INTEGRATION: PERSONAL_AGENT_INTEGRATION,
            Stage.ANTICIPATION: NO_PREDICTIONS,
            Stage.DISTILLATION: personal_agent_distillation(hypothesis_statement),
        },
    )


def test_gate_memory_direct_high_recall_personal_agent_project_with_exact_provenance() -> None:
    beliefs, reports, commits, (provider, episodes) = _personal_agent()
    assert [r.outcome for r in reports] == [StageOutcome.OK] * 3
    assert provider.call_count == 3
    by_statement = {b.statement: b for b in beliefs}
    project = by_statement[PROJECT]
    assert project.claim_kind is ClaimKind.ONGOING_PROJECT
    assert project.derivation is Derivation.DIRECT
    assert project.longevity is Longevity.ONGOING
    assert project.source_event_ids == (EventRef(session_id=PERSONAL_AGENT_SESSION, seq=1),)
    assert SEARCH_GOAL in by_statement
    assert commits[0].categories[ReasonCategory.COMMITTED_DIRECT] == 2
    assert [e.source_event_ids for e in episodes] == [(1,)]


@pytest.mark.parametrize(
    "provider_statement",
    [HYPOTHESIS, "User has software-development experience.", "The user has software-development experience"],
    ids=["hedged", "unhedged", "unhedged-holder-variant"],
)
def test_gate_memory_hypothesis_high_recall_tentative_never_an_occupation_fact(
    provider_statement: str,
) -> None:
    beliefs, reports, commits, _ = _personal_agent(provider_statement)
    assert reports[2].outcome is StageOutcome.OK
    hypotheses = [b for b in beliefs if b.derivation is Derivation.HYPOTHESIS]
    assert [b.statement for b in hypotheses] == [HYPOTHESIS]
    assert hypotheses[0].longevity is Longevity.TENTATIVE
    assert hypotheses[0].claim_kind is ClaimKind.SKILL
    assert hypotheses[0].confidence < next(b for b in beliefs if b.statement == PROJECT).confidence
    assert commits[0].categories[ReasonCategory.COMMITTED_HYPOTHESIS] == 1
    for b in beliefs:
        if b.claim_kind in (ClaimKind.ROLE, ClaimKind.SKILL):
            assert b.derivation is Derivation.HYPOTHESIS and has_uncertainty(b.statement)


def test_gate_memory_direct_high_recall_training_conversation_commits_all_eleven() -> None:
    beliefs, reports, commits, (provider, episodes) = _run(
        "training_conversation.jsonl",
        TRAINING_SESSION,
        {
            Stage.INTEGRATION: TRAINING_INTEGRATION,
            Stage.ANTICIPATION: NO_PREDICTIONS,
            Stage.DISTILLATION: training_distillation(),
        },
    )
    assert [r.outcome for r in reports] == [StageOutcome.OK] * 3, [r.counts for r in reports]
    assert provider.call_count == 3
    assert commits[0].categories == {ReasonCategory.COMMITTED_DIRECT: 11}
    by_statement = {b.statement: b for b in beliefs}
    assert len(beliefs) == len(TRAINING_MEMORIES) == 11
    for _subject, kind, longevity, statement, (seq, _span) in TRAINING_MEMORIES:
        belief = by_statement[statement]
        assert belief.claim_kind is ClaimKind(kind)
        assert belief.derivation is Derivation.DIRECT
        assert belief.longevity is Longevity(longevity)
        assert belief.source_event_ids == (EventRef(session_id=TRAINING_SESSION, seq=seq),)
    # Two ordered episodes over the user's events only; the assistant turns (2 and 4) are nobody's evidence.
    assert [e.source_event_ids for e in episodes] == [(1, 3), (5,)]
