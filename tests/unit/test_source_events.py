"""Bad source events are refused when built, with an error that names the field."""

from typing import Any

import pytest
from pydantic import ValidationError

from domain.events import MAX_EVENT_TEXT_BYTES, SourceEvent

VALID: dict[str, Any] = {
    "tenant_id": "t1",
    "principal_id": "p1",
    "session_id": "0b5a5f56-8a8c-4c1e-9e4d-2f3f3a0c6f11",
    "seq": 1,
    "kind": "user_message",
    "text": "I am building a personal AI agent.",
    "occurred_at": "2026-09-02T10:00:00Z",
}


def test_valid_event_builds() -> None:
    event = SourceEvent.model_validate(VALID)
    assert event.is_owner_assertion and event.size_bytes == len(VALID["text"])


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("seq", 0),
        ("seq", -3),
        ("kind", "system_prompt"),
        ("text", ""),
        ("text", " \n\t "),
        ("text", "x" * (MAX_EVENT_TEXT_BYTES + 1)),
        ("occurred_at", "2026-09-02T10:00:00"),
        ("session_id", "not-a-uuid"),
        ("tenant_id", ""),
        ("principal_id", "p1/../p2"),
    ],
)
def test_malformed_event_is_refused_naming_the_field(field: str, value: object) -> None:
    with pytest.raises(ValidationError) as refused:
        SourceEvent.model_validate({**VALID, field: value})
    assert {error["loc"][0] for error in refused.value.errors()} == {field}


def test_unknown_field_is_refused() -> None:
    with pytest.raises(ValidationError) as refused:
        SourceEvent.model_validate({**VALID, "role": "system"})
    assert refused.value.errors()[0]["loc"] == ("role",)


@pytest.mark.parametrize(
    "kind", ["assistant_message", "model_output", "tool_result", "web_content", "gmail_read", "sms_ingested"]
)
def test_only_principal_and_paired_surface_messages_are_owner_assertions(kind: str) -> None:
    assert not SourceEvent.model_validate({**VALID, "kind": kind}).is_owner_assertion
    assert SourceEvent.model_validate({**VALID, "kind": "paired_surface_message"}).is_owner_assertion
