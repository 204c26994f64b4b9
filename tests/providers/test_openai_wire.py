"""The real OpenAI SDK, through the adapter, against a local server speaking chat completions."""

import json
from typing import Any

import pytest

from adapters.providers.openai_provider import OpenAIProvider
from domain.formation.stage_schemas import stage_schema
from domain.policy.model_policy import EffortNotAccepted, MemoryModel, ModelPrices
from domain.providers import ProviderFailure, ProviderRequest
from domain.telemetry import FailureClass, Stage
from tests.providers.support import content_free_failure, stage_request
from tests.providers.wire_server import (
    Slow,
    WireServer,
    openai_completion,
    openai_error,
    openai_stream,
    openai_usage,
)

STABLE = "You integrate a person's conversation into memory. Answer with the schema only."
CONTENT = "events: [3] I am building a personal AI agent."
DOCUMENT = {
    "predictions": [{"cue_before_seq": 3, "statement": "User is building an agent.", "memory_id": "m-1"}]
}


def model(wire: WireServer, effort: str | None = "low") -> MemoryModel:
    return MemoryModel(
        provider="openai",
        model="gpt-5.6-sol",
        reasoning_effort=effort,
        base_url=f"{wire.base_url}/v1",  # type: ignore[arg-type]
        context_window=400_000,
        accepted_efforts=("none", "low", "medium", "high"),
        prices=ModelPrices(input=1.25, cached_input=0.125, cache_write=0.0, output=10.0),
    )


def provider(wire: WireServer, *, stream: bool = True, effort: str | None = "low") -> OpenAIProvider:
    return OpenAIProvider(model(wire, effort), api_key="test-key", stream=stream)


def request(timeout_s: float = 5.0) -> ProviderRequest:
    return stage_request(Stage.ANTICIPATION, STABLE, CONTENT, timeout_s)


def failure(wire: WireServer, *, stream: bool = True, timeout_s: float = 5.0) -> ProviderFailure:
    return content_free_failure(provider(wire, stream=stream), request(timeout_s))


USAGE = openai_usage(1200, 300, cached=1024, reasoning=120)
# (1200 - 1024) * 1.25 + 1024 * 0.125 + 300 * 10.0, per million tokens
EXPECTED_COST = (176 * 1.25 + 1024 * 0.125 + 300 * 10.0) / 1_000_000


@pytest.mark.parametrize("stream", [True, False])
def test_answer_parsed_with_usage_and_cost(wire: WireServer, stream: bool) -> None:
    text = json.dumps(DOCUMENT)
    wire.script(openai_stream(text, usage=USAGE) if stream else openai_completion(text, usage=USAGE))

    response = provider(wire, stream=stream).complete(request())

    assert response.document == DOCUMENT
    assert response.usage.input_tokens == 1200
    assert response.usage.cached_input_tokens == 1024
    assert response.usage.cache_write_tokens == 0
    assert response.usage.output_tokens == 300
    assert response.usage.reasoning_tokens == 120
    assert response.cost_usd == pytest.approx(EXPECTED_COST, abs=1e-12)
    assert response.cost_usd == pytest.approx(0.003348)
    assert response.model == "gpt-5.6-sol-2026-08-01"
    assert response.latency_ms >= 0


@pytest.mark.parametrize("stream", [True, False])
def test_request_is_strict_cache_friendly_and_unretried(wire: WireServer, stream: bool) -> None:
    text = json.dumps(DOCUMENT)
    wire.script(openai_stream(text) if stream else openai_completion(text))

    provider(wire, stream=stream).complete(request())

    assert len(wire.requests) == 1
    sent = wire.last
    assert sent.path == "/v1/chat/completions"
    body: dict[str, Any] = sent.body
    assert body["model"] == "gpt-5.6-sol"
    assert body["messages"][0] == {"role": "system", "content": STABLE}
    assert body["messages"][1] == {"role": "user", "content": CONTENT}
    assert len(body["messages"]) == 2
    response_format = body["response_format"]
    assert response_format["type"] == "json_schema"
    assert response_format["json_schema"]["strict"] is True
    assert response_format["json_schema"]["name"] == "blinded_anticipation"
    assert response_format["json_schema"]["schema"] == stage_schema(Stage.ANTICIPATION)[1]
    assert body["max_completion_tokens"] == 16_384
    assert body["reasoning_effort"] == "low"
    assert sent.headers["authorization"] == "Bearer test-key"
    if stream:
        assert body["stream"] is True
        assert body["stream_options"] == {"include_usage": True}
    else:
        assert "stream" not in body or body["stream"] is False


def test_no_reasoning_effort_sent_when_policy_has_none(wire: WireServer) -> None:
    wire.script(openai_stream(json.dumps(DOCUMENT)))
    provider(wire, effort=None).complete(request())
    assert "reasoning_effort" not in wire.last.body


def test_cache_write_tokens_are_part_of_input(wire: WireServer) -> None:
    usage = openai_usage(2000, 100, cached=0, cache_write=1500)
    wire.script(openai_stream(json.dumps(DOCUMENT), usage=usage))
    response = provider(wire).complete(request())
    assert response.usage.cache_write_tokens == 1500
    assert response.usage.uncached_input_tokens == 500
    # cache writes are priced at 0 for this model
    assert response.cost_usd == pytest.approx((500 * 1.25 + 100 * 10.0) / 1_000_000)


@pytest.mark.parametrize("cut", ["abort", "eof"])
def test_truncated_stream_is_transient(wire: WireServer, cut: str) -> None:
    wire.script(openai_stream(json.dumps(DOCUMENT), keep=3, cut=cut))
    err = failure(wire)
    assert (err.failure_class, err.code) == (FailureClass.TRANSIENT, "truncated_stream")
    assert err.retryable


