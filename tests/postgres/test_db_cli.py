"""`agent db`: upgrade, current and an explicit downgrade against DATABASE_URL."""

from collections.abc import Callable

import pytest
from typer.testing import CliRunner

from adapters.cli.db import db_app
from adapters.cli.main import app
from adapters.postgres import schema

pytestmark = pytest.mark.postgres


def test_db_commands_upgrade_report_and_downgrade_explicitly(
    create_database: Callable[[], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", create_database())
    runner = CliRunner()

    refused = runner.invoke(db_app, ["current"])
    assert refused.exit_code == 1
    assert "agent db upgrade" in refused.output

    upgraded = runner.invoke(db_app, ["upgrade"])
    assert upgraded.exit_code == 0, upgraded.output
    assert f"-> {schema.script_directory().get_current_head()}" in upgraded.output
    # Scripts read the outcome from stdout: one line, and no progress bar's leftovers around it.
    assert upgraded.stdout.splitlines() == [
        f"upgraded empty database -> {schema.script_directory().get_current_head()}"
    ]

    current = runner.invoke(db_app, ["current"])
    assert current.exit_code == 0 and "status:   ok" in current.output

    implied = runner.invoke(db_app, ["downgrade"])
    assert implied.exit_code != 0

    downgraded = runner.invoke(db_app, ["downgrade", schema.STRUCTURAL_REVISION])
    assert downgraded.exit_code == 0, downgraded.output
    assert f"-> {schema.STRUCTURAL_REVISION}" in downgraded.output


def test_db_commands_need_a_database(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    result = CliRunner().invoke(app, ["db", "current"])
    assert result.exit_code == 2
    assert "DATABASE_URL" in result.output and "Traceback" not in result.output
