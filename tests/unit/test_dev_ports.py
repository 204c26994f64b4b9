"""`agent dev`, `agent api` and `agent mcp --transport http` on a port something else listens on: one line
naming the port and the option that moves it, exit 2, before anything starts (not a server's own error after
PostgreSQL, Temporal or the database were opened, with an exit code of its own)."""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ports import free_port

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("option", ["--api-port", "--port", "--ui-port"])
def test_a_port_in_use_is_refused_before_anything_starts(tmp_path: Path, option: str) -> None:
    ports = {"--api-port": free_port(), "--port": free_port(), "--ui-port": free_port()}
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        ports[option] = taken.getsockname()[1]
        data_dir = tmp_path / "dev"
        done = subprocess.run(
            [sys.executable, "-m", "adapters.cli.main", "dev", "--data-dir", str(data_dir)]
            + [str(part) for pair in ports.items() for part in pair],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr.splitlines() == [
        f"agent: port {ports[option]} on 127.0.0.1 is in use; pick another with {option}"
    ]
    assert not (data_dir / "postgres").exists() and not (data_dir / "temporal").exists()


@pytest.mark.parametrize("option", ["--api-port", "--port", "--ui-port"])
def test_a_port_out_of_range_is_a_usage_error(tmp_path: Path, option: str) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "adapters.cli.main",
            "dev",
            "--data-dir",
            str(tmp_path / "dev"),
            option,
            "70000",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr[-2000:]
    assert (
        done.stderr == f"agent: Invalid value for '{option}': Input should be less than or equal to 65535\n"
    )


@pytest.mark.parametrize("command", [["api", "--workers", "1"], ["mcp", "--transport", "http"]])
def test_a_server_on_a_port_in_use_is_refused_before_it_opens_the_database(command: list[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        # No database at all: the port is what is refused, first.
        environment = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        done = subprocess.run(
            [sys.executable, "-m", "adapters.cli.main", *command, "--port", str(port)],
            cwd=REPO,
            env=environment,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr.splitlines() == [
        f"agent: port {port} on 127.0.0.1 is in use; pick another with --port"
    ]
