"""A large event formed in pieces through the activities, on PostgreSQL.

A worker lost in the middle of the event's round: another worker, which has kept nothing of the event, takes
the interrupted piece's next stage from the documents the lost worker staged and from the event as stored:
no stage asks the provider twice, and what commits is what one worker alone commits for the same event.

Every piece keeps its own episode. Watched failing on purpose, undone after: with integrated_episode
(domain/episodes.py) leaving the piece out of the derivation key, the episodes test found one episode and a
derivation_conflict audit per later piece.
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
from domain.telemetry import AuditKind, Stage
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


def test_every_piece_of_a_large_event_keeps_its_own_episode_until_erasure(clean_postgres: Engine) -> None:
    store = PostgresStore(clean_postgres)
    owner = Owner(tenant_id="t1", principal_id="pieces")
    session, refs = _planned(store, owner)
    assert len(refs) >= 4 and all(ref.chars is not None for ref in refs), "the event is formed in pieces"
    commit = CommitActivities(store, lambda: NOW)
    worker = StageActivities(store, ScriptedProvider(SCRIPT), lambda: NOW)
    run_id = uuid4()
    for ref, step in _steps(refs):
        if step == "commit_segment":
            commit.commit_segment(CommitInput(ref=ref, run_id=run_id))
        else:
            getattr(worker, step)(StageInput(ref=ref, run_id=run_id))

    text = _text()
    with store() as uow:
        episodes = uow.episodes.for_session(owner, session)
        assert uow.audits.for_owner(owner, AuditKind.DERIVATION_CONFLICT) == []
    assert sorted(e.source_chars for e in episodes if e.source_chars) == [ref.chars for ref in refs]
    assert len({e.derivation_key for e in episodes}) == len(episodes) == len(refs)
    for e in episodes:
        assert e.source_chars is not None
        start, end = e.source_chars
        # The fallback narrative of a piece is its own text, not the first piece's.
        assert e.narrative == f"[1] {text[start:end]}"

    with store() as uow:
        assert uow.erase_principal(owner).episodes == len(refs)
        uow.commit()
    with store() as uow:
        assert uow.episodes.for_session(owner, session) == []
