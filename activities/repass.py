"""The re-pass's one write of its own: a content-free audit when every attempt failed."""

from collections.abc import Callable
from datetime import datetime
from uuid import UUID, uuid4

from pydantic import BaseModel, ConfigDict, PositiveInt
from temporalio import activity

from domain.formation.segments import SegmentRef
from domain.ports import UnitOfWorkFactory
from domain.telemetry import AuditKind, FormationAudit


class ExhaustionInput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    ref: SegmentRef
    origin_run_id: UUID
    # The re-pass run that exhausted: an operator's retry is a run of its own and, if it exhausts too,
    # records its own audit; retries of this activity within one run record nothing more.
    repass_run_id: str
    attempts: PositiveInt


class RepassActivities:
    def __init__(self, uow_factory: UnitOfWorkFactory, clock: Callable[[], datetime]) -> None:
        self._uow = uow_factory
        self._clock = clock

    @activity.defn(name="record_repass_exhaustion")
    def record_exhaustion(self, params: ExhaustionInput) -> bool:
        ref = params.ref
        with self._uow() as uow:
            recorded = uow.audits.record(
                FormationAudit(
                    id=uuid4(),
                    tenant_id=ref.tenant_id,
                    principal_id=ref.principal_id,
                    session_id=ref.session_id,
                    kind=AuditKind.REPASS_EXHAUSTED,
                    # One exhaustion per re-pass run, however often the activity is retried.
                    dedupe_key=f"repass_exhausted/{params.repass_run_id}/{ref.segment_key}",
                    details={
                        "first_seq": ref.first_seq,
                        "last_seq": ref.last_seq,
                        "segment_key": ref.segment_key,
                        "attempts": params.attempts,
                        "origin_run_id": str(params.origin_run_id),
                        "formation_policy": ref.formation_policy,
                    },
                    created_at=self._clock(),
                )
            )
            # The re-pass gave up: its last attempt's documents will never be committed.
            uow.staged.delete(ref.owner, ref.segment_key)
            uow.commit()
        return recorded
