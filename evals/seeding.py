"""Seed pools written the way a user's earlier memories exist: through the governed service.

Each seed's source text is appended as the owner's message in a separate session a day before the case
begins, and the belief is remembered from that event, so the case consolidates against a populated store
whose beliefs have real provenance and are older than anything the case says.
"""

from datetime import timedelta
from typing import Final
from uuid import UUID, uuid5

from domain.beliefs.governed import GovernedMemory, GovernedOutcome
from domain.events import EventRef, SourceEvent, SourceEventKind
from domain.ports import UnitOfWorkFactory
from evals.corpus import CASE_OWNER, Case, SeedPool

SEED_LEAD: Final = timedelta(days=1)
_SEED_NAMESPACE: Final = UUID("5b8f3c2e-6d1a-4e7b-9f20-8c4d1e6a7b35")


class SeedRefused(RuntimeError):
    """The governed service refused a seed; the message names the pool and index only."""


def write_seed_pool(uow_factory: UnitOfWorkFactory, case: Case, pool: SeedPool) -> dict[str, UUID]:
    """Remember every belief of `pool` before `case` begins; the belief id of each seed subject."""
    session_id = uuid5(_SEED_NAMESPACE, f"{case.id}/{pool.id}")
    at = min(event.occurred_at for event in case.events) - SEED_LEAD
    events = [
        SourceEvent(
            tenant_id=CASE_OWNER.tenant_id,
            principal_id=CASE_OWNER.principal_id,
            session_id=session_id,
            seq=index,
            kind=SourceEventKind.USER_MESSAGE,
            text=seed.source_text,
            occurred_at=at,
        )
        for index, seed in enumerate(pool.beliefs, start=1)
    ]
    with uow_factory() as uow:
        uow.events.append(events)
        uow.commit()
    governed = GovernedMemory(uow_factory)
    written: dict[str, UUID] = {}
    for index, seed in enumerate(pool.beliefs, start=1):
        result = governed.remember(
            CASE_OWNER,
            request_id=uuid5(session_id, str(index)),
            subject=seed.subject,
            statement=seed.statement,
            claim_kind=seed.claim_kind,
            source=EventRef(session_id=session_id, seq=index),
            now=at,
        )
        if result.belief_id is None or result.outcome not in (
            GovernedOutcome.APPLIED,
            GovernedOutcome.ALREADY_APPLIED,
        ):
            raise SeedRefused(f"seed pool {pool.id}: belief {index} refused ({result.outcome.value})")
        written[seed.subject] = result.belief_id
    return written
