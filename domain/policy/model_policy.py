"""The memory model tuple (provider, model, reasoning effort, prices) and the compiled policy version."""

import hashlib
from collections.abc import Mapping
from decimal import Decimal
from typing import Literal, Self

from pydantic import AnyHttpUrl, BaseModel, ConfigDict, Field, NonNegativeFloat, PositiveInt, model_validator

from domain.errors import DomainError
from domain.providers import MAX_OUTPUT_TOKENS, ProviderUsage

ProviderName = Literal["openai", "anthropic", "scripted"]

_PER_MILLION = Decimal(1_000_000)


class EffortNotAccepted(DomainError):
    """The configured model cannot run at the configured reasoning effort; a worker must not start."""

    reason_code = "effort_not_accepted"


class UnknownProfile(DomainError):
    reason_code = "unknown_model_profile"


class ModelPrices(BaseModel):
    """USD per million tokens, by kind."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    input: NonNegativeFloat
    cached_input: NonNegativeFloat
    cache_write: NonNegativeFloat
    output: NonNegativeFloat


class MemoryModel(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: ProviderName
    model: str = Field(min_length=1, max_length=128)
    reasoning_effort: str | None
    base_url: AnyHttpUrl | None = None
    context_window: PositiveInt
    accepted_efforts: tuple[str, ...] = ()
    prices: ModelPrices

    @model_validator(mode="after")
    def _room_for_output(self) -> Self:
        if self.context_window <= MAX_OUTPUT_TOKENS:
            raise ValueError("context_window must exceed the output reserve")
        return self

    def validate_effort(self) -> None:
        """Raise EffortNotAccepted naming the model, the effort and what it accepts."""
        effort = self.reasoning_effort
        if effort is None or effort in self.accepted_efforts:
            return
        accepted = (
            ", ".join(self.accepted_efforts) if self.accepted_efforts else "none (omit reasoning_effort)"
        )
        raise EffortNotAccepted(
            f"model {self.model} does not accept reasoning effort {effort}; accepted: {accepted}"
        )

    @property
    def input_ceiling_tokens(self) -> int:
        """ADR-0086: the input ceiling is the context window less the output reserve."""
        return self.context_window - MAX_OUTPUT_TOKENS

    def cost_usd(self, usage: ProviderUsage) -> float:
        return cost_usd(self.prices, usage)


def validate_effort(model: MemoryModel) -> None:
    model.validate_effort()


def cost_usd(prices: ModelPrices, usage: ProviderUsage) -> float:
    # Decimal keeps the sum exact, so the same usage always records the same cost to the last digit.
    total = (
        Decimal(usage.uncached_input_tokens) * Decimal(str(prices.input))
        + Decimal(usage.cached_input_tokens) * Decimal(str(prices.cached_input))
        + Decimal(usage.cache_write_tokens) * Decimal(str(prices.cache_write))
        + Decimal(usage.output_tokens) * Decimal(str(prices.output))
    ) / _PER_MILLION
    return float(total)


class MemoryModelPolicy(BaseModel):
    """The shipped memory-model policy document."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    default_profile: str
    profiles: dict[str, MemoryModel] = Field(min_length=1)

    @model_validator(mode="after")
    def _default_exists(self) -> Self:
        if self.default_profile not in self.profiles:
            raise ValueError(f"default_profile {self.default_profile} is not a profile")
        return self

    def profile(self, name: str | None = None) -> MemoryModel:
        key = name or self.default_profile
        try:
            return self.profiles[key]
        except KeyError:
            known = ", ".join(sorted(self.profiles))
            raise UnknownProfile(f"unknown memory model profile {key}; known: {known}") from None


def compiled_policy_version(documents: Mapping[str, bytes]) -> str:
    """A digest over the shipped policy documents, sorted by name; evidence artifacts bind to it."""
    digest = hashlib.sha256()
    for name in sorted(documents):
        encoded = name.encode("utf-8")
        content = documents[name]
        # Length prefixes keep ("ab","c") and ("a","bc") from colliding.
        digest.update(len(encoded).to_bytes(8, "big"))
        digest.update(encoded)
        digest.update(len(content).to_bytes(8, "big"))
        digest.update(content)
    return f"sha256:{digest.hexdigest()}"
