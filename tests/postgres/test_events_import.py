"""`agent events import` on real PostgreSQL: hostile lines are refused one by one, valid lines all stored."""

import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine
from typer.testing import CliRunner

from adapters.cli.events import import_events
from adapters.cli.main import app
from adapters.postgres.uow import PostgresStore
from domain.event_intake import parse_line
from domain.events import SourceEvent
from domain.owner import Owner

pytestmark = pytest.mark.postgres

SECRET = "Zelmora-secret-phrase"
REASON = re.compile(r"^[a-z_0-9]+$")


def row(session: str, seq: int, **overrides: Any) -> dict[str, Any]:
    return {
        "tenant_id": "t1",
        "principal_id": "p1",
        "session_id": session,
        "seq": seq,
        "kind": "user_message",
        "text": f"I am building {SECRET} number {seq}.",
        "occurred_at": "2026-09-02T10:00:00Z",
    } | overrides


def stored(store: PostgresStore, event: SourceEvent) -> bool:
    with store() as uow:
        found = uow.events.read_range(event.owner, event.session_id, event.seq - 1, 1)
    return bool(found) and found[0].seq == event.seq and found[0].text == event.text


def test_the_issue_s_hostile_lines_are_refused_by_line_and_the_rest_stored(
    tmp_path: Path, clean_postgres: Engine, postgres_url: str
) -> None:
    session = str(uuid.uuid4())
    lines = [
        json.dumps(row(session, 1)).encode(),
        json.dumps(row(session, 2, occurred_at="0001-01-01T00:00:00+14:00")).encode(),
        json.dumps(row(session, 3, occurred_at="9999-12-31T23:59:59Z")).encode(),
        json.dumps(row(session, 4, text=f"{SECRET}\x00")).encode(),
        json.dumps(row(session, 5)).encode().replace(b"building", b"buil\xff\xfeding"),
        json.dumps(row(session, 2**63)).encode(),
        json.dumps(row(session, 2**63 - 1)).encode(),
        json.dumps(row(session, 6, tenant_id="t1/other")).encode(),
        json.dumps(row(session, 7)).encode(),
    ]
    file = tmp_path / "hostile.jsonl"
    file.write_bytes(b"\n".join(lines) + b"\n")

    result = CliRunner().invoke(app, ["events", "import", str(file)], env={"DATABASE_URL": postgres_url})

    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    for expected in [
        "refused line 2: occurred_at: occurred_at_out_of_range",
        "refused line 3: occurred_at: occurred_at_out_of_range",
        "refused line 4: text: text_control_character",
        "refused line 5: -: not_utf8",
        "refused line 6: seq: seq_out_of_range",
        "refused line 7: seq: seq_out_of_range",
        "refused line 8: tenant_id: string_pattern_mismatch",
    ]:
        assert expected in result.stderr
    assert "appended 2, already present 0, refused 7" in result.stdout
    assert "Traceback" not in result.output and SECRET not in result.output
    store = PostgresStore(clean_postgres)
    owner = Owner(tenant_id="t1", principal_id="p1")
    with store() as uow:
        kept = uow.events.read_range(owner, uuid.UUID(session), 0, 10)
    assert [event.seq for event in kept] == [1, 7]


# What a careless client may put in each field instead of a valid value (MISSING: leaves it out).
MISSING = object()
HOSTILE_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
HOSTILE: dict[str, st.SearchStrategy[Any]] = {
    "tenant_id": st.sampled_from(["t1/other", "", "x" * 129]),
    "principal_id": st.sampled_from(["p/1", " p1"]),
    "session_id": st.sampled_from(["not-a-uuid", "../etc"]),
    "seq": st.integers(min_value=-(2**70), max_value=2**70) | st.sampled_from([0, 2**63 - 1, 2**63]),
    "kind": st.sampled_from(["telepathy", "USER_MESSAGE"]),
    "text": st.sampled_from(["ok \x00", " ", "x\ud800", ""]),
    "occurred_at": st.sampled_from(
        ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59Z", "2026-09-02T10:00:00", "yesterday"]
    ),
    "extra": st.just("field"),
}


@st.composite
def event_lines(draw: st.DrawFn, session: str) -> bytes:
    """One line: a valid event with up to two fields made hostile or left out, raw JSON, or raw bytes."""
    shape = draw(st.sampled_from(["event", "event", "event", "json", "bytes"]))
    if shape == "bytes":
        return draw(st.binary(max_size=60)).replace(b"\n", b" ")
    if shape == "json":
        return json.dumps(draw(HOSTILE_JSON)).encode()
    data = row(
        session,
        draw(st.integers(min_value=1, max_value=40)),
        tenant_id=draw(st.sampled_from(["t1", "t2"])),
        kind=draw(st.sampled_from(["user_message", "tool_result"])),
        text=draw(st.text(min_size=1, max_size=40)),
    )
    for name in draw(st.lists(st.sampled_from(sorted(HOSTILE)), max_size=2, unique=True)):
        value = draw(st.just(MISSING) | HOSTILE[name] | HOSTILE_JSON)
        if value is MISSING:
            data.pop(name, None)
        else:
            data[name] = value
    # ensure_ascii=False writes a lone surrogate as bytes no UTF-8 decoder accepts.
    return json.dumps(data, ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_lines_never_raise_and_never_lose_a_valid_line(
    data: st.DataObject, clean_postgres: Engine
) -> None:
    session = str(uuid.uuid4())
    lines = data.draw(st.lists(event_lines(session), min_size=1, max_size=25))
    store = PostgresStore(clean_postgres)

    report = import_events(store, lines)

    refused_lines = {refusal.line for refusal in report.refusals}
    assert all(REASON.match(r.reason) and SECRET not in r.field for r in report.refusals)
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        parsed = parse_line(raw)
        if isinstance(parsed, SourceEvent) and number not in refused_lines:
            assert stored(store, parsed), f"line {number} was neither stored nor refused"
        else:
            assert number in refused_lines, f"line {number} was refused silently"


def test_a_large_import_reports_progress_by_committed_batch(clean_postgres: Engine) -> None:
    session = str(uuid.uuid4())
    lines = [json.dumps(row(session, seq)) for seq in range(1, 1201)] + ["not json"]
    seen: list[tuple[int, int]] = []

    report = import_events(
        PostgresStore(clean_postgres), lines, lambda done, total: seen.append((done, total))
    )

    assert report.appended == 1200 and report.refused == 1
    assert seen == [(500, 1200), (1000, 1200), (1200, 1200)]
