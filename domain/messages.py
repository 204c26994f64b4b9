"""Chat messages in: the `{"role", "content"}` shape every agent already holds, read as source events.

A role maps to the event kind that says who spoke, so only the user's own words are owner assertions:

    user -> user_message (an owner assertion), assistant -> assistant_message, tool -> tool_result.

A system message is refused (reason system_message_not_stored): it is the developer's instruction to the
model, the same in every session, and about the user only by accident; storing it would make formation read
the prompt as conversation. Content is a string, or OpenAI's list of text parts (joined by newlines); any
other part (an image, audio) is refused as content_not_text.

seq and occurred_at may be omitted from a message or an event: the server numbers the next positions of the
session and stamps the arrival time (numbered_events). A client's session id may be any string; it is mapped,
per owner, to the stored UUID (session_uuid).
"""

from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum
from typing import Any, Final
from uuid import UUID, uuid5

from domain.events import MAX_SEQ, SourceEventKind
from domain.owner import Owner

ROLE_KINDS: Final = {
    "user": SourceEventKind.USER_MESSAGE,
    "assistant": SourceEventKind.ASSISTANT_MESSAGE,
    "tool": SourceEventKind.TOOL_RESULT,
}
# Fields an OpenAI-style message carries that say nothing an event keeps (who called which tool).
_IGNORED_FIELDS: Final = frozenset({"name", "tool_call_id"})
_EVENT_FIELDS: Final = frozenset({"seq", "occurred_at"})
_MESSAGE_FIELDS: Final = frozenset({"role", "content"}) | _IGNORED_FIELDS | _EVENT_FIELDS
MAX_CLIENT_SESSION_CHARS: Final = 256
# Fixed forever: changing it would move every client session id to a new stored session.
SESSION_NAMESPACE: Final = UUID("5f0b6d0e-3c1e-4a57-9f39-0c6f3f1f7a21")


class MessageRefusal(StrEnum):
    SYSTEM_MESSAGE_NOT_STORED = "system_message_not_stored"
    UNKNOWN_ROLE = "unknown_role"
    CONTENT_NOT_TEXT = "content_not_text"
    MISSING = "missing"
    EXTRA_FORBIDDEN = "extra_forbidden"
    SESSION_ID_INVALID = "session_id_invalid"


def is_message(data: Any) -> bool:
    return isinstance(data, dict) and "role" in data


def message_event(data: dict[str, Any]) -> dict[str, Any] | list[tuple[str, str]]:
    """The event a chat message states (kind and text; seq and occurred_at when it gives them), or every
    (field, reason code) that refuses it."""
    refusals = [(key, MessageRefusal.EXTRA_FORBIDDEN.value) for key in data if key not in _MESSAGE_FIELDS]
    role = data["role"]
    if role == "system":
        refusals.append(("role", MessageRefusal.SYSTEM_MESSAGE_NOT_STORED.value))
    elif role not in ROLE_KINDS:
        refusals.append(("role", MessageRefusal.UNKNOWN_ROLE.value))
    text = _content_text(data["content"]) if "content" in data else MessageRefusal.MISSING
    if isinstance(text, MessageRefusal):
        refusals.append(("content", text.value))
    if refusals:
        return refusals
    event: dict[str, Any] = {"kind": ROLE_KINDS[role].value, "text": text}
    event.update({key: data[key] for key in _EVENT_FIELDS if key in data})
    return event


def _content_text(content: Any) -> str | MessageRefusal:
    if isinstance(content, str):
        return content
    if isinstance(content, list) and content:
        texts = [
            part["text"]
            for part in content
            if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)
        ]
        if len(texts) == len(content):
            return "\n".join(texts)
    return MessageRefusal.CONTENT_NOT_TEXT


def numbered_events(
    events: Sequence[dict[str, Any]], last_stored_seq: int, now: datetime
) -> list[dict[str, Any]]:
    """The events with seq and occurred_at filled where omitted: the next positions after both the session's
    last stored event and every seq the batch names, in the batch's order; now as the time."""
    named = [e["seq"] for e in events if isinstance(e.get("seq"), int) and 0 < e["seq"] <= MAX_SEQ]
    next_seq = max([last_stored_seq, *named]) + 1
    filled = []
    for event in events:
        event = dict(event)
        if "seq" not in event:
            event["seq"] = next_seq
            next_seq += 1
        event.setdefault("occurred_at", now)
        filled.append(event)
    return filled


def session_uuid(owner: Owner, client_session_id: str) -> UUID:
    """The stored session a client's session id names: a UUID as given, any other string mapped to the same
    UUID for the same owner every time (and to a different one for another owner). ValueError when the id is
    empty, too long, or holds a control character."""
    try:
        return UUID(client_session_id)
    except ValueError:
        pass
    if not 0 < len(client_session_id) <= MAX_CLIENT_SESSION_CHARS or any(
        ord(c) < 32 or ord(c) == 127 for c in client_session_id
    ):
        raise ValueError(MessageRefusal.SESSION_ID_INVALID.value)
    # A separator no bounded id holds, so ("a", "b:c") and ("a:b", "c") never meet.
    return uuid5(SESSION_NAMESPACE, "\n".join((owner.tenant_id, owner.principal_id, client_session_id)))
