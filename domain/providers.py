"""The provider port: one schema-constrained model call per stage, and its content-free failure vocabulary."""

import re
from typing import Any, Final, Protocol, Self

from pydantic import BaseModel, ConfigDict, Field, NonNegativeFloat, NonNegativeInt, model_validator

from domain.telemetry import FailureClass, Stage

# ADR-0086: sized so a full coverage ledger and its candidates fit; never shrunk to save cost.
MAX_OUTPUT_TOKENS: Final = 16_384
TIMEOUT_S: Final = 120.0


class ProviderRequest(BaseModel):
    """One stage call. stable_instructions is the cacheable prefix and is always sent before content."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    stage: Stage
    stable_instructions: str = Field(min_length=1)
    content: str
    schema_name: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    json_schema: dict[str, Any]
    max_output_tokens: int = Field(default=MAX_OUTPUT_TOKENS, gt=0)
    timeout_s: float = Field(default=TIMEOUT_S, gt=0)


class ProviderUsage(BaseModel):
    """Token counts normalized across providers.

    input_tokens counts every prompt token, cached or not; cached_input_tokens and cache_write_tokens are
    parts of it. output_tokens counts every generated token; reasoning_tokens is part of it. Providers
    disagree on these inclusions, so each adapter converts to this one convention.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    input_tokens: NonNegativeInt = 0
    cached_input_tokens: NonNegativeInt = 0
    cache_write_tokens: NonNegativeInt = 0
    output_tokens: NonNegativeInt = 0
    reasoning_tokens: NonNegativeInt = 0

    @model_validator(mode="after")
    def _parts_within_totals(self) -> Self:
        if self.cached_input_tokens + self.cache_write_tokens > self.input_tokens:
            raise ValueError("cached and cache-write tokens must be part of input tokens")
        if self.reasoning_tokens > self.output_tokens:
            raise ValueError("reasoning tokens must be part of output tokens")
        return self

    @property
    def uncached_input_tokens(self) -> int:
        return self.input_tokens - self.cached_input_tokens - self.cache_write_tokens


class ProviderResponse(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    document: dict[str, Any]
    usage: ProviderUsage
    cost_usd: NonNegativeFloat
    latency_ms: NonNegativeInt
    model: str


# Normalized codes; anything else a provider says stays out of our records.
HTTP_CODE = re.compile(r"^http_[1-5][0-9]{2}$")
KNOWN_CODES: Final = frozenset(
    {
        "timeout",
        "connection",
        "truncated_stream",
        "output_limit",
        "context_window_exceeded",
        "refusal",
        "content_filter",
        "invalid_json",
        "schema_mismatch",
        "empty_response",
        "unexpected_response",
    }
)
_PROVIDER_CODE = re.compile(r"^[a-z][a-z0-9_.]{0,63}$")


class ProviderFailure(Exception):
    """A failed call, normalized. Carries a class and a short code, never request or response text."""

    def __init__(
        self,
        failure_class: FailureClass,
        code: str,
        *,
        status: int | None = None,
        retry_after_s: float | None = None,
        provider_code: str | None = None,
    ) -> None:
        if code not in KNOWN_CODES and not HTTP_CODE.match(code):
            raise ValueError("provider failure code must be a normalized code (see KNOWN_CODES or http_NNN)")
        self.failure_class = failure_class
        self.code = code
        self.status = status
        self.retry_after_s = retry_after_s
        # A provider's machine code (e.g. integer_below_min_value) helps an operator; free text never does.
        self.provider_code = provider_code if provider_code and _PROVIDER_CODE.match(provider_code) else None
        super().__init__(self._summary())

    def _summary(self) -> str:
        parts = [f"{self.failure_class.value}:{self.code}"]
        if self.provider_code:
            parts.append(f"provider_code={self.provider_code}")
        if self.retry_after_s is not None:
            parts.append(f"retry_after_s={self.retry_after_s:g}")
        return " ".join(parts)

    @property
    def retryable(self) -> bool:
        return self.failure_class.retryable

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword-only arguments do not survive default exception pickling across worker processes.
        return (
            _rebuild_failure,
            (self.failure_class, self.code, self.status, self.retry_after_s, self.provider_code),
        )


def _rebuild_failure(
    failure_class: FailureClass,
    code: str,
    status: int | None,
    retry_after_s: float | None,
    provider_code: str | None,
) -> ProviderFailure:
    return ProviderFailure(
        failure_class, code, status=status, retry_after_s=retry_after_s, provider_code=provider_code
    )


def transient(code: str, **kwargs: Any) -> ProviderFailure:
    return ProviderFailure(FailureClass.TRANSIENT, code, **kwargs)


def permanent(code: str, **kwargs: Any) -> ProviderFailure:
    return ProviderFailure(FailureClass.PERMANENT, code, **kwargs)


def protocol(code: str, **kwargs: Any) -> ProviderFailure:
    return ProviderFailure(FailureClass.PROTOCOL, code, **kwargs)


def classify_http_status(
    status: int, *, retry_after_s: float | None = None, provider_code: str | None = None
) -> ProviderFailure:
    """429, 408, 409 and 5xx are worth retrying; any other 4xx will fail the same way again."""
    retryable = status in (408, 409, 429) or status >= 500
    return ProviderFailure(
        FailureClass.TRANSIENT if retryable else FailureClass.PERMANENT,
        f"http_{status}",
        status=status,
        retry_after_s=retry_after_s,
        provider_code=provider_code,
    )


class Provider(Protocol):
    """Synchronous on purpose: a Temporal activity runs it in a thread pool and owns all retries."""

    def complete(self, request: ProviderRequest) -> ProviderResponse: ...
