"""The real Anthropic SDK, through the adapter, against a local server speaking the messages API."""

import json
from typing import Any

import pytest

from adapters.providers.anthropic_provider import AnthropicProvider
from domain.formation.stage_schemas import stage_schema
from domain.policy.model_policy import EffortNotAccepted, MemoryModel, ModelPrices
from domain.providers import ProviderFailure, ProviderRequest
from domain.telemetry import FailureClass, Stage
from tests.providers.support import content_free_failure, stage_request
from tests.providers.wire_server import (
    Slow,
    WireServer,
    anthropic_error,
    anthropic_message,
    anthropic_stream,
    anthropic_stream_error,
    anthropic_usage,
)

STABLE = "You distill prediction errors into closed memory claims. Answer with the schema only."
CONTENT = "units: [u1] I run every morning."
DOCUMENT = {
    "coverage": [
        {"unit_id": "u1", "disposition": "formed", "candidate_indexes": [0], "prediction_index": None}
    ],
    "candidates": [
        {
            "subject": "morning running",
            "claim_kind": "habit",
            "derivation": "direct",
            "longevity": "ongoing",
            "polarity": "assert",
            "statement": "User regularly runs in the mornings.",
            "source_event_ids": [4],
            "evidence_spans": [{"seq": 4, "text": "I run every morning"}],
        }
    ],
}


def model(wire: WireServer, effort: str | None = "medium") -> MemoryModel:
    return MemoryModel(
        provider="anthropic",
        model="claude-sonnet-5",
        reasoning_effort=effort,
        base_url=wire.base_url,  # type: ignore[arg-type]
        context_window=200_000,
        accepted_efforts=("low", "medium", "high"),
        prices=ModelPrices(input=3.0, cached_input=0.3, cache_write=3.75, output=15.0),
    )


def provider(wire: WireServer, *, stream: bool = True, effort: str | None = "medium") -> AnthropicProvider:
    return AnthropicProvider(model(wire, effort), api_key="test-key", stream=stream)


def request(timeout_s: float = 5.0) -> ProviderRequest:
    return stage_request(Stage.DISTILLATION, STABLE, CONTENT, timeout_s)


def failure(wire: WireServer, *, stream: bool = True, timeout_s: float = 5.0) -> ProviderFailure:
    return content_free_failure(provider(wire, stream=stream), request(timeout_s))


# Anthropic reports uncached input beside cache reads and writes: 200 + 3000 + 1000 prompt tokens.
USAGE = anthropic_usage(200, 900, cache_read=3000, cache_write=1000, thinking=400)
EXPECTED_COST = (200 * 3.0 + 3000 * 0.3 + 1000 * 3.75 + 900 * 15.0) / 1_000_000


@pytest.mark.parametrize("stream", [True, False])
def test_answer_parsed_with_usage_and_cost(wire: WireServer, stream: bool) -> None:
    text = json.dumps(DOCUMENT)
    wire.script(anthropic_stream(text, usage=USAGE) if stream else anthropic_message(text, usage=USAGE))

    response = provider(wire, stream=stream).complete(request())

    assert response.document == DOCUMENT
    assert response.usage.input_tokens == 4200
    assert response.usage.cached_input_tokens == 3000
    assert response.usage.cache_write_tokens == 1000
    assert response.usage.uncached_input_tokens == 200
    assert response.usage.output_tokens == 900
    assert response.usage.reasoning_tokens == 400
    assert response.cost_usd == pytest.approx(EXPECTED_COST, abs=1e-12)
    assert response.cost_usd == pytest.approx(0.01875)
    assert response.model == "claude-sonnet-5-20260801"


@pytest.mark.parametrize("stream", [True, False])
def test_request_is_schema_constrained_and_caches_the_stable_prefix(wire: WireServer, stream: bool) -> None:
    text = json.dumps(DOCUMENT)
    wire.script(anthropic_stream(text) if stream else anthropic_message(text))

    provider(wire, stream=stream).complete(request())

    assert len(wire.requests) == 1
    sent = wire.last
    assert sent.path == "/v1/messages"
    body: dict[str, Any] = sent.body
    assert body["model"] == "claude-sonnet-5"
    assert body["max_tokens"] == 16_384
    assert body["system"] == [{"type": "text", "text": STABLE, "cache_control": {"type": "ephemeral"}}]
    assert body["messages"] == [{"role": "user", "content": CONTENT}]
    assert body["output_config"]["format"] == {
        "type": "json_schema",
        "schema": stage_schema(Stage.DISTILLATION)[1],
    }
    assert body["output_config"]["effort"] == "medium"
    assert "tools" not in body and "tool_choice" not in body
    # The SDK picks the credential header; either way the configured key reaches the server.
    assert "test-key" in (
        sent.headers.get("x-api-key", ""),
        sent.headers.get("authorization", "").removeprefix("Bearer "),
    )
    assert "anthropic-version" in sent.headers
    assert sent.headers.get("x-stainless-retry-count") == "0"
    assert body.get("stream", False) is stream


def test_no_effort_sent_when_policy_has_none(wire: WireServer) -> None:
    wire.script(anthropic_stream(json.dumps(DOCUMENT)))
    provider(wire, effort=None).complete(request())
    assert "effort" not in wire.last.body["output_config"]


