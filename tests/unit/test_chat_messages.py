"""Chat messages read as events: roles to kinds, content shapes, server numbering, client session ids."""

from datetime import timedelta
from uuid import UUID

import pytest

from domain.events import SourceEventKind
from domain.messages import message_event, numbered_events, session_uuid
from domain.owner import Owner
from tests.builders import T0

ALICE = Owner(tenant_id="acme", principal_id="alice")


@pytest.mark.parametrize(
    ("role", "kind"),
    [
        ("user", SourceEventKind.USER_MESSAGE),
        ("assistant", SourceEventKind.ASSISTANT_MESSAGE),
        ("tool", SourceEventKind.TOOL_RESULT),
    ],
)
def test_each_role_states_who_spoke(role: str, kind: SourceEventKind) -> None:
    assert message_event({"role": role, "content": "Hi."}) == {"kind": kind.value, "text": "Hi."}


def test_system_unknown_roles_non_text_content_and_extra_fields_are_refused_by_reason() -> None:
    assert message_event({"role": "system", "content": "Be brief."}) == [
        ("role", "system_message_not_stored")
    ]
    assert message_event({"role": "developer", "content": "x"}) == [("role", "unknown_role")]
    assert message_event({"role": "user", "content": [{"type": "image_url", "image_url": {}}]}) == [
        ("content", "content_not_text")
    ]
    assert message_event({"role": "assistant", "content": None, "tool_calls": []}) == [
        ("tool_calls", "extra_forbidden"),
        ("content", "content_not_text"),
    ]
    assert message_event({"role": "user"}) == [("content", "missing")]


def test_text_parts_are_joined_and_given_seq_and_time_are_kept() -> None:
    parts = [{"type": "text", "text": "First."}, {"type": "text", "text": "Second."}]
    assert message_event(
        {"role": "user", "content": parts, "seq": 4, "occurred_at": "2026-01-01T00:00:00Z"}
    ) == {
        "kind": "user_message",
        "text": "First.\nSecond.",
        "seq": 4,
        "occurred_at": "2026-01-01T00:00:00Z",
    }


def test_omitted_seqs_follow_the_stored_session_and_every_named_seq() -> None:
    later = T0 + timedelta(hours=1)
    filled = numbered_events(
        [{"text": "a"}, {"text": "b", "seq": 9, "occurred_at": T0}, {"text": "c"}], 5, later
    )
    assert [(e["seq"], e["occurred_at"]) for e in filled] == [(10, later), (9, T0), (11, later)]
    assert [e["seq"] for e in numbered_events([{"text": "a"}], 0, later)] == [1]


def test_a_client_session_id_maps_to_one_stored_session_per_owner() -> None:
    given = UUID("6a1c0b4e-0000-4000-8000-000000000001")
    assert session_uuid(ALICE, str(given)) == given
    assert session_uuid(ALICE, "chat-1") == session_uuid(
        Owner(tenant_id="acme", principal_id="alice"), "chat-1"
    )
    others = {
        session_uuid(Owner(tenant_id="acme", principal_id="bob"), "chat-1"),
        session_uuid(Owner(tenant_id="other", principal_id="alice"), "chat-1"),
        session_uuid(ALICE, "chat-2"),
    }
    assert session_uuid(ALICE, "chat-1") not in others and len(others) == 3
    for invalid in ("", "x" * 257, "tab\there"):
        with pytest.raises(ValueError):
            session_uuid(ALICE, invalid)
