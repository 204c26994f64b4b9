"""Appending an agent's events to one session: the same validation and reason codes as `agent events import`.

The caller's tenant and principal come from its token and the session from the path; an event that names
any of them itself is refused (extra_forbidden) rather than trusted or silently overridden. A refusal names
the event's index, the field and a reason code, never the content.
"""

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from adapters.event_append import ImportReport, append_numbered
from domain.event_intake import WHOLE_LINE, Refusal, validate_event
from domain.events import EventRefusalReason, SourceEvent
from domain.owner import Owner
from domain.ports import UnitOfWorkFactory

_SCOPED_FIELDS = ("tenant_id", "principal_id", "session_id")


def validated_event(
    index: int, data: Any, owner: Owner, session_id: UUID, now: datetime
) -> SourceEvent | list[Refusal]:
    """The request event scoped to the caller and its session, checked by the import's own validate_event."""
    if not isinstance(data, dict):
        return [Refusal(index, WHOLE_LINE, EventRefusalReason.NOT_AN_OBJECT.value)]
    named = [Refusal(index, key, "extra_forbidden") for key in _SCOPED_FIELDS if key in data]
    if named:
        return named
    scoped = {
        **data,
        "tenant_id": owner.tenant_id,
        "principal_id": owner.principal_id,
        "session_id": session_id,
    }
    checked = validate_event(scoped, now=now)
    if isinstance(checked, SourceEvent):
        return checked
    return [Refusal(index, field, reason) for field, reason in checked]


def append_session_events(
    store: UnitOfWorkFactory, owner: Owner, session_id: UUID, events: Sequence[Any]
) -> ImportReport:
    """Validate every event, then append the valid ones in one unit of work (idempotent per seq)."""
    report = ImportReport()
    valid: list[tuple[int, SourceEvent]] = []
    now = datetime.now(UTC)
    for index, data in enumerate(events):
        checked = validated_event(index, data, owner, session_id, now)
        if isinstance(checked, list):
            report.refusals.extend(checked)
        else:
            valid.append((index, checked))
    if valid:
        append_numbered(store, valid, report)
    return report
