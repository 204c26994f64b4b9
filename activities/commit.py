"""commit_segment: one short unit of work turning a segment's staged documents into memory."""

import logging
from collections.abc import Callable
from datetime import datetime

from temporalio import activity

from activities.contracts import CommitInput
from activities.heartbeat import heartbeating
from domain.beliefs.commit import CommitReport, commit_segment
from domain.ports import UnitOfWorkFactory

log = logging.getLogger(__name__)


class CommitActivities:
    def __init__(self, uow_factory: UnitOfWorkFactory, clock: Callable[[], datetime]) -> None:
        self._uow = uow_factory
        self._clock = clock

    @activity.defn(name="commit_segment")
    def commit_segment(self, params: CommitInput) -> CommitReport:
        # Idempotent on (run, segment key): a retry after a lost answer returns the recorded report.
        with heartbeating(), self._uow() as uow:
            report = commit_segment(
                uow, params.ref, params.run_id, now=self._clock(), admitted_before=params.admitted_before
            )
            uow.commit()
        log.info(
            "segment commit",
            extra={
                "segment_index": report.segment_index,
                "episodes_stored": report.episodes_stored,
                "admitted": report.admitted,
            },
        )
        return report
