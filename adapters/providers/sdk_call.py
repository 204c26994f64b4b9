"""What both SDK adapters do around their one call: check the profile, configure the SDK client, time the
call, turn the SDK's errors into normalized failures, then decode, validate and price the answer."""

import time
from collections.abc import Callable
from typing import Any, NamedTuple

import anthropic
import openai

from adapters.providers._failures import decode_document, elapsed_ms, provider_error_code, retry_after_s
from domain.policy.model_policy import MemoryModel
from domain.providers import (
    TIMEOUT_S,
    ProviderFailure,
    ProviderRequest,
    ProviderResponse,
    ProviderUsage,
    classify_http_status,
    protocol,
    transient,
)

# The answer's text, its usage, and the model the server says answered.
Answer = tuple[str, ProviderUsage, str | None]
StatusError = openai.APIStatusError | anthropic.APIStatusError


class SdkErrors(NamedTuple):
    """One SDK's error classes; both official SDKs are generated alike, so they name the same cases."""

    timeout: type[Exception]
    connection: type[Exception]
    status: type[openai.APIStatusError] | type[anthropic.APIStatusError]
    invalid_response: type[Exception]
    # An error object in the body of a 200: the server gave up part-way (None: the adapter maps it itself).
    in_body: type[Exception] | None = None


def checked_profile(model: MemoryModel, provider: str) -> MemoryModel:
    if model.provider != provider:
        raise ValueError(f"profile provider is {model.provider}, not {provider}")
    model.validate_effort()
    return model


def client_options(model: MemoryModel, api_key: str | None) -> dict[str, Any]:
    # Temporal owns retries: an SDK retry would hide attempts from the workflow and double the wait.
    return {
        "api_key": api_key,
        "base_url": str(model.base_url) if model.base_url else None,
        "max_retries": 0,
        "timeout": TIMEOUT_S,
    }


def status_failure(err: StatusError) -> ProviderFailure:
    return classify_http_status(
        err.status_code,
        retry_after_s=retry_after_s(err.response.headers),
        provider_code=provider_error_code(err.body),
    )


def complete_with(
    model: MemoryModel, request: ProviderRequest, call: Callable[[float], Answer], errors: SdkErrors
) -> ProviderResponse:
    """Run ``call(started)``; any failure leaves as a ProviderFailure with a normalized class and code."""
    started = time.monotonic()
    try:
        text, usage, model_name = call(started)
    except ProviderFailure:
        raise
    except Exception as err:
        failure = _failure(err, errors)
        if failure is None:
            raise
        raise failure from None
    return ProviderResponse(
        document=decode_document(text, request.json_schema),
        usage=usage,
        cost_usd=model.cost_usd(usage),
        latency_ms=elapsed_ms(started),
        model=model_name or model.model,
    )


def _failure(err: Exception, errors: SdkErrors) -> ProviderFailure | None:
    # Most specific first: the SDKs' timeout is a connection error, and every error is an in-body error.
    if isinstance(err, errors.timeout):
        return transient("timeout")
    if isinstance(err, errors.connection):
        return transient("connection")
    if isinstance(err, errors.status):
        return status_failure(err)
    if isinstance(err, errors.invalid_response):
        return protocol("unexpected_response")
    if errors.in_body is not None and isinstance(err, errors.in_body):
        return transient("truncated_stream")
    if isinstance(err, ValueError):
        # Undecodable event data from the wire.
        return protocol("invalid_json")
    return None
