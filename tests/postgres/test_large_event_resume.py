"""A worker lost in the middle of a large event's round, on PostgreSQL.

Another worker, which has kept nothing of the event, takes the interrupted piece's next stage from the
documents the lost worker staged and from the event as stored: no stage asks the provider twice, and what
commits is what one worker alone commits for the same event.
"""

from collections.abc import Iterator
from datetime import timedelta
from uuid import UUID, uuid4

from sqlalchemy import Engine

from activities.batch import BatchActivities
from activities.commit import CommitActivities
from activities.contracts import CommitInput, LoadBatchInput, SessionKey, StageInput
from activities.stages import StageActivities
from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from domain.formation.segments import SegmentRef
from domain.owner import Owner
from domain.policy.versions import FORMATION_9
from domain.telemetry import Stage
from tests.builders import T0, event

NOW = T0 + timedelta(days=1)
# Answers that fail validation: every stage falls back to the rule-based former, deterministically.
SCRIPT: dict[Stage, dict[str, object]] = {
    Stage.INTEGRATION: {"episodes": []},
    Stage.ANTICIPATION: {},
    Stage.DISTILLATION: {},
}


def _text() -> str:
    return " ".join(f"I like dish number {i}." if i % 10 == 0 else "Ok." for i in range(400))


def _planned(store: PostgresStore, owner: Owner) -> tuple[UUID, list[SegmentRef]]:
    session = uuid4()
    with store() as uow:
        uow.events.append([event(1, _text(), owner=owner, session_id=session)])
        uow.commit()
    key = SessionKey(tenant_id=owner.tenant_id, principal_id=owner.principal_id, session_id=session)
    plan = BatchActivities(store, lambda: NOW).load_batch(
        LoadBatchInput(session=key, formation_policy=FORMATION_9)
    )
    return session, list(plan.segments)


def _steps(refs: list[SegmentRef]) -> Iterator[tuple[SegmentRef, str]]:
    for ref in refs:
        for step in ("integrate_episodes", "anticipate", "distill", "commit_segment"):
            yield ref, step


def _beliefs(store: PostgresStore, owner: Owner) -> list[tuple[str, str, int]]:
    with store() as uow:
        found = uow.beliefs.page(owner, None, 1_000)
    return sorted((b.subject, b.statement, b.evidence_count) for b in found)


def test_a_worker_lost_mid_round_costs_no_second_provider_call_and_changes_no_belief(
    clean_postgres: Engine,
) -> None:
    store = PostgresStore(clean_postgres)
    alone, resumed = (
        Owner(tenant_id="t1", principal_id="alone"),
        Owner(tenant_id="t1", principal_id="resumed"),
    )
    _, refs_alone = _planned(store, alone)
    _, refs_resumed = _planned(store, resumed)
    assert len(refs_alone) == len(refs_resumed) >= 4
    assert all(ref.chars is not None for ref in refs_resumed), "the event is formed in pieces"

    commit = CommitActivities(store, lambda: NOW)
    run_id = uuid4()
    one = ScriptedProvider(SCRIPT)
    worker = StageActivities(store, one, lambda: NOW)
    for ref, step in _steps(refs_alone):
        if step == "commit_segment":
            commit.commit_segment(CommitInput(ref=ref, run_id=run_id))
        else:
            getattr(worker, step)(StageInput(ref=ref, run_id=run_id))

    # The first worker is lost after the third piece's second stage (two pieces of four steps, then two
    # stages); the second starts with nothing kept.
    lost_after = 2 * 4 + 2
    lost, taken_over = ScriptedProvider(SCRIPT), ScriptedProvider(SCRIPT)
    workers = [StageActivities(store, lost, lambda: NOW), StageActivities(store, taken_over, lambda: NOW)]
    run_id = uuid4()
    for done, (ref, step) in enumerate(_steps(refs_resumed)):
        if step == "commit_segment":
            commit.commit_segment(CommitInput(ref=ref, run_id=run_id))
        else:
            getattr(workers[done >= lost_after], step)(StageInput(ref=ref, run_id=run_id))

    pieces = len(refs_resumed)
    assert lost.calls == {Stage.INTEGRATION: 3, Stage.ANTICIPATION: 3, Stage.DISTILLATION: 2}
    assert lost.calls + taken_over.calls == {stage: pieces for stage in SCRIPT}
    assert one.calls == {stage: pieces for stage in SCRIPT}
    formed = _beliefs(store, resumed)
    assert formed, "the preferences in the event are formed"
    assert formed == _beliefs(store, alone)
    # Every piece committed: no stage document is left behind.
    with store() as uow:
        assert all(uow.staged.get_all(resumed, ref.segment_key) == {} for ref in refs_resumed)
