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

    unknown = runner.invoke(db_app, ["downgrade", "0003_misspelt"])
    assert unknown.exit_code == 2 and "Traceback" not in unknown.output
    assert unknown.stderr.strip().splitlines() == [
        "agent: Can't locate revision identified by '0003_misspelt'"
    ], unknown.stderr

    downgraded = runner.invoke(db_app, ["downgrade", schema.STRUCTURAL_REVISION])
    assert downgraded.exit_code == 0, downgraded.output
    assert f"-> {schema.STRUCTURAL_REVISION}" in downgraded.output


def test_db_commands_need_a_database(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    result = CliRunner().invoke(app, ["db", "current"])
    assert result.exit_code == 2
    assert "DATABASE_URL" in result.output and "Traceback" not in result.output


def test_a_revision_this_release_does_not_know_is_one_line(
    create_database: Callable[[], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A release rolled back while the schema stayed on the newer one: the migration job says so."""
    from sqlalchemy import create_engine

    url = create_database()
    monkeypatch.setenv("DATABASE_URL", url)
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE alembic_version (version_num varchar(32) PRIMARY KEY)")
        connection.exec_driver_sql("INSERT INTO alembic_version VALUES ('0099_from_a_later_release')")
    engine.dispose()
    for args in (["db", "upgrade"], ["db", "downgrade", schema.STRUCTURAL_REVISION]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 3, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "0099_from_a_later_release" in lines[0], result.stderr
        assert "agent db downgrade" in lines[0]
