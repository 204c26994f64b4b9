"""Every refusal at the source-event boundary has a reason code, a line number and a field, never content."""

import json
from datetime import datetime, timedelta
from typing import Any

import pytest

from domain.beliefs.lifecycle import DURABLE_HORIZON_DAYS, HYPOTHESIS_HORIZON, ONGOING_HORIZON
from domain.event_intake import Refusal, parse_line, parse_lines
from domain.events import MAX_EVENT_TEXT_BYTES, MAX_SEQ, OCCURRED_AT_EARLIEST, OCCURRED_AT_LATEST, SourceEvent

SESSION = "7b1e2c84-0000-4000-8000-000000000001"
SECRET = "Zelmora-secret-phrase"


def row(**overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "tenant_id": "t1",
        "principal_id": "p1",
        "session_id": SESSION,
        "seq": 1,
        "kind": "user_message",
        "text": f"I am building {SECRET}.",
        "occurred_at": "2026-09-02T10:00:00Z",
    }
    return base | overrides


def refusals(raw: bytes | str) -> list[tuple[str, str]]:
    parsed = parse_line(raw)
    assert not isinstance(parsed, SourceEvent), "expected a refusal"
    return parsed


def line(**overrides: Any) -> str:
    return json.dumps(row(**overrides))


def test_a_valid_line_is_an_event() -> None:
    assert isinstance(parse_line(line()), SourceEvent)
    assert isinstance(parse_line(line().encode()), SourceEvent)


@pytest.mark.parametrize(
    "occurred_at",
    [
        "0001-01-01T00:00:00+14:00",  # the year-1 event that made load_batch fail forever
        "9999-12-31T23:59:59Z",  # the event whose expires_at overflowed in commit_segment
        "1969-12-31T23:59:59Z",
        OCCURRED_AT_LATEST.isoformat(),
    ],
)
def test_occurred_at_outside_the_window_is_refused(occurred_at: str) -> None:
    assert refusals(line(occurred_at=occurred_at)) == [("occurred_at", "occurred_at_out_of_range")]


def test_the_window_edges() -> None:
    assert isinstance(parse_line(line(occurred_at=OCCURRED_AT_EARLIEST.isoformat())), SourceEvent)
    last = (OCCURRED_AT_LATEST - timedelta(microseconds=1)).isoformat()
    assert isinstance(parse_line(line(occurred_at=last)), SourceEvent)


def test_the_latest_occurred_at_leaves_room_for_every_lifecycle_horizon() -> None:
    longest = max(
        [HYPOTHESIS_HORIZON, ONGOING_HORIZON, *(timedelta(days=d) for d in DURABLE_HORIZON_DAYS.values())]
    )
    # Ten times the longest horizon still fits below datetime.max: expires_at can never overflow.
    assert OCCURRED_AT_LATEST.replace(tzinfo=None) + 10 * longest < datetime.max


@pytest.mark.parametrize("seq", [2**63, 2**63 - 1, MAX_SEQ + 1])
def test_seq_beyond_the_documented_bound_is_refused(seq: int) -> None:
    assert refusals(line(seq=seq)) == [("seq", "seq_out_of_range")]


def test_the_largest_seq_is_accepted() -> None:
    assert isinstance(parse_line(line(seq=MAX_SEQ)), SourceEvent)


def test_seq_zero_keeps_its_reason_code() -> None:
    assert refusals(line(seq=0)) == [("seq", "greater_than")]


def test_nul_in_text_is_refused() -> None:
    assert refusals(line(text=f"{SECRET}\x00after")) == [("text", "text_control_character")]


def test_blank_text_has_a_reason_code_of_its_own() -> None:
    assert refusals(line(text=" \n\t ")) == [("text", "text_blank")]


def test_text_over_the_limit_has_a_reason_code_of_its_own() -> None:
    assert isinstance(parse_line(line(text="a" * MAX_EVENT_TEXT_BYTES)), SourceEvent)
    assert refusals(line(text="é" * (MAX_EVENT_TEXT_BYTES // 2 + 1))) == [("text", "text_too_long")]


def test_other_control_characters_postgresql_stores_are_kept() -> None:
    event = parse_line(line(text="tab\there, escape \x1b[0m, bell \x07"))
    assert isinstance(event, SourceEvent)


def test_a_lone_surrogate_in_text_is_refused() -> None:
    raw = line().replace(SECRET, "\\ud800")  # a JSON escape no UTF-8 store can hold
    assert refusals(raw) == [("text", "string_unicode")]


def test_a_byte_that_is_not_utf8_refuses_its_line_only() -> None:
    good = line().encode()
    bad = line(seq=2).encode().replace(b"building", b"build\xffing")
    results = list(parse_lines([good, bad, line(seq=3).encode()]))
    assert [item.line if isinstance(item, Refusal) else item[0] for item in results] == [1, 2, 3]
    assert results[1] == Refusal(2, "-", "not_utf8")


def test_a_byte_order_mark_on_the_first_line_is_not_a_refusal() -> None:
    assert isinstance(parse_line(b"\xef\xbb\xbf" + line().encode()), SourceEvent)


@pytest.mark.parametrize("field", ["tenant_id", "principal_id"])
def test_an_id_with_a_slash_is_refused_by_field(field: str) -> None:
    assert refusals(line(**{field: "t1/other"})) == [(field, "string_pattern_mismatch")]


def test_a_session_that_is_not_a_uuid_is_refused() -> None:
    assert refusals(line(session_id="../etc")) == [("session_id", "uuid_parsing")]


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("{not json " + SECRET, "invalid_json"),
        ("[" * 100_000, "invalid_json"),  # nested deeper than the parser recurses
        ('{"seq": ' + "9" * 5000 + "}", "invalid_json"),  # longer than Python converts to int
        ("[1, 2]", "not_an_object"),
        ('"' + SECRET + '"', "not_an_object"),
    ],
)
def test_lines_that_are_no_event_object(raw: str, reason: str) -> None:
    assert refusals(raw) == [("-", reason)]


def test_every_field_refusal_is_reported_and_none_quotes_content() -> None:
    found = refusals(line(seq=2**63, text="\x00" + SECRET, occurred_at="9999-12-31T23:59:59Z", extra=SECRET))
    assert sorted(found) == [
        ("extra", "extra_forbidden"),
        ("occurred_at", "occurred_at_out_of_range"),
        ("seq", "seq_out_of_range"),
        ("text", "text_control_character"),
    ]
    assert SECRET not in str(found)


def test_blank_lines_are_skipped_and_numbers_stay_true() -> None:
    results = list(parse_lines(["\n", line() + "\n", "   \n", "[]\n"]))
    assert results[0] == (2, parse_line(line()))
    assert results[1] == Refusal(4, "-", "not_an_object")
