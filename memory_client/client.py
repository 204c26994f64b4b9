"""MemoryClient and AsyncMemoryClient: the same methods, one blocking and one awaitable.

    m = MemoryClient("http://127.0.0.1:8080", api_key=KEY)
    m.add([{"role": "user", "content": "I'm vegetarian"}], user_id="alice", session_id="chat-1")
    m.consolidate("chat-1", user_id="alice", wait=True)
    m.search("what do I eat?", user_id="alice")

user_id names the user with a service key (required) and is refused with a personal key (it acts for its
own user). A refused call raises MemoryApiError carrying the API's reason code.
"""

import asyncio
import time
from collections.abc import Sequence
from types import TracebackType
from typing import Self
from uuid import UUID

import httpx

from memory_client import _calls
from memory_client._calls import SERVER_WAIT_S, Call, Message, Result, parsed
from memory_client.errors import ConsolidationTimeout
from memory_client.models import (
    AppendResult,
    GovernedResult,
    IdleResult,
    Memory,
    MemoryPage,
    RecallResult,
    RunCompletion,
    SessionStatus,
)

DEFAULT_TIMEOUT_S = 30.0
DEFAULT_CONSOLIDATE_TIMEOUT_S = 300.0


def _headers(api_key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_key}"}


def _wait_done(answer: IdleResult) -> bool:
    return answer.status is not None and answer.status.consolidation != "running"


