"""Appending an agent's events to one session: the same validation and reason codes as `agent events import`.

The caller's tenant and principal come from its key and the session from the path; an event that names
any of them itself is refused (extra_forbidden) rather than trusted or silently overridden. An element with a
role is a chat message (domain.messages); an element without seq or occurred_at is numbered after the
session's last event and stamped with the arrival time. A refusal names the element's index, the field and a
reason code, never the content.
"""

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from adapters.event_append import ImportReport, append_numbered
from domain.event_intake import WHOLE_LINE, Refusal, validate_event
from domain.events import MAX_SEQ, EventRefusalReason, SourceEvent
from domain.messages import is_message, message_event, numbered_events
from domain.owner import Owner
from domain.ports import UnitOfWorkFactory

_SCOPED_FIELDS = ("tenant_id", "principal_id", "session_id")


def validated_event(
    index: int, data: Any, owner: Owner, session_id: UUID, now: datetime
) -> SourceEvent | list[Refusal]:
    """The request event scoped to the caller and its session, checked by the import's own validate_event
    (with the server's clock: an occurred_at more than a day ahead of it is refused)."""
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
    store: UnitOfWorkFactory,
    owner: Owner,
    session_id: UUID,
    events: Sequence[dict[str, Any]],
    now: datetime,
) -> ImportReport:
    """Read messages as events, number and stamp what omits it, validate every event, then append the valid
    ones in one unit of work (idempotent per seq)."""
    report = ImportReport()
    shaped: list[tuple[int, Any]] = []
    messages: set[int] = set()
    for index, data in enumerate(events):
        if not is_message(data):
            # An event, or no object at all (a list element is not a message's refusals).
            shaped.append((index, data))
            continue
        event = message_event(data)
        if isinstance(event, list):
            report.refusals.extend(Refusal(index, field, reason) for field, reason in event)
        else:
            messages.add(index)
            shaped.append((index, event))
    objects = [event for _, event in shaped if isinstance(event, dict)]
    last_seq = 0
    if any("seq" not in event for event in objects):
        with store() as uow:
            last = uow.events.read_before(owner, session_id, MAX_SEQ + 1, 1)
        last_seq = last[-1].seq if last else 0
    # What is no object keeps its shape, so validation refuses it as not_an_object.
    filled = iter(numbered_events(objects, last_seq, now))
    shaped = [(index, next(filled) if isinstance(event, dict) else event) for index, event in shaped]
    valid: list[tuple[int, SourceEvent]] = []
    for index, data in shaped:
        checked = validated_event(index, data, owner, session_id, now)
        if isinstance(checked, list):
            # A message's text is the content it sent: its refusal names the field the caller wrote.
            report.refusals.extend(
                Refusal(r.line, "content", r.reason) if index in messages and r.field == "text" else r
                for r in checked
            )
        else:
            valid.append((index, checked))
    if valid:
        append_numbered(store, valid, report)
    report.refusals.sort(key=lambda refusal: refusal.line)
    return report