def test_rate_limit_carries_retry_after_and_is_not_retried_by_the_sdk(wire: WireServer) -> None:
    wire.script(openai_error(429, "rate_limit_exceeded", headers={"retry-after": "7"}))
    err = failure(wire)
    assert (err.failure_class, err.code, err.status) == (FailureClass.TRANSIENT, "http_429", 429)
    assert err.retry_after_s == 7.0
    assert len(wire.requests) == 1


def test_retry_after_ms_wins(wire: WireServer) -> None:
    wire.script(
        openai_error(429, "rate_limit_exceeded", headers={"retry-after-ms": "1500", "retry-after": "9"})
    )
    assert failure(wire).retry_after_s == 1.5


@pytest.mark.parametrize("status", [500, 503])
def test_server_error_is_transient(wire: WireServer, status: int) -> None:
    wire.script(openai_error(status, "server_error"))
    err = failure(wire)
    assert (err.failure_class, err.code) == (FailureClass.TRANSIENT, f"http_{status}")
    assert len(wire.requests) == 1


def test_integer_below_min_value_is_permanent(wire: WireServer) -> None:
    wire.script(openai_error(400, "integer_below_min_value"))
    err = failure(wire)
    assert (err.failure_class, err.code) == (FailureClass.PERMANENT, "http_400")
    assert err.provider_code == "integer_below_min_value"
    assert not err.retryable


def test_unauthorized_is_permanent(wire: WireServer) -> None:
    wire.script(openai_error(401, "invalid_api_key"))
    assert failure(wire).failure_class is FailureClass.PERMANENT


@pytest.mark.parametrize("stream", [True, False])
def test_slow_answer_times_out(wire: WireServer, stream: bool) -> None:
    text = json.dumps(DOCUMENT)
    wire.script(Slow(3.0, openai_stream(text) if stream else openai_completion(text)))
    err = failure(wire, stream=stream, timeout_s=0.3)
    assert (err.failure_class, err.code) == (FailureClass.TRANSIENT, "timeout")


def test_stream_stalling_mid_answer_times_out(wire: WireServer) -> None:
    wire.script(openai_stream(json.dumps(DOCUMENT), stall_after=2, stall_s=3.0))
    err = failure(wire, timeout_s=0.3)
    assert (err.failure_class, err.code) == (FailureClass.TRANSIENT, "timeout")


@pytest.mark.parametrize("stream", [True, False])
def test_refusal_is_permanent(wire: WireServer, stream: bool) -> None:
    refusal = "I can't help with that secret request."
    wire.script(openai_stream("", refusal=refusal) if stream else openai_completion(None, refusal=refusal))
    err = failure(wire, stream=stream)
    assert (err.failure_class, err.code) == (FailureClass.PERMANENT, "refusal")


def test_content_filter_is_permanent(wire: WireServer) -> None:
    wire.script(openai_stream('{"predictions": [', finish_reason="content_filter"))
    assert failure(wire).code == "content_filter"


@pytest.mark.parametrize("stream", [True, False])
def test_output_limit_is_transient(wire: WireServer, stream: bool) -> None:
    partial = '{"predictions": [{"cue_before_seq": 3, "statement": "secret'
    wire.script(
        openai_stream(partial, finish_reason="length")
        if stream
        else openai_completion(partial, finish_reason="length")
    )
    err = failure(wire, stream=stream)
    assert (err.failure_class, err.code) == (FailureClass.TRANSIENT, "output_limit")


@pytest.mark.parametrize("stream", [True, False])
def test_malformed_json_is_protocol(wire: WireServer, stream: bool) -> None:
    text = '{"predictions": [secret user text'
    wire.script(openai_stream(text) if stream else openai_completion(text))
    err = failure(wire, stream=stream)
    assert (err.failure_class, err.code) == (FailureClass.PROTOCOL, "invalid_json")


@pytest.mark.parametrize(
    "document",
    [
        {"predictions": [{"cue_before_seq": 3, "statement": "secret", "memory_id": ["m-1", "m-2"]}]},
        {"predictions": [{"cue_before_seq": "3", "statement": "secret", "memory_id": None}]},
        {"predictions": [{"statement": "secret", "memory_id": None}]},
        {"predictions": [], "extra": True},
        ["not", "an", "object"],
    ],
)
def test_answer_outside_the_schema_is_protocol(wire: WireServer, document: Any) -> None:
    wire.script(openai_stream(json.dumps(document)))
    err = failure(wire)
    assert (err.failure_class, err.code) == (FailureClass.PROTOCOL, "schema_mismatch")


def test_empty_answer_is_protocol(wire: WireServer) -> None:
    wire.script(openai_stream(""))
    assert failure(wire).code == "empty_response"


def test_unreachable_server_is_transient(wire: WireServer) -> None:
    port = wire.port
    wire.stop()
    broken = MemoryModel.model_validate(
        {**model(wire).model_dump(), "base_url": f"http://127.0.0.1:{port}/v1"}
    )
    with pytest.raises(ProviderFailure) as caught:
        OpenAIProvider(broken, api_key="k").complete(request(timeout_s=1.0))
    assert (caught.value.failure_class, caught.value.code) == (FailureClass.TRANSIENT, "connection")


def test_model_refusing_the_effort_cannot_be_built(wire: WireServer) -> None:
    with pytest.raises(EffortNotAccepted, match="model gpt-5.6-sol does not accept reasoning effort max"):
        provider(wire, effort="max")
