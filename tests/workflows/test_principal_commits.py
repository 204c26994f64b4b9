"""Concurrent sessions of one principal on real Temporal and PostgreSQL: commits of one principal
serialize (a transaction-scoped advisory lock), so K sessions stating one claim form one belief
corroborated K times, exactly what consolidating them one after another forms."""

import uuid
from datetime import UTC, datetime

import pytest

from adapters.postgres.uow import PostgresStore
from adapters.temporal.client import session_idle
from adapters.temporal.worker import WorkerPorts
from domain.events import SourceEvent, SourceEventKind
from domain.owner import Owner
from tests.workflows.harness import Harness
from tests.workflows.support import append, consolidate
from tests.workflows.test_faults import formed

pytestmark = [pytest.mark.temporal, pytest.mark.postgres]

SESSIONS = 6
CLAIM = "I am building a personal AI agent for my family."


def one_claim(owner: Owner, session: uuid.UUID, index: int) -> list[SourceEvent]:
    at = datetime(2026, 9, 2, 10, index, tzinfo=UTC)
    return [
        SourceEvent(
            tenant_id=owner.tenant_id,
            principal_id=owner.principal_id,
            session_id=session,
            seq=1,
            kind=SourceEventKind.USER_MESSAGE,
            text=CLAIM,
            occurred_at=at,
        )
    ]


def test_concurrent_sessions_of_one_principal_form_one_belief_corroborated_per_session(
    harness: Harness, store: PostgresStore
) -> None:
    one_by_one = Owner(tenant_id="t1", principal_id="sequential")
    at_once = Owner(tenant_id="t1", principal_id="concurrent")
    with harness.worker(WorkerPorts(store, None), max_activities=SESSIONS * 2) as worker:
        for index in range(SESSIONS):
            session = uuid.uuid4()
            append(store, one_claim(one_by_one, session, index))
            consolidate(harness, worker.task_queue, session, one_by_one)

        sessions = [uuid.uuid4() for _ in range(SESSIONS)]
        for index, session in enumerate(sessions):
            append(store, one_claim(at_once, session, index))

        async def all_at_once() -> None:
            handles = [
                await session_idle(harness.client, "t1", "concurrent", s, task_queue=worker.task_queue)
                for s in sessions
            ]
            for handle in handles:
                await handle.result()

        harness.run(all_at_once())

    expected, found = formed(store, one_by_one), formed(store, at_once)
    assert found["beliefs"] == expected["beliefs"]
    claims = [b for b in found["beliefs"] if b[0] == "project:personal-ai-agent-family"]  # type: ignore[attr-defined]
    assert len(claims) == 1, claims
    (_, _, evidence, corroboration, live) = claims[0]
    assert live and corroboration == SESSIONS == evidence, "one belief, corroborated by every session"
