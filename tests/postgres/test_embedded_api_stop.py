"""`agent api --embedded` stops the embedded PostgreSQL it started when it is stopped, as `agent dev` does:
on SIGTERM (which uvicorn re-raises after its graceful shutdown), and with several server processes (each
registers with the server and ends without the exit handlers that would deregister it). A handle left by a
process that is gone never keeps the server up for the processes that remain."""

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from adapters.embedded.postgres import stop_embedded_postgres
from tests.ports import free_port

pytestmark = pytest.mark.postgres

REPO = Path(__file__).resolve().parents[2]


def agent(*args: str, data_dir: Path, **popen: object) -> subprocess.Popen[str]:
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"} | {
        "DEV_DATA_DIR": str(data_dir)
    }
    return subprocess.Popen(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "adapters.cli.main", *args], cwd=REPO, env=environment, text=True, **popen
    )


def postgres_running(data_dir: Path) -> bool:
    return (data_dir / "postgres" / "postmaster.pid").exists()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_stopped_api_stops_the_embedded_postgres_it_started(tmp_path: Path, workers: str) -> None:
    data_dir = tmp_path / "dev"
    for command in (["db", "upgrade"], ["keys", "issue", "--tenant", "t1", "--service"]):
        done = agent(*command, "--embedded", data_dir=data_dir, stdout=subprocess.DEVNULL)
        assert done.wait(timeout=120) == 0
    assert not postgres_running(data_dir)
    port = free_port()
    api = agent(
        "api",
        "--embedded",
        "--port",
        str(port),
        "--workers",
        workers,
        data_dir=data_dir,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        # Its own process group, so a failed test ends its server processes too.
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                    break
            except OSError:
                assert time.monotonic() < deadline and api.poll() is None, "the API did not answer"
                time.sleep(0.3)
        assert postgres_running(data_dir)
        api.send_signal(signal.SIGTERM)
        api.wait(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(api.pid, signal.SIGKILL)
    try:
        # The API's exit handlers stop it before the process ends.
        assert not postgres_running(data_dir)
        assert json.loads((data_dir / "postgres" / ".handle_pids.json").read_text()) == []
    finally:
        if postgres_running(data_dir):
            stop_embedded_postgres(data_dir / "postgres")
