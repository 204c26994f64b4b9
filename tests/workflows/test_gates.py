"""Workflow-level gates: three provider calls per planned segment, never more; per-segment persistence."""

import uuid
from collections import Counter

import pytest

from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.temporal.worker import WorkerPorts
from domain.formation.clauses import count_coverage_units
from domain.formation.segments import EventFootprint, SegmentRef, plan_segments
from domain.policy.versions import FORMATION_9
from domain.telemetry import THREE_STAGES
from tests.workflows.conversations import conversation, plausible_answer
from tests.workflows.harness import Harness, local_activities, scheduled_activities
from tests.workflows.support import OWNER, append, by_workflow_type, consolidate, histories

pytestmark = [pytest.mark.temporal, pytest.mark.postgres]

STAGE_ACTIVITIES = ("integrate_episodes", "anticipate", "distill")


def planned(events: list, session: uuid.UUID) -> list[SegmentRef]:
    footprints = [
        EventFootprint(seq=e.seq, size_bytes=e.size_bytes, coverage_units=count_coverage_units(e.text))
        for e in events
    ]
    return plan_segments(OWNER, session, FORMATION_9, footprints)


@pytest.mark.parametrize("user_turns", [1, 12, 70])
def test_gate_memory_prediction_error_calls_once_per_planned_segment(
    harness: Harness, store: PostgresStore, user_turns: int
) -> None:
    """Seen failing on two deliberate breaks, each restored: distill called twice per segment in
    workflows/stages.py (the provider count: distillation 2 != 1), and FormSegment's commit scheduled again
    instead of run local (the history: commit_segment among the scheduled activities)."""
    session = uuid.uuid4()
    events = conversation(OWNER, session, user_turns, seed=user_turns)
    append(store, events)
    segments = planned(events, session)
    provider = ScriptedProvider(plausible_answer)

    with harness.worker(WorkerPorts(store, provider)) as worker:
        summary = consolidate(harness, worker.task_queue, session)
        found = histories(harness, worker.task_queue, at_least=1 + len(segments))

    assert summary.last_round is not None
    assert summary.last_round.segment_count == len(segments)
    # Counted at the provider ...
    assert provider.calls == Counter({stage: len(segments) for stage in THREE_STAGES})
    # ... and in the histories: one execution of each stage activity per segment workflow, then its commit
    # (a local activity).
    children = by_workflow_type(found, "segment/")
    assert len(children) == len(segments)
    for history in children.values():
        assert scheduled_activities(history) == list(STAGE_ACTIVITIES)
        assert local_activities(history) == ["commit_segment"]
    parents = by_workflow_type(found, "consolidate/")
    assert all(not set(scheduled_activities(h)) & set(STAGE_ACTIVITIES) for h in parents.values())


def test_gate_memory_distill_segmentation_three_stages_per_segment(
    harness: Harness, store: PostgresStore
) -> None:
    session = uuid.uuid4()
    events = conversation(OWNER, session, 70, seed=3)
    append(store, events)
    segments = planned(events, session)
    assert len(segments) > 1, "the batch must be past one segment's bounds"
    provider = ScriptedProvider(plausible_answer)

    with harness.worker(WorkerPorts(store, provider)) as worker:
        consolidate(harness, worker.task_queue, session)
        found = histories(harness, worker.task_queue, at_least=1 + len(segments))

    stage_runs = Counter(
        name
        for history in by_workflow_type(found, "segment/").values()
        for name in scheduled_activities(history)
        if name in STAGE_ACTIVITIES
    )
    assert stage_runs == Counter({name: len(segments) for name in STAGE_ACTIVITIES})

    with store() as uow:
        episodes = uow.episodes.for_session(OWNER, session)
        runs = uow.runs.for_session(OWNER, session)
    # One episode set per segment: every segment has episodes, no episode crosses a segment boundary.
    owning: Counter[int] = Counter()
    for episode in episodes:
        inside = [
            ref.index
            for ref in segments
            if ref.first_seq <= episode.source_event_ids[0] and episode.source_event_ids[-1] <= ref.last_seq
        ]
        assert len(inside) == 1
        owning[inside[0]] += 1
    assert set(owning) == {ref.index for ref in segments}

    # Per-segment stage metrics recorded with the run.
    assert len(runs) == 1
    metrics = Counter((m.segment_index, m.stage) for m in runs[0].stage_metrics)
    assert metrics == Counter({(ref.index, stage): 1 for ref in segments for stage in THREE_STAGES})
    assert runs[0].segment_count == len(segments)
    assert runs[0].provider_call_count == 3 * len(segments)