class MemoryClient:
    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = DEFAULT_TIMEOUT_S,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        # A waiting idle call holds its connection up to SERVER_WAIT_S: the read timeout allows for it.
        self._http = httpx.Client(
            base_url=base_url,
            headers=_headers(api_key),
            timeout=httpx.Timeout(timeout, read=max(timeout, SERVER_WAIT_S + 10)),
            transport=transport,
        )

    def _send(self, call: Call[Result]) -> Result:
        response = self._http.request(call.method, call.path, params=call.params, json=call.body)
        return parsed(call, response)

    def add(
        self, messages: Sequence[Message], user_id: str | None = None, session_id: str | None = None
    ) -> AppendResult:
        """Append chat messages ({role, content}) or events to a session (default: the user's "default")."""
        return self._send(_calls.add(messages, user_id, session_id))

    def consolidate(
        self,
        session_id: str,
        user_id: str | None = None,
        wait: bool = False,
        timeout: float = DEFAULT_CONSOLIDATE_TIMEOUT_S,
    ) -> IdleResult:
        """Report the session idle, which consolidates it; with wait, return once the round is done
        (ConsolidationTimeout after timeout seconds)."""
        if not wait:
            return self._send(_calls.idle(session_id, user_id, None))
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            answer = self._send(_calls.idle(session_id, user_id, max(0.1, min(left, SERVER_WAIT_S))))
            if _wait_done(answer):
                return answer
            if time.monotonic() >= deadline:
                raise ConsolidationTimeout(202, "consolidation_running", answer.model_dump(mode="json"))

    def status(self, session_id: str, user_id: str | None = None) -> SessionStatus:
        return self._send(_calls.status(session_id, user_id))

    def search(self, query: str | None, user_id: str | None = None, k: int | None = None) -> RecallResult:
        """The memories relevant to query (all, freshest first, with None) and the rendered context block."""
        return self._send(_calls.search(query, user_id, k))

    def get(self, memory_id: str | UUID, user_id: str | None = None) -> Memory:
        """One memory by id or m:xxxxxxxx reference, with its provenance."""
        return self._send(_calls.get(memory_id, user_id)).belief

    def list(
        self, user_id: str | None = None, after: str | UUID | None = None, limit: int = 100
    ) -> MemoryPage:
        """The user's live memories in id order, a page at a time (pass the answer's next as after)."""
        return self._send(_calls.list_page(user_id, after, limit))

    def remember(
        self,
        subject: str,
        statement: str,
        claim_kind: str,
        source_session_id: str | UUID,
        source_seq: int,
        user_id: str | None = None,
        sensitivity: str = "internal",
        request_id: UUID | None = None,
    ) -> GovernedResult:
        """An explicit memory, sourced from one of the user's stored events (the stored session id and seq,
        as add answered them)."""
        return self._send(
            _calls.remember(
                subject=subject,
                statement=statement,
                claim_kind=claim_kind,
                source_session_id=source_session_id,
                source_seq=source_seq,
                sensitivity=sensitivity,
                user_id=user_id,
                request_id=request_id,
            )
        )

    def edit(
        self,
        memory_id: str | UUID,
        statement: str,
        user_id: str | None = None,
        request_id: UUID | None = None,
    ) -> GovernedResult:
        return self._send(_calls.edit(memory_id, statement, user_id, request_id))

    def reject(
        self, memory_id: str | UUID, user_id: str | None = None, request_id: UUID | None = None
    ) -> GovernedResult:
        """The user says a memory is wrong; formation will not form it again from the same evidence."""
        return self._send(_calls.reject(memory_id, user_id, request_id))

    def forget(
        self, memory_id: str | UUID, user_id: str | None = None, request_id: UUID | None = None
    ) -> GovernedResult:
        """Delete a memory at the user's request; formation will not form it again."""
        return self._send(_calls.forget(memory_id, user_id, request_id))

    def complete_run(
        self,
        run_id: str | UUID,
        returned: Sequence[str | UUID],
        cited: Sequence[str | UUID],
        user_id: str | None = None,
    ) -> RunCompletion:
        """Which recalled memories (returned_ids of a search) the answer used: moves the usage clock."""
        return self._send(_calls.complete_run(run_id, returned, cited, user_id))

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class AsyncMemoryClient:
    """MemoryClient's methods, awaitable."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = DEFAULT_TIMEOUT_S,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._http = httpx.AsyncClient(
            base_url=base_url,
            headers=_headers(api_key),
            timeout=httpx.Timeout(timeout, read=max(timeout, SERVER_WAIT_S + 10)),
            transport=transport,
        )

    async def _send(self, call: Call[Result]) -> Result:
        response = await self._http.request(call.method, call.path, params=call.params, json=call.body)
        return parsed(call, response)

    async def add(
        self, messages: Sequence[Message], user_id: str | None = None, session_id: str | None = None
    ) -> AppendResult:
        return await self._send(_calls.add(messages, user_id, session_id))

    async def consolidate(
        self,
        session_id: str,
        user_id: str | None = None,
        wait: bool = False,
        timeout: float = DEFAULT_CONSOLIDATE_TIMEOUT_S,
    ) -> IdleResult:
        if not wait:
            return await self._send(_calls.idle(session_id, user_id, None))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            left = deadline - loop.time()
            answer = await self._send(_calls.idle(session_id, user_id, max(0.1, min(left, SERVER_WAIT_S))))
            if _wait_done(answer):
                return answer
            if loop.time() >= deadline:
                raise ConsolidationTimeout(202, "consolidation_running", answer.model_dump(mode="json"))

    async def status(self, session_id: str, user_id: str | None = None) -> SessionStatus:
        return await self._send(_calls.status(session_id, user_id))

    async def search(
        self, query: str | None, user_id: str | None = None, k: int | None = None
    ) -> RecallResult:
        return await self._send(_calls.search(query, user_id, k))

    async def get(self, memory_id: str | UUID, user_id: str | None = None) -> Memory:
        return (await self._send(_calls.get(memory_id, user_id))).belief

    async def list(
        self, user_id: str | None = None, after: str | UUID | None = None, limit: int = 100
    ) -> MemoryPage:
        return await self._send(_calls.list_page(user_id, after, limit))

    async def remember(
        self,
        subject: str,
        statement: str,
        claim_kind: str,
        source_session_id: str | UUID,
        source_seq: int,
        user_id: str | None = None,
        sensitivity: str = "internal",
        request_id: UUID | None = None,
    ) -> GovernedResult:
        return await self._send(
            _calls.remember(
                subject=subject,
                statement=statement,
                claim_kind=claim_kind,
                source_session_id=source_session_id,
                source_seq=source_seq,
                sensitivity=sensitivity,
                user_id=user_id,
                request_id=request_id,
            )
        )

    async def edit(
        self,
        memory_id: str | UUID,
        statement: str,
        user_id: str | None = None,
        request_id: UUID | None = None,
    ) -> GovernedResult:
        return await self._send(_calls.edit(memory_id, statement, user_id, request_id))

    async def reject(
        self, memory_id: str | UUID, user_id: str | None = None, request_id: UUID | None = None
    ) -> GovernedResult:
        return await self._send(_calls.reject(memory_id, user_id, request_id))

    async def forget(
        self, memory_id: str | UUID, user_id: str | None = None, request_id: UUID | None = None
    ) -> GovernedResult:
        return await self._send(_calls.forget(memory_id, user_id, request_id))

    async def complete_run(
        self,
        run_id: str | UUID,
        returned: Sequence[str | UUID],
        cited: Sequence[str | UUID],
        user_id: str | None = None,
    ) -> RunCompletion:
        return await self._send(_calls.complete_run(run_id, returned, cited, user_id))

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()


__all__ = ["AsyncMemoryClient", "MemoryClient"]
