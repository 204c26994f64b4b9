"""The whole formation@9 path with no provider configured: every stage falls back, honestly audited."""

from uuid import uuid4

from adapters.memory.store import InMemoryStore
from domain.candidates import Derivation
from domain.telemetry import FailureClass, ReasonCategory, StageOutcome
from tests.builders import OWNER, T0, event
from tests.pipeline import append, consolidate

PERSONAL_AGENT = (
    "I am building a personal AI agent and I am wondering what to use for web search and web fetch."
)


def test_personal_agent_statement_commits_direct_project_and_tentative_hypothesis_without_provider() -> None:
    store, session = InMemoryStore(), uuid4()
    append(store, [event(1, PERSONAL_AGENT, session_id=session)])
    reports, commits = consolidate(store, OWNER, session, None, now=T0)
    assert [r.outcome for r in reports] == [StageOutcome.FALLBACK] * 3
    assert all(r.failure_class is FailureClass.NOT_CONFIGURED and not r.retryable_fallback for r in reports)
    with store() as uow:
        beliefs = {b.statement: b for b in uow.beliefs.page(OWNER, None, 100)}
        assert uow.watermarks.get(OWNER, session) == 1
        assert len(uow.episodes.for_session(OWNER, session)) == 1
    assert beliefs["User is building a personal AI agent."].derivation is Derivation.DIRECT
    assert beliefs["User likely has software-development experience."].derivation is Derivation.HYPOTHESIS
    assert commits[0].categories[ReasonCategory.COMMITTED_DIRECT] >= 1
    assert commits[0].categories[ReasonCategory.COMMITTED_HYPOTHESIS] == 1


def test_reconsolidating_the_same_range_reinforces_and_never_duplicates() -> None:
    store, session = InMemoryStore(), uuid4()
    append(store, [event(1, PERSONAL_AGENT, session_id=session)])
    consolidate(store, OWNER, session, None, now=T0)
    with store() as uow:
        first = sorted(
            (b.id, b.evidence_count, b.last_evidence_at) for b in uow.beliefs.page(OWNER, None, 100)
        )
        uow.watermarks.compare_and_set(OWNER, session, 1, 1)
    # A new run over the same source: what it forms is already known, so nothing new and no clock moves.
    store.state.watermarks.clear()
    _, commits = consolidate(store, OWNER, session, None, now=T0.replace(year=2027))
    with store() as uow:
        again = sorted(
            (b.id, b.evidence_count, b.last_evidence_at) for b in uow.beliefs.page(OWNER, None, 100)
        )
    assert again == first
    assert ReasonCategory.COMMITTED_DIRECT not in commits[0].categories
    assert commits[0].categories[ReasonCategory.REINFORCED] == len(first)
