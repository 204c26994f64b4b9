"""The `agent` commands of the orchestration issue, end to end on real PostgreSQL (and Temporal for dev)."""

import json
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Engine
from typer.testing import CliRunner

from adapters.cli.main import app
from adapters.postgres.uow import PostgresStore
from domain.owner import Owner
from tests.ports import free_port

pytestmark = pytest.mark.postgres

REPO = Path(__file__).resolve().parents[2]
SECRET = "Zelmora-secret-phrase"


def line(n: int, session: str, **overrides: object) -> str:
    row: dict[str, object] = {
        "tenant_id": "t1",
        "principal_id": "p1",
        "session_id": session,
        "seq": n,
        "kind": "user_message",
        "text": f"I am building {SECRET} number {n}.",
        "occurred_at": "2026-09-02T10:00:00Z",
    }
    row.update(overrides)
    return json.dumps({k: v for k, v in row.items() if v is not None})


def test_events_import_refuses_bad_lines_and_is_idempotent(
    tmp_path: Path, clean_postgres: Engine, postgres_url: str
) -> None:
    session = str(uuid.uuid4())
    file = tmp_path / "events.jsonl"
    file.write_text(
        "\n".join(
            [
                line(1, session),
                "{not json " + SECRET,
                line(2, session, text=None),
                line(3, session, kind="telepathy"),
                line(4, session, seq=0),
                line(5, session),
                line(1, session, text=f"{SECRET} rewritten"),
            ]
        )
        + "\n"
    )
    runner = CliRunner()
    env = {"DATABASE_URL": postgres_url}
    first = runner.invoke(app, ["events", "import", str(file)], env=env)
    assert first.exit_code == 1
    out = first.output
    assert "line 2: -: invalid_json" in out
    assert "line 3: text: missing" in out
    assert "line 4: kind: enum" in out
    assert "line 5: seq: greater_than" in out
    assert "line 7: seq: event_conflict" in out
    assert "appended 2, already present 0, refused 5" in out
    assert SECRET not in out and "telepathy" not in out

    file.write_text(line(1, session) + "\n" + line(5, session) + "\n")
    again = runner.invoke(app, ["events", "import", str(file)], env=env)
    assert again.exit_code == 0, again.output
    assert "appended 0, already present 2, refused 0" in again.output


def test_events_below_the_watermark_are_stored_late_not_refused_or_silently_skipped(
    tmp_path: Path, clean_postgres: Engine, postgres_url: str
) -> None:
    session = str(uuid.uuid4())
    store = PostgresStore(clean_postgres)
    with store() as uow:
        uow.watermarks.compare_and_set(Owner(tenant_id="t1", principal_id="p1"), uuid.UUID(session), 0, 5)
        uow.commit()
    file = tmp_path / "late.jsonl"
    file.write_text(line(3, session) + "\n" + line(6, session) + "\n")
    result = CliRunner().invoke(app, ["events", "import", str(file)], env={"DATABASE_URL": postgres_url})
    assert result.exit_code == 0, result.output
    assert "appended 2 (1 late), already present 0, refused 0" in result.output
    with store() as uow:
        late = uow.events.late_pending(Owner(tenant_id="t1", principal_id="p1"), uuid.UUID(session), 10)
    assert [e.seq for e in late] == [3]


def test_worker_against_a_wrong_revision_refuses_clearly(create_database: Callable[[], str]) -> None:
    empty = create_database()
    result = CliRunner().invoke(
        app, ["worker"], env={"DATABASE_URL": empty, "TEMPORAL_ADDRESS": "127.0.0.1:1"}
    )
    assert result.exit_code == 3
    assert "worker refused to start" in result.output
    assert "agent db upgrade" in result.output


def agent_dev(tmp_path: Path, ui_port: int, api_port: int | None = None) -> list[str]:
    """`agent dev` on free ports, its data under tmp_path."""
    agent = str(Path(sys.executable).with_name("agent"))
    ports = [
        "--port",
        str(free_port()),
        "--ui-port",
        str(ui_port),
        "--api-port",
        str(api_port or free_port()),
    ]
    return [agent, "dev", *ports, "--data-dir", str(tmp_path / "dev")]


@pytest.mark.temporal
def test_dev_demo_prints_memories_and_the_ui_address(tmp_path: Path) -> None:
    ui_port = free_port()
    done = subprocess.run(
        [*agent_dev(tmp_path, ui_port), "--demo", "--exit"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "imported the sample: appended 9" in done.stdout
    assert "[m:" in done.stdout and "confidence)" in done.stdout
    assert f"http://127.0.0.1:{ui_port}" in done.stdout
    assert "stopped" in done.stdout


@pytest.mark.temporal
def test_dev_stops_on_sigint_within_its_grace(tmp_path: Path) -> None:
    dev = subprocess.Popen(
        agent_dev(tmp_path, free_port()),
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert dev.stdout is not None
        for line in dev.stdout:
            if "worker running" in line:
                break
        signalled_at = time.monotonic()
        dev.send_signal(signal.SIGINT)
        code = dev.wait(timeout=60)
        stopped_after = time.monotonic() - signalled_at
    finally:
        dev.kill()
    assert code == 0
    # The in-process worker's grace is 5 s, then SHUTDOWN_MARGIN_S; PostgreSQL and Temporal stop after it.
    assert stopped_after < 30, stopped_after


@pytest.mark.temporal
def test_a_second_dev_on_the_same_data_dir_is_refused_at_once_and_the_first_keeps_its_key(
    tmp_path: Path,
) -> None:
    api_port = free_port()
    first = subprocess.Popen(
        agent_dev(tmp_path, free_port(), api_port),
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert first.stdout is not None
        printed: list[str] = []
        for output in first.stdout:
            printed.append(output.strip())
            if "worker running" in output:
                break
        key = printed[printed.index(next(p for p in printed if p.startswith("development service key"))) + 1]
        started = time.monotonic()
        second = subprocess.run(
            [*agent_dev(tmp_path, free_port()), "--demo", "--exit"],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert second.returncode == 2, second.stdout + second.stderr
        assert time.monotonic() - started < 20
        assert second.stdout == ""
        [refusal] = second.stderr.splitlines()
        assert str((tmp_path / "dev").resolve()) in refusal and "in use" in refusal
        # The first instance's key still works: the refused start revoked nothing.
        answer = httpx.get(
            f"http://127.0.0.1:{api_port}/v1/beliefs",
            params={"user_id": "alice"},
            headers={"Authorization": f"Bearer {key}"},
        )
        assert answer.status_code == 200, answer.text
    finally:
        # Ctrl-C even when an assertion failed: a killed `agent dev` would leave its servers running.
        first.send_signal(signal.SIGINT)
        code = first.wait(timeout=60)
    assert code == 0
