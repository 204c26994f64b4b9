"""The documentation stays true to the repository: every command of `agent` has its reference entry, nothing
points outside the repository, and the README stays a ten-minute read."""

import re
import subprocess
from pathlib import Path

import typer

from adapters.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
CLI_REFERENCE = ROOT / "docs" / "reference" / "cli.md"
README_MAX_LINES = 250


def _command_paths() -> list[str]:
    paths: list[str] = []

    def walk(command: object, path: list[str]) -> None:
        if len(path) > 1:
            paths.append(" ".join(path))
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), ["agent"])
    return paths


def test_every_command_and_subcommand_is_in_the_cli_reference() -> None:
    reference = CLI_REFERENCE.read_text(encoding="utf-8")
    paths = _command_paths()
    # The walk reaches the nested groups, not only the top level.
    assert "agent memory formation-tuple set" in paths and "agent db upgrade" in paths
    missing = [path for path in paths if f"`{path}`" not in reference]
    assert missing == [], f"not documented in {CLI_REFERENCE.relative_to(ROOT)}: {missing}"


def test_every_argument_row_of_the_cli_reference_says_what_the_argument_is() -> None:
    """An argument's row gives its help text, as an option's does, not just the word "argument"."""
    reference = CLI_REFERENCE.read_text(encoding="utf-8")
    missing: list[str] = []

    def walk(command: object, path: list[str]) -> None:
        for param in getattr(command, "params", []):
            if isinstance(param, typer.core.TyperArgument):
                row = f"| `{param.name.upper()}` | {(param.help or '').strip()} |"
                header = re.search(rf"^#+ `{re.escape(' '.join(path))}`$", reference, re.MULTILINE)
                section = reference[header.end() :].split("\n#", 1)[0] if header else ""
                if row not in section:
                    missing.append(f"{' '.join(path)} {param.name.upper()}")
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), ["agent"])
    assert missing == [], f"argument rows without their help in {CLI_REFERENCE.relative_to(ROOT)}: {missing}"


def test_every_setting_is_in_the_configuration_reference() -> None:
    from adapters.settings import Settings

    reference = (ROOT / "docs" / "reference" / "configuration.md").read_text(encoding="utf-8")
    variables = []
    for name, field in Settings.model_fields.items():
        aliases = getattr(field.validation_alias, "choices", None) or [name]
        variables.append(str(aliases[0]).upper())
    missing = [variable for variable in variables if f"`{variable}`" not in reference]
    assert missing == [], f"settings not in docs/reference/configuration.md: {missing}"


def test_no_tracked_file_references_a_path_outside_the_repository() -> None:
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True
    ).stdout.split(b"\0")
    outside = "../" + "shared"  # split so this file does not match itself
    found = []
    for name in filter(None, tracked):
        path = ROOT / name.decode()
        if path.is_file() and outside.encode() in path.read_bytes():
            found.append(name.decode())
    assert found == []


def test_readme_is_at_most_250_lines() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES


def test_ci_runs_the_test_command_the_readme_gives_a_new_user() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Run the whole test suite from a fresh clone", 1)[1]
    command = section.split("```bash\n", 1)[1].split("\n```", 1)[0].strip()
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ci_lines[-1].strip() == command
