"""The memory model tuple: effort refusal, cost arithmetic, the shipped document, the policy digest."""

import pytest

from adapters.providers.policy_documents import (
    MEMORY_MODEL_DOCUMENT,
    load_memory_model,
    load_memory_model_policy,
    parse_memory_model_policy,
    shipped_documents,
    shipped_policy_version,
)
from domain.policy.model_policy import (
    EffortNotAccepted,
    MemoryModel,
    ModelPrices,
    UnknownProfile,
    compiled_policy_version,
    cost_usd,
    validate_effort,
)
from domain.providers import ProviderUsage

PRICES = ModelPrices(input=2.5, cached_input=0.25, cache_write=3.125, output=10.0)


def model(effort: str | None, accepted: tuple[str, ...] = ("low", "medium", "high")) -> MemoryModel:
    return MemoryModel(
        provider="openai",
        model="gpt-5.6-sol",
        reasoning_effort=effort,
        context_window=400_000,
        accepted_efforts=accepted,
        prices=PRICES,
    )


def test_effort_refusal_names_model_effort_and_accepted() -> None:
    with pytest.raises(EffortNotAccepted) as caught:
        validate_effort(model("max"))
    assert (
        str(caught.value)
        == "model gpt-5.6-sol does not accept reasoning effort max; accepted: low, medium, high"
    )
    assert caught.value.reason_code == "effort_not_accepted"


def test_model_without_efforts_refuses_any_effort() -> None:
    with pytest.raises(EffortNotAccepted, match="accepted: none"):
        model("low", accepted=()).validate_effort()


@pytest.mark.parametrize("effort", [None, "low", "high"])
def test_accepted_or_absent_effort_passes(effort: str | None) -> None:
    validate_effort(model(effort))


def test_cost_by_token_kind() -> None:
    usage = ProviderUsage(
        input_tokens=10_000,
        cached_input_tokens=6_000,
        cache_write_tokens=2_000,
        output_tokens=1_500,
        reasoning_tokens=500,
    )
    # uncached 2,000 x 2.5 = 5,000; cached 6,000 x 0.25 = 1,500; written 2,000 x 3.125 = 6,250;
    # output 1,500 x 10 = 15,000 (reasoning is already inside output); 27,750 / 1e6 USD
    assert cost_usd(PRICES, usage) == 0.02775
    assert model(None).cost_usd(usage) == 0.02775


def test_cost_of_nothing_is_zero_and_cost_is_exact() -> None:
    assert cost_usd(PRICES, ProviderUsage()) == 0.0
    # 1 uncached input token at 2.5 per million is exactly 0.0000025, not a float approximation of it
    assert cost_usd(PRICES, ProviderUsage(input_tokens=1)) == 0.0000025


def test_usage_parts_must_fit_their_totals() -> None:
    with pytest.raises(ValueError):
        ProviderUsage(input_tokens=10, cached_input_tokens=8, cache_write_tokens=3)
    with pytest.raises(ValueError):
        ProviderUsage(output_tokens=10, reasoning_tokens=11)


def test_context_window_must_leave_room_for_output() -> None:
    with pytest.raises(ValueError):
        MemoryModel(provider="openai", model="m", reasoning_effort=None, context_window=8_000, prices=PRICES)
    assert model(None).input_ceiling_tokens == 400_000 - 16_384


def test_shipped_policy_balanced_profile() -> None:
    policy = load_memory_model_policy()
    assert policy.default_profile == "balanced"
    balanced = policy.profile()
    assert (balanced.provider, balanced.model, balanced.reasoning_effort) == ("openai", "gpt-5.6-sol", None)
    assert balanced.prices.input > balanced.prices.cached_input
    assert policy.profile("scripted").provider == "scripted"
    for profile in policy.profiles.values():
        profile.validate_effort()
    assert load_memory_model().model == "gpt-5.6-sol"
    with pytest.raises(UnknownProfile, match="known: anthropic, balanced, scripted"):
        policy.profile("turbo")


def test_worker_refuses_a_policy_whose_effort_the_model_rejects() -> None:
    document = shipped_documents()[MEMORY_MODEL_DOCUMENT].replace(
        b"reasoning_effort: null\n    base_url: null\n    context_window: 400000",
        b"reasoning_effort: max\n    base_url: null\n    context_window: 400000",
    )
    edited = parse_memory_model_policy(document).profile("balanced")
    assert edited.reasoning_effort == "max"
    with pytest.raises(EffortNotAccepted, match="model gpt-5.6-sol does not accept reasoning effort max"):
        edited.validate_effort()


def test_compiled_policy_version_is_a_digest_of_sorted_documents() -> None:
    a = {"a.yaml": b"x: 1\n", "b.yaml": b"y: 2\n"}
    reordered = {"b.yaml": b"y: 2\n", "a.yaml": b"x: 1\n"}
    version = compiled_policy_version(a)
    assert version.startswith("sha256:") and len(version) == len("sha256:") + 64
    assert compiled_policy_version(reordered) == version
    assert compiled_policy_version({"a.yaml": b"x: 1\n", "b.yaml": b"y: 3\n"}) != version
    assert compiled_policy_version({"a.yaml": b"x: 1\n", "c.yaml": b"y: 2\n"}) != version
    # moving bytes between name and content must change the digest
    assert compiled_policy_version({"ab": b"c"}) != compiled_policy_version({"a": b"bc"})


def test_shipped_policy_version_covers_the_memory_model_document() -> None:
    documents = shipped_documents()
    assert MEMORY_MODEL_DOCUMENT in documents
    assert shipped_policy_version() == compiled_policy_version(documents)
