"""`agent eval score FILE.jsonl --json` through the agent command: one answer a pair, in input order."""

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from adapters.cli.main import app

runner = CliRunner()

GOLD: dict[str, Any] = {
    "claim_kind": "habit",
    "derivation": "direct",
    "longevity": "ongoing",
    "subject": "activity:swimming",
    "statements": ["User swims laps at the community pool twice a week."],
    "compatible_kinds": ["project_fact"],
}
BELIEF: dict[str, Any] = {
    "claim_kind": "habit",
    "derivation": "direct",
    "longevity": "ongoing",
    "subject": "activity:swimming",
    "statement": "User swims laps at the community pool twice a week.",
    "polarity": "assert",
}


def _pair(**belief: Any) -> str:
    return json.dumps({"gold": GOLD, "belief": BELIEF | belief})


def _write(tmp_path: Path, lines: list[str], tail: bytes = b"") -> Path:
    path = tmp_path / "pairs.jsonl"
    path.write_bytes(("\n".join(lines) + "\n").encode("utf-8") + tail)
    return path


def test_one_answer_a_pair_in_input_order(tmp_path: Path) -> None:
    pairs = _write(
        tmp_path,
        [
            _pair(),
            _pair(statement="User runs laps at the community pool twice a week."),
            _pair(subject="user"),
            _pair(
                claim_kind="project_fact",
                longevity="durable",
                statement="User swims laps at the pool twice a week.",
            ),
            _pair(statement="User swims laps at the community pool three times a week."),
        ],
    )
    result = runner.invoke(app, ["eval", "score", str(pairs), "--json"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows == [
        {"match": True, "reason": "match"},
        {"match": False, "reason": "sibling_activity"},
        {"match": False, "reason": "user_subject"},
        {"match": True, "reason": "match"},
        {"match": False, "reason": "count_differs"},
    ]
    assert "distillation-scorer@7: 2 of 5 matched, 0 refused" in result.stderr


def test_statement_only_scores_the_controls(tmp_path: Path) -> None:
    pairs = _write(tmp_path, [_pair(subject="user", claim_kind="skill")])
    scored = runner.invoke(app, ["eval", "score", str(pairs), "--json"])
    controls = runner.invoke(app, ["eval", "score", str(pairs), "--json", "--statement-only"])
    assert json.loads(scored.stdout) == {"match": False, "reason": "kind_incompatible"}
    assert json.loads(controls.stdout) == {"match": True, "reason": "match"}


def test_bad_lines_answer_in_place_with_a_reason_code_and_no_content(tmp_path: Path) -> None:
    secret = "User keeps their diary under the loose floorboard."
    pairs = _write(
        tmp_path,
        [
            _pair(),
            '{"gold": ' + json.dumps(GOLD | {"statements": [secret]}),
            json.dumps({"gold": GOLD | {"subject": "user"}, "belief": BELIEF | {"statement": secret}}),
            json.dumps({"gold": GOLD, "belief": BELIEF | {"claim_kind": "hobby"}}),
            "",
            "[1, 2]",
            _pair(statement=secret),
            "[" * 100_000,
        ],
        tail=b'{"gold": "\xff"}\n',
    )
    result = runner.invoke(app, ["eval", "score", str(pairs), "--json"])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows == [
        {"match": True, "reason": "match"},
        {"line": 2, "field": "-", "error": "invalid_json"},
        {"line": 3, "field": "gold", "error": "value_error"},
        {"line": 4, "field": "belief.claim_kind", "error": "enum"},
        {"line": 6, "field": "-", "error": "model_type"},
        {"match": False, "reason": "count_differs"},
        {"line": 8, "field": "-", "error": "invalid_json"},
        {"line": 9, "field": "-", "error": "not_utf8"},
    ]
    assert "refused line 4: belief.claim_kind: enum" in result.stderr
    assert "Traceback" not in result.output
    assert secret not in result.output and "floorboard" not in result.output


def test_human_output_names_match_and_reason(tmp_path: Path) -> None:
    result = runner.invoke(app, ["eval", "score", str(_write(tmp_path, [_pair(derivation="hypothesis")]))])
    assert result.exit_code == 0
    assert result.stdout.split() == ["no", "match", "derivation_differs"]
