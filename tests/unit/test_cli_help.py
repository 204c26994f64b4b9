"""`--help` on every `agent` command: it answers at once, says what the command does, and its usage line
promises a COMMAND only where there are subcommands to name."""

import pytest
import typer
from typer.testing import CliRunner

from adapters.cli.main import app


def _commands() -> list[tuple[list[str], bool]]:
    """Every command path below `agent`, and whether it has subcommands."""
    found: list[tuple[list[str], bool]] = []

    def walk(command: object, path: list[str]) -> None:
        subcommands = getattr(command, "commands", {})
        if path:
            found.append((path, bool(subcommands)))
        for name, sub in sorted(subcommands.items()):
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return found


@pytest.mark.parametrize(
    ("path", "has_subcommands"), [pytest.param(p, s, id=" ".join(p)) for p, s in _commands()]
)
def test_help_says_what_the_command_does_and_names_a_command_only_when_there_is_one(
    path: list[str], has_subcommands: bool
) -> None:
    shown = CliRunner().invoke(app, [*path, "--help"], prog_name="agent", env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    usage = next(line for line in shown.stdout.splitlines() if "Usage:" in line)
    assert f"agent {' '.join(path)}" in usage
    assert ("COMMAND" in usage) == has_subcommands, usage
    command = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]  # type: ignore[attr-defined]
    assert command.help and command.help.strip(), f"agent {' '.join(path)} has no help text"
