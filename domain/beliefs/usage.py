"""The usage clock's write side: what completing an agent run does to the beliefs it was given."""

from collections.abc import Iterable, Sequence
from datetime import datetime
from uuid import UUID, uuid5

from pydantic import BaseModel, ConfigDict, NonNegativeInt

from domain.beliefs.lifecycle import CITED_REWARD, UNCITED_REWARD, UsageUpdate
from domain.owner import Owner
from domain.policy.versions import LIFECYCLE
from domain.ports import UnitOfWork
from domain.telemetry import AuditKind, FormationAudit


class RunCompletion(BaseModel):
    """Counts only: which ids were applied, skipped as repeats, unknown or unfaithful."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cited: NonNegativeInt = 0
    returned_uncited: NonNegativeInt = 0
    already_recorded: NonNegativeInt = 0
    not_live: NonNegativeInt = 0
    # Cited but not returned in this run: the model cannot faithfully cite what it was not given.
    unfaithful_citations: NonNegativeInt = 0


def usage_audit(owner: Owner, run_id: UUID, belief_id: UUID, cited: bool, now: datetime) -> FormationAudit:
    return FormationAudit(
        # Deterministic so a repeated completion produces the very same audit.
        id=uuid5(run_id, f"usage/{belief_id}"),
        tenant_id=owner.tenant_id,
        principal_id=owner.principal_id,
        session_id=None,
        kind=AuditKind.MEMORY_USED,
        dedupe_key=f"usage/{run_id}/{belief_id}",
        details={"belief_id": str(belief_id), "run_id": str(run_id), "cited": cited, "policy": LIFECYCLE},
        created_at=now,
    )


def _unique(ids: Iterable[UUID]) -> list[UUID]:
    return list(dict.fromkeys(ids))


def complete_run(
    uow: UnitOfWork,
    owner: Owner,
    run_id: UUID,
    returned_ids: Sequence[UUID],
    cited_ids: Sequence[UUID],
    now: datetime,
) -> RunCompletion:
    """The call the agent makes after a response (the caller commits). Idempotent per (run, belief)."""
    returned = _unique(returned_ids)
    returned_set = set(returned)
    cited = {i for i in cited_ids if i in returned_set}
    faithful = uncited = repeats = not_live = 0
    # One read for every returned belief; each update below touches its own belief only.
    live = {r.id for r in uow.beliefs.get_many(owner, returned) if r.is_live}
    for belief_id in returned:
        was_cited = belief_id in cited
        if belief_id not in live:
            not_live += 1
            continue
        # The audit is the record of completion: it is what makes a repeated completion a no-op.
        if not uow.audits.record(usage_audit(owner, run_id, belief_id, was_cited, now)):
            repeats += 1
            continue
        update = UsageUpdate(
            reward=CITED_REWARD if was_cited else UNCITED_REWARD, used_at=now if was_cited else None
        )
        if not uow.beliefs.record_usage(owner, belief_id, update, now):
            not_live += 1
        elif was_cited:
            faithful += 1
        else:
            uncited += 1
    return RunCompletion(
        cited=faithful,
        returned_uncited=uncited,
        already_recorded=repeats,
        not_live=not_live,
        unfaithful_citations=len(set(cited_ids) - returned_set),
    )
