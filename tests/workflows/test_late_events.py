"""A late event on real Temporal and PostgreSQL: it arrives below the watermark after the round passed its
gap (the grace long over), is imported as late, and the next idle consolidates it, once, content-free."""

import uuid
from collections import Counter

import pytest

from adapters.cli.events import import_events
from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.temporal.worker import WorkerPorts
from domain.events import SourceEventKind
from domain.telemetry import THREE_STAGES, AuditKind
from tests.workflows.conversations import conversation, plausible_answer
from tests.workflows.harness import Harness
from tests.workflows.support import OWNER, consolidate, histories, store_counts

pytestmark = [pytest.mark.temporal, pytest.mark.postgres]


def test_a_late_event_is_consolidated_by_the_next_idle_with_its_audit_and_no_content_in_history(
    harness: Harness, store: PostgresStore
) -> None:
    session = uuid.uuid4()
    # Dated long ago: the first round takes the gap at the late event as final at once.
    events = conversation(OWNER, session, 4)  # seqs 1..8
    late = events[2]
    assert late.kind is SourceEventKind.USER_MESSAGE
    assert import_events(store, [e.model_dump_json() for e in events if e is not late]).appended == 7
    provider = ScriptedProvider(plausible_answer)

    with harness.worker(WorkerPorts(store, provider)) as worker:
        first = consolidate(harness, worker.task_queue, session)
        before = store_counts(store, session)
        imported = import_events(store, [late.model_dump_json()])
        second = consolidate(harness, worker.task_queue, session)
        # Nothing is left for a third idle: the late event is not formed twice.
        third = consolidate(harness, worker.task_queue, session)
        found = histories(harness, worker.task_queue, at_least=3)

    assert first.last_round and second.last_round and third.last_round
    assert before.watermark == len(events)
    assert (imported.appended, imported.late, imported.refused) == (1, 1, 0)
    assert (second.last_round.from_seq, second.last_round.to_seq) == (len(events), len(events))
    assert second.last_round.segment_count == 1
    assert third.last_round.segment_count == 0
    assert provider.calls == Counter({stage: 2 for stage in THREE_STAGES})

    after = store_counts(store, session)
    assert after.watermark == len(events)
    assert after.episodes == after.episode_keys > before.episodes
    assert after.audits[AuditKind.LATE_EVENT.value] == 1
    assert after.audits[AuditKind.SEGMENT_COMMITTED.value] == before.audits[AuditKind.SEGMENT_COMMITTED] + 1
    assert after.audit_keys == sum(after.audits.values())
    with store() as uow:
        assert uow.events.late_pending(OWNER, session, 10) == []
        episodes = uow.episodes.for_session(OWNER, session)
        [audit] = uow.audits.for_owner(OWNER, AuditKind.LATE_EVENT)
    assert any(late.seq in e.source_event_ids for e in episodes)
    assert audit.details == {"seq": late.seq, "watermark": len(events)}

    needle = late.text.encode()
    for key, history in found.items():
        for event in history.events:
            assert needle not in event.SerializeToString(), key
