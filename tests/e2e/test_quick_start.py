"""The quick start, exactly: `agent dev`, then three lines of Python with the client, against the real stack
(embedded PostgreSQL, the Temporal dev server, the in-process worker and the HTTP API `agent dev` serves)."""

import re
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from memory_client import MemoryClient
from tests.e2e.test_cli import REPO, agent_dev, free_port

pytestmark = [pytest.mark.postgres, pytest.mark.temporal]

START_TIMEOUT_S = 240


def _wait_for_key(dev: subprocess.Popen[str], lines: list[str]) -> str:
    """The development key `agent dev` prints, once the worker runs."""
    assert dev.stdout is not None
    found = threading.Event()
    key: list[str] = []

    def read() -> None:
        assert dev.stdout is not None
        for line in dev.stdout:
            lines.append(line)
            if match := re.fullmatch(r"(mk_\S+)\s*", line):
                key.append(match.group(1))
            if "worker running" in line:
                found.set()
        found.set()

    threading.Thread(target=read, daemon=True).start()
    found.wait(START_TIMEOUT_S)
    assert key, "".join(lines)
    return key[0]


def test_quick_start_three_lines_after_agent_dev_recall_a_memory(tmp_path: Path) -> None:
    api_port = free_port()
    dev = subprocess.Popen(
        [*agent_dev(tmp_path, free_port()), "--api-port", str(api_port)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    try:
        key = _wait_for_key(dev, lines)
        started = time.monotonic()
        # The README's quick start, statement for statement (its port is 8080).
        m = MemoryClient(f"http://127.0.0.1:{api_port}", api_key=key)
        m.add([{"role": "user", "content": "I'm vegetarian"}], user_id="alice", session_id="chat-1")
        m.consolidate("chat-1", user_id="alice", wait=True)
        found = m.search("what is my diet?", user_id="alice")

        assert [memory.statement for memory in found.memories] == ["User is vegetarian."], found
        assert "User is vegetarian." in found.context
        assert time.monotonic() - started < 120
        # Another user of the same key has no memories of alice's.
        assert m.search("what is my diet?", user_id="bob").memories == []
    finally:
        dev.send_signal(signal.SIGINT)
        try:
            dev.wait(timeout=60)
        finally:
            dev.kill()
    assert f"HTTP API at http://127.0.0.1:{api_port}" in "".join(lines)
