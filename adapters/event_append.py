"""Appending validated, numbered source events in one unit of work: the shared step of `agent events import`
and the API's session append.

An event below its session's watermark (it arrived after consolidation passed its sequence gap) is stored as
late, with a content-free late_event audit, and the session's next round consolidates it; a store that accepts
no late events (a database before the late-events revision) refuses it as below_watermark instead. Refusals
name the event's number, field and reason code, never its content.
"""

from dataclasses import dataclass, field
from datetime import UTC, datetime
from uuid import UUID, uuid4

from domain.errors import EventConflict
from domain.event_intake import Refusal
from domain.events import SourceEvent
from domain.owner import Owner
from domain.ports import UnitOfWork, UnitOfWorkFactory
from domain.telemetry import AuditKind, FormationAudit


@dataclass
class ImportReport:
    appended: int = 0
    # Of appended: below the session's watermark, consolidated by its next round.
    late: int = 0
    already_present: int = 0
    refusals: list[Refusal] = field(default_factory=list)
    sessions: set[tuple[str, str, UUID]] = field(default_factory=set)

    @property
    def refused(self) -> int:
        return len(self.refusals)


def append_numbered(
    store: UnitOfWorkFactory, batch: list[tuple[int, SourceEvent]], report: ImportReport
) -> None:
    """Append numbered events in one unit of work, adding each refusal (event_conflict, below_watermark) to
    report by its number."""
    with store() as uow:
        watermarks: dict[tuple[str, str, UUID], int] = {}
        for line, event in batch:
            key = (event.tenant_id, event.principal_id, event.session_id)
            if key not in watermarks:
                owner = Owner(tenant_id=event.tenant_id, principal_id=event.principal_id)
                watermarks[key] = uow.watermarks.get(owner, event.session_id)
            # Consolidation already passed this position: stored flagged, the next round plans it.
            late = event.seq <= watermarks[key]
            if late and not uow.events.accepts_late:
                _compare_below_watermark(uow, line, event, report)
                continue
            try:
                result = uow.events.append([event], late=late)
            except EventConflict:
                report.refusals.append(Refusal(line, "seq", EventConflict.reason_code))
                continue
            report.appended += result.appended
            report.already_present += result.already_present
            report.sessions.add(key)
            if late and result.appended:
                report.late += 1
                _audit_late(uow, event, watermarks[key])
        uow.commit()


def _compare_below_watermark(uow: UnitOfWork, line: int, event: SourceEvent, report: ImportReport) -> None:
    """Without late events, only the event already stored at the position is accepted (already present):
    appended now, it would never be consolidated."""
    stored = uow.events.read_range(event.owner, event.session_id, event.seq - 1, 1)
    if not stored or stored[0].seq != event.seq:
        report.refusals.append(Refusal(line, "seq", "below_watermark"))
    elif stored[0].text != event.text or stored[0].kind != event.kind:
        report.refusals.append(Refusal(line, "seq", EventConflict.reason_code))
    else:
        report.already_present += 1


def _audit_late(uow: UnitOfWork, event: SourceEvent, watermark: int) -> None:
    """Content-free: the position and the watermark it arrived below, once per event."""
    uow.audits.record(
        FormationAudit(
            id=uuid4(),
            tenant_id=event.tenant_id,
            principal_id=event.principal_id,
            session_id=event.session_id,
            kind=AuditKind.LATE_EVENT,
            dedupe_key=f"{AuditKind.LATE_EVENT.value}/{event.session_id}/{event.seq}",
            details={"seq": event.seq, "watermark": watermark},
            created_at=datetime.now(UTC),
        )
    )
