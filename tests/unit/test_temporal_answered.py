"""A Temporal server that stops answering after the client connected is the same refusal as one that never
answered: TemporalUnavailable, which the API and MCP answer with the reason temporal_unavailable."""

import asyncio

import pytest
from temporalio.service import RPCError, RPCStatusCode

from adapters.temporal.client import TemporalUnavailable, answered


async def failing(status: RPCStatusCode) -> str:
    raise RPCError("the server's words", status, b"")


async def succeeding() -> str:
    return "workflow-id"


@pytest.mark.parametrize("status", [RPCStatusCode.UNAVAILABLE, RPCStatusCode.DEADLINE_EXCEEDED])
def test_a_server_that_does_not_answer_is_unavailable(status: RPCStatusCode) -> None:
    with pytest.raises(TemporalUnavailable, match="127.0.0.1:7233"):
        asyncio.run(answered(failing(status), "127.0.0.1:7233"))


def test_a_refusal_and_an_answer_pass_through() -> None:
    with pytest.raises(RPCError) as refused:
        asyncio.run(answered(failing(RPCStatusCode.PERMISSION_DENIED), "127.0.0.1:7233"))
    assert refused.value.status is RPCStatusCode.PERMISSION_DENIED
    assert asyncio.run(answered(succeeding(), "127.0.0.1:7233")) == "workflow-id"
