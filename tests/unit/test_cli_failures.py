"""An `agent` command whose database or Temporal server is away fails in one line, with exit code 69."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from adapters.cli.failures import EX_UNAVAILABLE
from adapters.cli.main import app

# Nothing listens on port 1: the connection is refused at once.
DOWN_DATABASE = {"DATABASE_URL": "postgresql+psycopg://agent:secret@127.0.0.1:1/memory"}
DOWN_TEMPORAL = {"TEMPORAL_ADDRESS": "127.0.0.1:1"}
BELIEF = "00000000-0000-4000-8000-000000000001"
SESSION = "7b1e2c84-0000-4000-8000-000000000001"


def one_line_failure(args: list[str], env: dict[str, str]) -> str:
    result = CliRunner().invoke(app, args, env=env)
    assert result.exit_code == EX_UNAVAILABLE, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("agent: "), result.stderr
    assert "secret" not in result.output
    return lines[0]


@pytest.mark.parametrize(
    "args",
    [
        ["memory", "list", "--tenant", "t1", "--principal", "p1"],
        ["memory", "show", BELIEF, "--tenant", "t1", "--principal", "p1"],
        ["memory", "cite", "--tenant", "t1", "--principal", "p1", "--run", BELIEF, "--returned", BELIEF],
        ["db", "current"],
        ["db", "upgrade"],
        ["db", "downgrade", "base"],
    ],
)
def test_database_down(args: list[str]) -> None:
    line = one_line_failure(args, DOWN_DATABASE)
    assert "the database failed" in line and "DATABASE_URL" in line


def test_database_down_for_an_import(tmp_path: Path) -> None:
    file = tmp_path / "events.jsonl"
    file.write_text("{}\n")
    assert "DATABASE_URL" in one_line_failure(["events", "import", str(file)], DOWN_DATABASE)


@pytest.mark.parametrize(
    "args",
    [
        ["session", "idle", "--tenant", "t1", "--principal", "p1", "--session", SESSION],
        # A session id as the agent sent it to the API, not a UUID: resolved, then Temporal is asked.
        ["session", "idle", "--tenant", "t1", "--principal", "p1", "--session", "chat-1"],
        ["repass", "list"],
        ["repass", "retry", f"repass/t1/p1/{SESSION}/1-2"],
        ["schedule", "install"],
    ],
)
def test_temporal_down(args: list[str]) -> None:
    line = one_line_failure(args, DOWN_TEMPORAL)
    assert "Temporal is not reachable at 127.0.0.1:1" in line and "TEMPORAL_ADDRESS" in line


@pytest.mark.parametrize(
    "args",
    [
        ["session", "idle", "--tenant", "t1/other", "--principal", "p1", "--session", SESSION],
        ["memory", "list", "--tenant", "t1", "--principal", "p/1"],
    ],
)
def test_an_id_the_domain_refuses_is_one_line_with_its_reason_code(args: list[str]) -> None:
    result = CliRunner().invoke(app, args, env=DOWN_TEMPORAL | DOWN_DATABASE)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "string_pattern_mismatch" in lines[0], result.stderr


@pytest.mark.parametrize("session", ["", "chat\t1", "x" * 257])
def test_a_session_id_the_api_refuses_is_one_line_with_its_reason_code(session: str) -> None:
    for command in ("idle", "release"):
        args = ["session", command, "--tenant", "t1", "--principal", "p1", "--session", session]
        result = CliRunner().invoke(app, args, env=DOWN_TEMPORAL)
        assert result.exit_code == 2, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "session_id_invalid" in lines[0], result.stderr


@pytest.mark.parametrize(
    ("variable", "value", "args"),
    [
        ("WORKER_METRICS_PORT", "abc", ["worker"]),
        ("MEMORY_FORMATION_MODE", "bogus", ["worker"]),
        ("WORKER_MAX_CONCURRENT_ACTIVITIES", "-7", ["worker"]),
        ("DEPLOYMENT", "staging", ["memory", "policy"]),
        ("AGENT_MEMORY_FORMATION_POLICY_PIN", "formation@3", ["memory", "policy"]),
        ("RELEASE_COMMIT", "deadbeef", ["schedule", "install"]),
        ("DATABASE_POOL_SIZE", "many", ["db", "current"]),
        # Without a scheme the exporter would fail on every batch of spans, long after start-up.
        ("OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318", ["worker"]),
    ],
)
def test_a_malformed_setting_is_one_line_naming_the_variable_not_its_value(
    variable: str, value: str, args: list[str]
) -> None:
    result = CliRunner().invoke(app, args, env=DOWN_DATABASE | DOWN_TEMPORAL | {variable: value})
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"agent: {variable} "), result.stderr
    # The value may be a secret an operator pasted into the wrong variable.
    assert value not in lines[0].removeprefix(f"agent: {variable} "), lines[0]


def test_a_temporal_profile_that_is_not_there_is_one_line(tmp_path: Path) -> None:
    profiles = tmp_path / "temporal.toml"
    profiles.write_text('[profile.default]\naddress = "127.0.0.1:1"\n')
    broken = tmp_path / "broken.toml"
    broken.write_text('[profile.production]\napi_key = "sekrit-key\n')
    for config_file, profile, named in (
        (profiles, "production", "TEMPORAL_PROFILE"),
        (tmp_path / "absent.toml", "default", "TEMPORAL_CONFIG_FILE"),
        (broken, "production", "TEMPORAL_CONFIG_FILE"),
    ):
        env = {"TEMPORAL_CONFIG_FILE": str(config_file), "TEMPORAL_PROFILE": profile}
        result = CliRunner().invoke(app, ["repass", "list"], env=env)
        assert result.exit_code == 2, result.output
        assert "Traceback" not in result.output and "sekrit" not in result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("agent: "), result.stderr
        assert named in lines[0] and profile in lines[0], lines[0]


def test_a_worker_with_an_embeddings_endpoint_and_no_key_refuses_to_start() -> None:
    """Otherwise it would start, and every embedding page would fail with AuthenticationError, each minute."""
    keyless = {"EMBEDDING_PROVIDER": "openai", "OPENAI_API_KEY": None, "EMBEDDING_API_KEY": None}
    result = CliRunner().invoke(app, ["worker"], env=DOWN_DATABASE | keyless | {"EMBEDDING_BASE_URL": None})
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "EMBEDDING_API_KEY" in lines[0] and "EMBEDDING_BASE_URL" in lines[0], lines
    # A compatible server of the operator's own may take no key: its base URL is enough to start.
    served = CliRunner().invoke(
        app, ["worker"], env=DOWN_DATABASE | keyless | {"EMBEDDING_BASE_URL": "http://127.0.0.1:1/v1"}
    )
    assert served.exit_code == 69, served.output


def test_a_temporal_unreachable_over_tls_says_tls_is_on() -> None:
    # An API key alone turns TLS on: against a plaintext server that is the likely cause, not a server down.
    line = one_line_failure(["repass", "list"], DOWN_TEMPORAL | {"TEMPORAL_API_KEY": "not-a-real-key"})
    assert "over TLS" in line and "TEMPORAL_API_KEY" in line, line
    assert "not-a-real-key" not in line
