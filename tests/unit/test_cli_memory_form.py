import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from adapters.cli.main import app

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
runner = CliRunner()


def _rows(output: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def test_json_rows_carry_the_documented_fields() -> None:
    result = runner.invoke(app, ["memory", "form", str(FIXTURES / "personal_agent.jsonl"), "--json"])
    assert result.exit_code == 0, result.output
    rows = _rows(result.stdout)
    assert {tuple(sorted(row)) for row in rows} == {
        (
            "claim_kind",
            "derivation",
            "evidence_spans",
            "longevity",
            "polarity",
            "session_id",
            "source_event_ids",
            "statement",
            "subject",
        )
    }
    statements = {row["statement"] for row in rows}
    assert {
        "User is building a personal AI agent.",
        "User likely has software-development experience.",
    } <= statements


def test_several_sessions_each_formed_and_non_owner_events_summarised(tmp_path: Path) -> None:
    combined = tmp_path / "all.jsonl"
    combined.write_text(
        (FIXTURES / "training_conversation.jsonl").read_text()
        + (FIXTURES / "personal_agent.jsonl").read_text()
    )
    result = runner.invoke(app, ["memory", "form", str(combined), "--json"])
    assert result.exit_code == 0
    rows = _rows(result.stdout)
    assert len({row["session_id"] for row in rows}) == 2
    assert len(rows) == 12 + 3  # the training conversation's eleven and the stated age; the agent's three
    assert "skipped 2 assistant_message event(s)" in result.stderr
    training_rows = [row for row in rows if row["session_id"].startswith("7b1e2c84")]
    assert all(set(row["source_event_ids"]) <= {1, 3, 5} for row in training_rows)


def test_bad_lines_reported_by_line_and_field_without_content(tmp_path: Path) -> None:
    good = (FIXTURES / "personal_agent.jsonl").read_text().strip()
    secret_text = "my secret diary entry"
    blank = json.loads(good) | {"seq": 2, "text": "   "}
    wrong_kind = json.loads(good) | {"seq": 3, "kind": "telepathy", "text": secret_text}
    control = json.loads(good) | {"seq": 4, "text": "\x00\x01"}
    path = tmp_path / "events.jsonl"
    path.write_text(
        "\n".join(
            [good, json.dumps(blank), "{not json " + secret_text, json.dumps(wrong_kind), json.dumps(control)]
        )
        + "\n"
    )
    result = runner.invoke(app, ["memory", "form", str(path), "--json"])
    # Refused lines are reported and exit 1 in the words of `agent events import`; the good line is formed.
    assert result.exit_code == 1
    assert "refused line 2: text" in result.stderr
    assert "refused line 3: -: invalid_json" in result.stderr
    assert "refused line 5: text: text_control_character" in result.stderr
    assert "refused line 4: kind" in result.stderr
    assert "refused 1 line(s): -: invalid_json" in result.stderr
    assert "rejected" not in result.stderr
    assert secret_text not in result.stderr
    rows = _rows(result.stdout)
    assert all(row["source_event_ids"] == [1] for row in rows)


def test_formation7_policy_and_human_table() -> None:
    path = str(FIXTURES / "training_conversation.jsonl")
    control = runner.invoke(app, ["memory", "form", path, "--policy", "formation@7", "--json"])
    assert control.exit_code == 0
    assert all(row["claim_kind"] is None for row in _rows(control.stdout))
    table = runner.invoke(app, ["memory", "form", path], env={"COLUMNS": "200"})
    assert table.exit_code == 0
    assert "User swims on the other days." in table.stdout


def test_help_on_every_command() -> None:
    assert "memory" in runner.invoke(app, ["--help"]).stdout
    help_text = runner.invoke(app, ["memory", "form", "--help"], env={"COLUMNS": "200"}).stdout
    assert "--policy" in help_text and "--json" in help_text and "JSON Lines" in help_text
