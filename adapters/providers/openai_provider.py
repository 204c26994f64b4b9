"""OpenAI (and any OpenAI-compatible server) through the official SDK.

Chat Completions rather than the Responses API: it is the protocol every OpenAI-compatible server (vLLM,
llama.cpp, Ollama, gateways) speaks, which is what makes base_url useful, and it offers everything a stage
needs: strict json_schema output, reasoning_effort, automatic prompt caching with cached-token counts, and
streamed usage. The Responses API would add server-side state we must not keep for user content.
"""

import time
from collections.abc import Iterable
from typing import Any

import openai
from openai.types.chat import ChatCompletion, ChatCompletionChunk, ChatCompletionMessageParam
from openai.types.completion_usage import CompletionUsage

from adapters.providers.sdk_call import Answer, SdkErrors, checked_profile, client_options, complete_with
from domain.policy.model_policy import MemoryModel
from domain.providers import ProviderRequest, ProviderResponse, ProviderUsage, permanent, protocol, transient

_ERRORS = SdkErrors(
    timeout=openai.APITimeoutError,
    connection=openai.APIConnectionError,
    status=openai.APIStatusError,
    invalid_response=openai.APIResponseValidationError,
    in_body=openai.APIError,
)


class OpenAIProvider:
    def __init__(
        self,
        model: MemoryModel,
        *,
        api_key: str | None = None,
        stream: bool = True,
        client: openai.OpenAI | None = None,
    ) -> None:
        self._model = checked_profile(model, "openai")
        self._stream = stream
        self._client = client or openai.OpenAI(**client_options(model, api_key))

    def complete(self, request: ProviderRequest) -> ProviderResponse:
        def call(started: float) -> Answer:
            return self._streamed(request, started) if self._stream else self._single(request)

        return complete_with(self._model, request, call, _ERRORS)

    def _arguments(self, request: ProviderRequest) -> dict[str, Any]:
        # The stable instructions lead the prompt so OpenAI's automatic prefix caching can reuse them.
        messages: list[ChatCompletionMessageParam] = [
            {"role": "system", "content": request.stable_instructions},
            {"role": "user", "content": request.content},
        ]
        arguments: dict[str, Any] = {
            "model": self._model.model,
            "messages": messages,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": request.schema_name, "schema": request.json_schema, "strict": True},
            },
            "max_completion_tokens": request.max_output_tokens,
            "timeout": request.timeout_s,
        }
        if self._model.reasoning_effort is not None:
            arguments["reasoning_effort"] = self._model.reasoning_effort
        return arguments

    def _single(self, request: ProviderRequest) -> Answer:
        completion: ChatCompletion = self._client.chat.completions.create(**self._arguments(request))
        if not completion.choices:
            raise protocol("empty_response")
        choice = completion.choices[0]
        _check_finish(choice.message.refusal, choice.finish_reason)
        return choice.message.content or "", _usage(completion.usage), completion.model

    def _streamed(self, request: ProviderRequest, started: float) -> Answer:
        stream: Iterable[ChatCompletionChunk] = self._client.chat.completions.create(
            **self._arguments(request), stream=True, stream_options={"include_usage": True}
        )
        parts: list[str] = []
        refusal: list[str] = []
        finish_reason: str | None = None
        usage: CompletionUsage | None = None
        model_name: str | None = None
        try:
            for chunk in stream:
                model_name = chunk.model or model_name
                if chunk.usage is not None:
                    usage = chunk.usage
                for choice in chunk.choices:
                    if choice.index != 0:
                        continue
                    if choice.delta.content:
                        parts.append(choice.delta.content)
                    if choice.delta.refusal:
                        refusal.append(choice.delta.refusal)
                    if choice.finish_reason is not None:
                        finish_reason = choice.finish_reason
                # The read timeout only bounds each silence; the stage's budget bounds the whole answer.
                if time.monotonic() - started > request.timeout_s:
                    raise transient("timeout")
        except openai.APITimeoutError:
            raise transient("timeout") from None
        except openai.APIConnectionError:
            raise transient("truncated_stream") from None
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()
        if finish_reason is None and not refusal:
            # The connection ended without the final chunk: whatever JSON we hold is a fragment.
            raise transient("truncated_stream")
        _check_finish("".join(refusal) or None, finish_reason)
        return "".join(parts), _usage(usage), model_name


def _check_finish(refusal: str | None, finish_reason: str | None) -> None:
    if refusal:
        raise permanent("refusal")
    if finish_reason == "content_filter":
        raise permanent("content_filter")
    if finish_reason == "length":
        raise transient("output_limit")


def _usage(usage: CompletionUsage | None) -> ProviderUsage:
    if usage is None:
        return ProviderUsage()
    prompt = usage.prompt_tokens or 0
    output = usage.completion_tokens or 0
    prompt_details = usage.prompt_tokens_details
    completion_details = usage.completion_tokens_details
    cached = (prompt_details.cached_tokens or 0) if prompt_details else 0
    written = (prompt_details.cache_write_tokens or 0) if prompt_details else 0
    reasoning = (completion_details.reasoning_tokens or 0) if completion_details else 0
    # Compatible servers sometimes report details inconsistent with totals; never let that fail a good answer.
    cached = min(cached, prompt)
    written = min(written, prompt - cached)
    return ProviderUsage(
        input_tokens=prompt,
        cached_input_tokens=cached,
        cache_write_tokens=written,
        output_tokens=output,
        reasoning_tokens=min(reasoning, output),
    )
