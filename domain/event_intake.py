"""Where untrusted JSON Lines become SourceEvents: each line is accepted or refused on its own.

Shared by `agent events import` and `agent memory form`, so a line is accepted or refused the same way
wherever it arrives. A refusal names the line number, the field and a reason code (an EventRefusalReason,
or pydantic's error type for the rules pydantic states) and never any of the line's content: an import
file is a user's conversation. Where events are stored (`now` given: the server's clock when they arrive),
an occurred_at more than FUTURE_TOLERANCE ahead of it is refused (occurred_at_in_future). Lines are read as bytes and decoded one by one, so one bad byte costs its
own line only.
"""

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from domain.events import FUTURE_TOLERANCE, EventRefusalReason, SourceEvent

# Names a refusal of the whole line rather than one of its fields.
WHOLE_LINE = "-"


@dataclass(frozen=True)
class Refusal:
    line: int
    field: str
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.field}: {self.reason}"


def validate_event(data: Any, *, now: datetime | None = None) -> SourceEvent | list[tuple[str, str]]:
    """The event a decoded JSON value states, or every (field, reason code) that refuses it; with now (the
    server's clock), also an event dated more than FUTURE_TOLERANCE after it."""
    if not isinstance(data, dict):
        return [(WHOLE_LINE, EventRefusalReason.NOT_AN_OBJECT.value)]
    try:
        event = SourceEvent.model_validate(data)
    except ValidationError as invalid:
        # loc and type only: pydantic's message and input could quote the line.
        return [
            (".".join(str(part) for part in error["loc"]) or WHOLE_LINE, error["type"])
            for error in invalid.errors(include_input=False, include_url=False, include_context=False)
        ]
    if now is not None and event.occurred_at > now + FUTURE_TOLERANCE:
        return [("occurred_at", EventRefusalReason.OCCURRED_AT_IN_FUTURE.value)]
    return event


def parse_line(raw: bytes | str, *, now: datetime | None = None) -> SourceEvent | list[tuple[str, str]]:
    """One line of JSON Lines (bytes as read from a file, or text already decoded)."""
    if isinstance(raw, bytes):
        try:
            # A byte order mark some editors write is no JSON whitespace.
            raw = raw.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            return [(WHOLE_LINE, EventRefusalReason.NOT_UTF8.value)]
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        # ValueError covers malformed JSON and integers longer than Python converts; RecursionError,
        # arrays or objects nested deeper than the parser follows.
        return [(WHOLE_LINE, EventRefusalReason.INVALID_JSON.value)]
    return validate_event(data, now=now)


def parse_lines(
    lines: Iterable[bytes | str], *, now: datetime | None = None
) -> Iterator[tuple[int, SourceEvent] | Refusal]:
    """Each non-blank line's event with its line number (from 1), or its refusals."""
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        parsed = parse_line(raw, now=now)
        if isinstance(parsed, SourceEvent):
            yield number, parsed
        else:
            yield from (Refusal(number, field, reason) for field, reason in parsed)
