"""The documentation stays true to the repository: every command of `agent` has its reference entry, every
method of the Python client and every MCP tool is listed with the arguments it takes, nothing points outside
the repository, and the README stays a ten-minute read."""

import ast
import inspect
import re
import subprocess
from pathlib import Path
from uuid import UUID

import anyio
import typer

from adapters.api.auth import Scope
from adapters.api.mcp import stdio_server
from adapters.api.surface import AgentSurface
from adapters.cli.main import app
from adapters.memory.store import InMemoryStore
from domain.owner import Owner
from memory_client import AsyncMemoryClient, MemoryClient

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
    # An argument's row says what to give, as its --help does, not only that it is one.
    assert re.findall(r"^\| `[A-Z_]+` \| argument \|$", reference, flags=re.MULTILINE) == []


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


def _documented_calls(page: str) -> dict[str, str]:
    """The calls a connection page's table lists, as written: name -> what is between the parentheses."""
    text = (ROOT / "docs" / "connect" / page).read_text(encoding="utf-8")
    return {m[1]: m[2] for m in re.finditer(r"^\| `(\w+)\(([^)]*)\)`", text, flags=re.MULTILINE)}


def test_the_python_client_page_lists_every_method_with_its_arguments_and_defaults() -> None:
    documented = _documented_calls("python.md")
    methods = {
        name: inspect.signature(method)
        for name, method in inspect.getmembers(MemoryClient, inspect.isfunction)
        if not name.startswith("_") and name != "close"
    }
    assert sorted(documented) == sorted(methods)
    for name, signature in methods.items():
        written = [argument.partition("=") for argument in documented[name].split(", ")]
        parameters = [p for p in signature.parameters.values() if p.name != "self"]
        assert [n for n, _, _ in written] == [p.name for p in parameters], name
        for (_, has_default, default), parameter in zip(written, parameters, strict=True):
            expected = None if parameter.default is inspect.Parameter.empty else parameter.default
            assert (bool(has_default), ast.literal_eval(default) if has_default else None) == (
                parameter.default is not inspect.Parameter.empty,
                expected,
            ), f"{name}({parameter.name})"
    # "AsyncMemoryClient has the same methods": the same names and arguments.
    for name, signature in methods.items():
        assert inspect.signature(getattr(AsyncMemoryClient, name)).parameters == signature.parameters, name


def test_the_mcp_page_lists_every_tool_with_its_arguments() -> None:
    async def idle(owner: Owner, session_id: UUID) -> str:
        raise AssertionError("listing the tools calls none")

    def resolve(secret: str, user_id: str | None) -> Scope:
        raise AssertionError("listing the tools calls none")

    server = stdio_server(AgentSurface(store=InMemoryStore(), idle_signal=idle), resolve, "key")
    tools = anyio.run(server.list_tools)
    documented = _documented_calls("mcp.md")
    assert sorted(documented) == sorted(tool.name for tool in tools)
    for tool in tools:
        required = set(tool.input_schema.get("required", []))
        # user_id is every tool's, said once above the table.
        arguments = [name for name in tool.input_schema["properties"] if name != "user_id"]
        written = [name if name in required else f"{name}?" for name in arguments]
        assert documented[tool.name] == ", ".join(written), tool.name
