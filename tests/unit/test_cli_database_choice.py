"""One rule chooses the database of every `agent` command: --embedded, else DATABASE_URL, else one line saying
so (never a silently created embedded database). A malformed DATABASE_URL is one line that does not quote
it; the embedded server's import prints no platformdirs warning when XDG_RUNTIME_DIR is unset."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adapters.cli.failures import EXIT_USAGE
from adapters.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
BELIEF = "00000000-0000-4000-8000-000000000001"
OWNER = ["--tenant", "t1", "--principal", "p1"]


def one_line_refusal(args: list[str], database_url: str | None) -> str:
    result = CliRunner().invoke(app, args, env={"DATABASE_URL": database_url})
    assert result.exit_code == EXIT_USAGE, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("agent: "), result.stderr
    return lines[0]


@pytest.fixture(autouse=True)
def no_dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # Settings also reads a .env in the working directory; this one has none, and no dev data dir.
    monkeypatch.chdir(tmp_path)
    return tmp_path


def commands(tmp_path: Path) -> list[tuple[list[str], list[str]]]:
    """(the command, its arguments) of every command that opens the database."""
    events = tmp_path / "events.jsonl"
    events.write_text("{}\n")
    return [
        (["memory", "list"], OWNER),
        (["memory", "show"], [BELIEF, *OWNER]),
        (["memory", "recall"], [*OWNER, "--query", "climbing"]),
        (["memory", "cite"], [*OWNER, "--run", BELIEF, "--returned", BELIEF]),
        (["memory", "formation-tuple", "show"], OWNER),
        (["events", "import"], [str(events)]),
        (["db", "current"], []),
        (["db", "upgrade"], []),
        (["api"], []),
        (["mcp"], []),
    ]


def test_every_database_command_refuses_alike_when_no_database_is_chosen(tmp_path: Path) -> None:
    lines = {one_line_refusal([*command, *args], None) for command, args in commands(tmp_path)}
    assert len(lines) == 1, lines
    [line] = lines
    assert "DATABASE_URL" in line and "--embedded" in line
    assert not (tmp_path / ".dev").exists(), "no embedded database may be created unasked"


def test_every_database_command_takes_embedded(tmp_path: Path) -> None:
    for command, _ in commands(tmp_path):
        assert "--embedded" in CliRunner().invoke(app, [*command, "--help"]).output, command


@pytest.mark.parametrize(
    "url",
    [
        "postgres//agent:hunter2@db/memory",
        "not a url hunter2",
        "postgresql://agent:hunter2@db:notaport/memory",
        "postgresql://agent:hunter2@[::1/memory",
        "mysql://agent:hunter2@db/memory",
    ],
)
def test_a_malformed_database_url_is_one_line_without_its_password(url: str) -> None:
    line = one_line_refusal(["memory", "list", *OWNER], url)
    assert "DATABASE_URL" in line and "postgresql://" in line
    assert "hunter2" not in line


def test_the_embedded_server_loads_without_a_platformdirs_warning() -> None:
    environment = {key: value for key, value in os.environ.items() if key != "XDG_RUNTIME_DIR"}
    environment["PYTHONPATH"] = str(ROOT)
    loaded = subprocess.run(
        [sys.executable, "-W", "default", "-c", "import adapters.embedded.postgres"],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert loaded.stderr == ""
