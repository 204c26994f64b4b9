"""Strict JSON types at every boundary: a boolean or a string is never a number; an API event batch is
refused element by element like an import file (422 only when every element is refused); the round
summary names late events as late.

Seen before: "seq": true was stored as seq 1 and "seq": "2" as 2, recall took "k": true, one non-object
element refused a whole API batch, and `session idle --wait` printed "events 6-5"."""

import json
from typing import Any
from uuid import uuid4

import pytest
from fastapi.testclient import TestClient

from adapters.cli.session import round_events
from adapters.memory.store import InMemoryStore
from domain.event_intake import parse_line
from domain.telemetry import RunOutcome
from tests.builders import OWNER
from tests.unit.test_agent_api import auth
from tests.unit.test_agent_api import client as client  # noqa: F401 (the fixture)
from tests.unit.test_agent_api import idle as idle  # noqa: F401 (the fixture)
from tests.unit.test_agent_api import store as store  # noqa: F401 (the fixture)
from workflows.session_contracts import RoundResult

GOOD: dict[str, Any] = {
    "seq": 1,
    "kind": "user_message",
    "text": "I climb.",
    "occurred_at": "2026-09-02T10:00:00Z",
}


@pytest.mark.parametrize(("seq", "reason"), [(True, "int_type"), ("2", "int_type"), (2.0, "int_type")])
def test_a_seq_that_is_not_a_json_integer_is_refused(seq: Any, reason: str) -> None:
    line = json.dumps(
        {"tenant_id": "t1", "principal_id": "p1", "session_id": str(uuid4()), **GOOD, "seq": seq}
    )
    assert parse_line(line) == [("seq", reason)]


def test_recall_refuses_a_boolean_or_a_string_k(client: TestClient) -> None:
    for k in (True, "3"):
        response = client.post("/v1/recall", json={"query": "climbing", "k": k}, headers=auth())
        assert response.status_code == 422
        assert response.json()["error"]["fields"] == [{"field": "body.k", "reason": "int_type"}]
    assert client.post("/v1/recall", json={"query": "climbing", "k": 3}, headers=auth()).status_code == 200


def test_an_api_batch_refuses_element_by_element_and_answers_422_only_when_all_are_refused(
    client: TestClient, store: InMemoryStore
) -> None:
    session = uuid4()
    url = f"/v1/sessions/{session}/events"
    mixed = client.post(url, json={"events": [GOOD, [1], "text", {**GOOD, "seq": True}]}, headers=auth())
    assert mixed.status_code == 200
    body = mixed.json()
    assert body["appended"] == 1
    assert [(r["index"], r["field"], r["reason"]) for r in body["refused"]] == [
        (1, "-", "not_an_object"),
        (2, "-", "not_an_object"),
        (3, "seq", "int_type"),
    ]
    with store() as uow:
        assert [e.seq for e in uow.events.read_range(OWNER, session, 0, 10)] == [1]

    refused = client.post(url, json={"events": [7, {**GOOD, "seq": "2"}]}, headers=auth())
    assert refused.status_code == 422
    assert refused.json() == {
        "error": {
            "reason": "all_refused",
            "refused": [
                {"index": 0, "field": "-", "reason": "not_an_object"},
                {"index": 1, "field": "seq", "reason": "int_type"},
            ],
        }
    }


def _round(from_seq: int, to_seq: int, late: tuple[tuple[int, int], ...]) -> RoundResult:
    return RoundResult(
        run_id=uuid4(),
        outcome=RunOutcome.COMPLETED,
        from_seq=from_seq,
        to_seq=to_seq,
        segment_count=1,
        held_back=0,
        watermark_advanced=to_seq > from_seq,
        late=late,
    )


def test_the_round_summary_names_late_events_as_late_never_as_a_backwards_range() -> None:
    assert round_events(_round(5, 5, ((3, 3),))) == "late event 3"
    assert round_events(_round(5, 8, ((2, 4),))) == "events 6-8, late events 2-4"
    assert round_events(_round(0, 4, ())) == "events 1-4"
