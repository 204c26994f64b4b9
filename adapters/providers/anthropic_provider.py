"""Anthropic through the official SDK.

Schema-constrained output uses the Messages API's native structured outputs (output_config.format with a
json_schema) rather than a single forced tool: the installed SDK supports it, it constrains decoding to the
schema the same way, it returns plain JSON text, and unlike a forced tool_choice it remains compatible with
reasoning effort. The system block carrying the stable instructions is marked cache_control ephemeral, so
that prefix is written once and read from cache by the calls that follow.
"""

import time
from typing import Any

import anthropic
import httpx2

from adapters.providers._failures import provider_error_code
from adapters.providers.sdk_call import (
    Answer,
    SdkErrors,
    checked_profile,
    client_options,
    complete_with,
    status_failure,
)
from domain.policy.model_policy import MemoryModel
from domain.providers import (
    ProviderFailure,
    ProviderRequest,
    ProviderResponse,
    ProviderUsage,
    classify_http_status,
    permanent,
    protocol,
    transient,
)

# An error event inside a 200 stream names its kind, not a status; these are the statuses those kinds
# carry when they arrive as a response instead.
_STREAM_ERROR_STATUS = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "api_error": 500,
    "timeout_error": 504,
    "overloaded_error": 529,
}


# Errors inside a stream are mapped where the stream is read (_streamed), with the error event's kind.
_ERRORS = SdkErrors(
    timeout=anthropic.APITimeoutError,
    connection=anthropic.APIConnectionError,
    status=anthropic.APIStatusError,
    invalid_response=anthropic.APIResponseValidationError,
)


class AnthropicProvider:
    def __init__(
        self,
        model: MemoryModel,
        *,
        api_key: str | None = None,
        stream: bool = True,
        client: anthropic.Anthropic | None = None,
    ) -> None:
        self._model = checked_profile(model, "anthropic")
        self._stream = stream
        self._client = client or anthropic.Anthropic(**client_options(model, api_key))

    def complete(self, request: ProviderRequest) -> ProviderResponse:
        def call(started: float) -> Answer:
            return self._streamed(request, started) if self._stream else self._single(request)

        return complete_with(self._model, request, call, _ERRORS)

    def _arguments(self, request: ProviderRequest) -> dict[str, Any]:
        output_config: dict[str, Any] = {"format": {"type": "json_schema", "schema": request.json_schema}}
        if self._model.reasoning_effort is not None:
            output_config["effort"] = self._model.reasoning_effort
        return {
            "model": self._model.model,
            "max_tokens": request.max_output_tokens,
            "system": [
                {
                    "type": "text",
                    "text": request.stable_instructions,
                    "cache_control": {"type": "ephemeral"},
                }
            ],
            "messages": [{"role": "user", "content": request.content}],
            "output_config": output_config,
            "timeout": request.timeout_s,
        }

    def _single(self, request: ProviderRequest) -> Answer:
        message = self._client.messages.create(**self._arguments(request))
        _check_stop(message.stop_reason)
        text = "".join(block.text for block in message.content if block.type == "text")
        u = message.usage
        usage = _usage(
            u.input_tokens,
            u.cache_read_input_tokens,
            u.cache_creation_input_tokens,
            u.output_tokens,
            u.output_tokens_details.thinking_tokens if u.output_tokens_details else None,
        )
        return text, usage, message.model

    def _streamed(self, request: ProviderRequest, started: float) -> Answer:
        parts: list[str] = []
        stop_reason: str | None = None
        stopped = False
        model_name: str | None = None
        counts: dict[str, int | None] = {
            "input": None,
            "read": None,
            "write": None,
            "output": None,
            "thinking": None,
        }
        stream = self._client.messages.create(**self._arguments(request), stream=True)
        try:
            for event in stream:
                if event.type == "message_start":
                    model_name = event.message.model
                    _merge_counts(counts, event.message.usage)
                elif event.type == "content_block_delta" and event.delta.type == "text_delta":
                    parts.append(event.delta.text)
                elif event.type == "message_delta":
                    stop_reason = event.delta.stop_reason or stop_reason
                    _merge_counts(counts, event.usage)
                elif event.type == "message_stop":
                    stopped = True
                # The read timeout only bounds each silence; the stage's budget bounds the whole answer.
                if time.monotonic() - started > request.timeout_s:
                    raise transient("timeout")
        except anthropic.APIStatusError as err:
            raise _stream_error_failure(err) from None
        except (httpx2.TimeoutException, anthropic.APITimeoutError):
            raise transient("timeout") from None
        except (httpx2.TransportError, anthropic.APIConnectionError):
            raise transient("truncated_stream") from None
        finally:
            stream.close()
        if stop_reason == "refusal":
            raise permanent("refusal")
        if not stopped or stop_reason is None:
            # The stream ended without message_stop: whatever JSON we hold is a fragment.
            raise transient("truncated_stream")
        _check_stop(stop_reason)
        usage = _usage(counts["input"], counts["read"], counts["write"], counts["output"], counts["thinking"])
        return "".join(parts), usage, model_name


def _merge_counts(counts: dict[str, int | None], usage: Any) -> None:
    # message_delta carries cumulative counts; a field it omits keeps the value message_start gave.
    for key, attribute in (
        ("input", "input_tokens"),
        ("read", "cache_read_input_tokens"),
        ("write", "cache_creation_input_tokens"),
        ("output", "output_tokens"),
    ):
        value = getattr(usage, attribute, None)
        if value is not None:
            counts[key] = value
    details = getattr(usage, "output_tokens_details", None)
    if details is not None and details.thinking_tokens is not None:
        counts["thinking"] = details.thinking_tokens


def _check_stop(stop_reason: str | None) -> None:
    if stop_reason in ("end_turn", "stop_sequence"):
        return
    if stop_reason == "refusal":
        raise permanent("refusal")
    if stop_reason == "max_tokens":
        raise transient("output_limit")
    if stop_reason == "model_context_window_exceeded":
        raise permanent("context_window_exceeded")
    raise protocol("unexpected_response")


def _usage(
    uncached: int | None, read: int | None, written: int | None, output: int | None, thinking: int | None
) -> ProviderUsage:
    # Anthropic counts cache reads and writes beside input_tokens; the port counts them inside it.
    read_n, written_n, output_n = read or 0, written or 0, output or 0
    return ProviderUsage(
        input_tokens=(uncached or 0) + read_n + written_n,
        cached_input_tokens=read_n,
        cache_write_tokens=written_n,
        output_tokens=output_n,
        reasoning_tokens=min(thinking or 0, output_n),
    )


def _stream_error_failure(err: anthropic.APIStatusError) -> ProviderFailure:
    if err.status_code != 200:
        return status_failure(err)
    kind = provider_error_code(err.body)
    status = _STREAM_ERROR_STATUS.get(kind or "")
    if status is None:
        return transient("truncated_stream")
    return classify_http_status(status, provider_code=kind)
