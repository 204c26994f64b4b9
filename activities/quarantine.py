"""Quarantine of a segment that fails deterministically, and its release by an operator.

A poisoned segment would fail the same way on every attempt, so the session workflow stops before it:
record_quarantine writes a content-free audit (range, key, activity, error class) and answers where the
watermark stands; release_quarantine records the operator's decision and, for a skip, moves the watermark
past the range in the same transaction (compare-and-set from where the quarantine left it), flagging late
any event stored in a range it passes that no segment held, or, for a late segment (below the watermark),
settles its events so no round plans them again.
"""

import logging
from collections.abc import Callable
from datetime import datetime
from uuid import uuid4

from temporalio import activity

from activities.contracts import Quarantine, QuarantineInput, ReleaseInput, SessionKey
from domain.ports import UnitOfWork, UnitOfWorkFactory
from domain.telemetry import AuditKind, AuditValue, FormationAudit

log = logging.getLogger(__name__)


class QuarantineActivities:
    def __init__(self, uow_factory: UnitOfWorkFactory, clock: Callable[[], datetime]) -> None:
        self._uow = uow_factory
        self._clock = clock

    @activity.defn(name="record_quarantine")
    def record_quarantine(self, params: QuarantineInput) -> Quarantine:
        session = params.session
        with self._uow() as uow:
            quarantine = Quarantine(
                run_id=params.run_id,
                poison=params.poison,
                watermark=uow.watermarks.get(session.owner, session.session_id),
                first_seq=params.first_seq,
                last_seq=params.last_seq,
                segment_key=params.segment_key,
                gaps=params.gaps,
            )
            self._audit(uow, session, AuditKind.SEGMENT_QUARANTINED, quarantine, {})
            uow.commit()
        log.warning(
            "segment quarantined",
            extra={
                "watermark": quarantine.watermark,
                "last_seq": quarantine.last_seq,
                "activity": quarantine.poison.activity,
                "failure_type": quarantine.poison.failure_type,
            },
        )
        return quarantine

    @activity.defn(name="release_quarantine")
    def release_quarantine(self, params: ReleaseInput) -> bool:
        """Whether the watermark now stands past the quarantined range (always False for a retry)."""
        session, quarantine = params.session, params.quarantine
        owner, session_id = session.owner, session.session_id
        skipped = False
        with self._uow() as uow:
            first, last = quarantine.first_seq, quarantine.last_seq
            if params.skip and first is not None and last is not None and last <= quarantine.watermark:
                # A late segment: the watermark is past it already; its events stop waiting instead.
                uow.events.settle_late(owner, session_id, first, last)
                skipped = True
            elif params.skip and last is not None:
                current = uow.watermarks.get(owner, session_id)
                # A retry of this activity finds its own move (and the flags made with it) already made.
                moved = current < last and uow.watermarks.compare_and_set(
                    owner, session_id, quarantine.watermark, last
                )
                skipped = moved or current >= last
                if moved:
                    # The skip passes the poisoned events only: a gap filled meanwhile waits late.
                    uow.events.mark_late(owner, session_id, quarantine.gaps)
            if skipped and quarantine.segment_key is not None:
                # Skipped: the segment's documents will never be committed.
                uow.staged.delete(owner, quarantine.segment_key)
            self._audit(
                uow,
                session,
                AuditKind.QUARANTINE_RELEASED,
                quarantine,
                {"action": "skip" if skipped else "retry"},
            )
            uow.commit()
        return skipped

    def _audit(
        self,
        uow: UnitOfWork,
        session: SessionKey,
        kind: AuditKind,
        quarantine: Quarantine,
        extra: dict[str, AuditValue],
    ) -> None:
        uow.audits.record(
            FormationAudit(
                id=uuid4(),
                tenant_id=session.tenant_id,
                principal_id=session.principal_id,
                session_id=session.session_id,
                kind=kind,
                # One per quarantine, however often the activity is retried or the workflow replayed.
                dedupe_key=f"{kind.value}/{quarantine.run_id}/{quarantine.watermark}",
                details={
                    "watermark": quarantine.watermark,
                    "last_seq": quarantine.last_seq,
                    "segment_key": quarantine.segment_key,
                    "activity": quarantine.poison.activity,
                    "failure_type": quarantine.poison.failure_type,
                    "run_id": str(quarantine.run_id),
                    **extra,
                },
                created_at=self._clock(),
            )
        )
