"""The scripted provider answers by stage, counts calls, raises scripted failures and sleeps on request."""

import pickle

import pytest

from adapters.providers.policy_documents import load_memory_model
from adapters.providers.scripted import ScriptedProvider
from domain.formation.stage_schemas import stage_schema
from domain.providers import ProviderFailure, ProviderRequest, permanent, transient
from domain.telemetry import FailureClass, Stage

INTEGRATION = {"episodes": [{"subjects": ["agent"], "sentences": [{"text": "x", "source_event_ids": [1]}]}]}


def request(stage: Stage) -> ProviderRequest:
    name, schema = stage_schema(stage)
    return ProviderRequest(
        stage=stage, stable_instructions="S" * 400, content="C" * 40, schema_name=name, json_schema=schema
    )


def test_answers_by_stage_in_order_and_counts_calls() -> None:
    provider = ScriptedProvider(
        {
            Stage.INTEGRATION: INTEGRATION,
            Stage.ANTICIPATION: [transient("http_429"), {"predictions": []}],
        }
    )
    assert provider.complete(request(Stage.INTEGRATION)).document == INTEGRATION
    with pytest.raises(ProviderFailure) as caught:
        provider.complete(request(Stage.ANTICIPATION))
    assert caught.value.failure_class is FailureClass.TRANSIENT
    assert provider.complete(request(Stage.ANTICIPATION)).document == {"predictions": []}
    # the last scripted answer repeats
    assert provider.complete(request(Stage.ANTICIPATION)).document == {"predictions": []}
    assert provider.calls == {Stage.INTEGRATION: 1, Stage.ANTICIPATION: 3}
    assert provider.call_count == 4
    with pytest.raises(LookupError):
        provider.complete(request(Stage.DISTILLATION))


def test_callable_script_and_fixed_latency() -> None:
    slept: list[float] = []
    provider = ScriptedProvider(
        lambda r: permanent("refusal") if r.stage is Stage.DISTILLATION else INTEGRATION,
        latency_s=0.25,
        sleep=slept.append,
    )
    response = provider.complete(request(Stage.INTEGRATION))
    assert response.latency_ms >= 250
    with pytest.raises(ProviderFailure, match="permanent:refusal"):
        provider.complete(request(Stage.DISTILLATION))
    assert slept == [0.25, 0.25]


def test_usage_shows_the_stable_prefix_cached_after_the_first_call_and_costs_by_policy() -> None:
    provider = ScriptedProvider({Stage.INTEGRATION: INTEGRATION}, model=load_memory_model("scripted"))
    first = provider.complete(request(Stage.INTEGRATION))
    second = provider.complete(request(Stage.INTEGRATION))
    assert (first.usage.input_tokens, first.usage.cache_write_tokens, first.usage.cached_input_tokens) == (
        110,
        100,
        0,
    )
    assert (second.usage.cached_input_tokens, second.usage.cache_write_tokens) == (100, 0)
    assert second.cost_usd < first.cost_usd
    assert first.model == "scripted-fixture"


def test_failure_survives_pickling_without_text() -> None:
    failure = transient("http_429", status=429, retry_after_s=3.0, provider_code="rate_limit_exceeded")
    copy = pickle.loads(pickle.dumps(failure))
    assert (copy.failure_class, copy.code, copy.status, copy.retry_after_s, copy.provider_code) == (
        FailureClass.TRANSIENT,
        "http_429",
        429,
        3.0,
        "rate_limit_exceeded",
    )
    assert str(copy) == "transient:http_429 provider_code=rate_limit_exceeded retry_after_s=3"


def test_failure_refuses_free_text_codes() -> None:
    with pytest.raises(ValueError):
        transient("the user said something")
    assert transient("http_500", provider_code="Sorry, I can't: user text").provider_code is None


def test_factory_builds_sdk_providers_and_refuses_scripted() -> None:
    from adapters.providers.anthropic_provider import AnthropicProvider
    from adapters.providers.factory import provider_for
    from adapters.providers.openai_provider import OpenAIProvider

    assert isinstance(provider_for(load_memory_model("balanced"), api_key="k"), OpenAIProvider)
    assert isinstance(provider_for(load_memory_model("anthropic"), api_key="k"), AnthropicProvider)
    with pytest.raises(ValueError, match="ScriptedProvider"):
        provider_for(load_memory_model("scripted"))
