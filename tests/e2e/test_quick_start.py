"""The quick start, exactly: `agent dev`, then three lines of Python with the client, against the real stack
(embedded PostgreSQL, the Temporal dev server, the in-process worker and the HTTP API `agent dev` serves)."""

import re
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from openai import OpenAI

from examples.chat_agent import RememberingAgent
from memory_client import MemoryClient
from tests.e2e.test_cli import REPO, agent_dev, free_port
from tests.providers.wire_server import WireServer, openai_completion

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


def _example_agent_remembers(m: MemoryClient) -> None:
    """examples/chat_agent.py on the same stack, its model the local protocol server: the memory formed above
    is in its prompt, and its own exchange is consolidated when it goes idle."""
    wire = WireServer().start()
    try:
        wire.script(openai_completion("A lentil stew, then."))
        llm = OpenAI(base_url=f"{wire.base_url}/v1", api_key="test", max_retries=0)
        agent = RememberingAgent(llm, m, user_id="alice", session_id="chat-2", model="gpt-test")
        assert agent.reply("What is my diet? Suggest a dinner.") == "A lentil stew, then."
        agent.idle(wait=True)
    finally:
        wire.stop()
    [request] = wire.requests
    assert "User is vegetarian." in request.body["messages"][0]["content"]
    status = m.status("chat-2", user_id="alice")
    assert (status.last_seq, status.watermark, status.consolidation) == (2, 2, "idle")


def test_quick_start_three_lines_after_agent_dev_recall_a_memory(tmp_path: Path) -> None:
    api_port = free_port()
    dev = subprocess.Popen(
        agent_dev(tmp_path, free_port(), api_port),
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
        consolidated = m.consolidate("chat-1", user_id="alice", wait=True)
        found = m.search("what is my diet?", user_id="alice")

        assert [memory.statement for memory in found.memories] == ["User is vegetarian."], found
        assert "User is vegetarian." in found.context
        assert time.monotonic() - started < 120
        status = consolidated.status
        assert status is not None and status.consolidation == "idle"
        assert (status.last_seq, status.watermark, status.pending) == (1, 1, 0)
        assert status.last_round is not None and status.last_round.to_seq == 1
        # Another user of the same key has no memories of alice's.
        assert m.search("what is my diet?", user_id="bob").memories == []
        _example_agent_remembers(m)
    finally:
        dev.send_signal(signal.SIGINT)
        try:
            dev.wait(timeout=60)
        finally:
            dev.kill()
    assert f"HTTP API at http://127.0.0.1:{api_port}" in "".join(lines)


def test_the_readme_shows_the_quick_start_this_file_runs() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for line in (
        'm = MemoryClient("http://127.0.0.1:8080", api_key=KEY)',
        'm.add([{"role": "user", "content": "I\'m vegetarian"}], user_id="alice", session_id="chat-1")',
        'm.consolidate("chat-1", user_id="alice", wait=True)',
        'print(m.search("what is my diet?", user_id="alice"))',
    ):
        assert line in readme, line