@pytest.mark.parametrize("cut", ["abort", "eof"])
@pytest.mark.parametrize("keep", [2, 5])
def test_truncated_stream_is_transient(wire: WireServer, cut: str, keep: int) -> None:
    # keep=5 stops inside the text; a clean close there still lacks message_delta and message_stop.
    wire.script(anthropic_stream(json.dumps(DOCUMENT), keep=keep, cut=cut))
    err = failure(wire)
    assert (err.failure_class, err.code) == (FailureClass.TRANSIENT, "truncated_stream")


def test_stream_missing_only_message_stop_is_truncated(wire: WireServer) -> None:
    reply = anthropic_stream(json.dumps(DOCUMENT), cut="eof")
    reply.keep = len(reply.events) - 1
    wire.script(reply)
    assert failure(wire).code == "truncated_stream"


def test_rate_limit_carries_retry_after_and_is_not_retried_by_the_sdk(wire: WireServer) -> None:
    wire.script(anthropic_error(429, "rate_limit_error", headers={"retry-after": "12"}))
    err = failure(wire)
    assert (err.failure_class, err.code) == (FailureClass.TRANSIENT, "http_429")
    assert err.retry_after_s == 12.0
    assert err.provider_code == "rate_limit_error"
    assert len(wire.requests) == 1


@pytest.mark.parametrize("status", [500, 529])
def test_server_error_and_overload_are_transient(wire: WireServer, status: int) -> None:
    wire.script(anthropic_error(status, "overloaded_error" if status == 529 else "api_error"))
    err = failure(wire)
    assert (err.failure_class, err.code) == (FailureClass.TRANSIENT, f"http_{status}")
    assert len(wire.requests) == 1


def test_overload_inside_the_stream_is_transient(wire: WireServer) -> None:
    wire.script(anthropic_stream_error("overloaded_error", after=3))
    err = failure(wire)
    assert (err.failure_class, err.code, err.provider_code) == (
        FailureClass.TRANSIENT,
        "http_529",
        "overloaded_error",
    )


def test_invalid_request_is_permanent(wire: WireServer) -> None:
    wire.script(anthropic_error(400, "invalid_request_error"))
    err = failure(wire)
    assert (err.failure_class, err.code) == (FailureClass.PERMANENT, "http_400")


@pytest.mark.parametrize("stream", [True, False])
def test_slow_answer_times_out(wire: WireServer, stream: bool) -> None:
    text = json.dumps(DOCUMENT)
    wire.script(Slow(3.0, anthropic_stream(text) if stream else anthropic_message(text)))
    err = failure(wire, stream=stream, timeout_s=0.3)
    assert (err.failure_class, err.code) == (FailureClass.TRANSIENT, "timeout")


def test_stream_stalling_mid_answer_times_out(wire: WireServer) -> None:
    wire.script(anthropic_stream(json.dumps(DOCUMENT), stall_after=4, stall_s=3.0))
    err = failure(wire, timeout_s=0.3)
    assert (err.failure_class, err.code) == (FailureClass.TRANSIENT, "timeout")


@pytest.mark.parametrize("stream", [True, False])
def test_refusal_is_permanent(wire: WireServer, stream: bool) -> None:
    wire.script(
        anthropic_stream("", stop_reason="refusal")
        if stream
        else anthropic_message("", stop_reason="refusal")
    )
    err = failure(wire, stream=stream)
    assert (err.failure_class, err.code) == (FailureClass.PERMANENT, "refusal")


@pytest.mark.parametrize("stream", [True, False])
def test_max_tokens_stop_is_transient(wire: WireServer, stream: bool) -> None:
    partial = '{"coverage": [{"unit_id": "secret'
    wire.script(
        anthropic_stream(partial, stop_reason="max_tokens")
        if stream
        else anthropic_message(partial, stop_reason="max_tokens")
    )
    err = failure(wire, stream=stream)
    assert (err.failure_class, err.code) == (FailureClass.TRANSIENT, "output_limit")


def test_context_window_exceeded_is_permanent(wire: WireServer) -> None:
    wire.script(anthropic_stream("{}", stop_reason="model_context_window_exceeded"))
    err = failure(wire)
    assert (err.failure_class, err.code) == (FailureClass.PERMANENT, "context_window_exceeded")


@pytest.mark.parametrize("stream", [True, False])
def test_malformed_json_is_protocol(wire: WireServer, stream: bool) -> None:
    text = "Sure! Here is the secret memory: {"
    wire.script(anthropic_stream(text) if stream else anthropic_message(text))
    err = failure(wire, stream=stream)
    assert (err.failure_class, err.code) == (FailureClass.PROTOCOL, "invalid_json")


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d["coverage"][0].update(disposition="represented_unverified"),
        lambda d: d["candidates"][0].update(claim_kind="occupation"),
        lambda d: d["candidates"][0].pop("polarity"),
        lambda d: d["coverage"][0].update(prediction_index=[0, 1]),
        lambda d: d.update(notes="secret"),
    ],
)
def test_answer_outside_the_schema_is_protocol(wire: WireServer, mutate: Any) -> None:
    document = json.loads(json.dumps(DOCUMENT))
    mutate(document)
    wire.script(anthropic_stream(json.dumps(document)))
    err = failure(wire)
    assert (err.failure_class, err.code) == (FailureClass.PROTOCOL, "schema_mismatch")


def test_model_refusing_the_effort_cannot_be_built(wire: WireServer) -> None:
    with pytest.raises(
        EffortNotAccepted, match="model claude-sonnet-5 does not accept reasoning effort xhigh"
    ):
        provider(wire, effort="xhigh")
