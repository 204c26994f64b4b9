"""A provider that answers from fixtures keyed by stage, for tests and benchmarks."""

import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.policy.model_policy import MemoryModel, ModelPrices, cost_usd
from domain.providers import ProviderFailure, ProviderRequest, ProviderResponse, ProviderUsage
from domain.telemetry import Stage

Answer = dict[str, Any] | ProviderFailure
Script = Callable[[ProviderRequest], Answer] | Mapping[Stage, Answer | Sequence[Answer]]

_FREE = ModelPrices(input=0.0, cached_input=0.0, cache_write=0.0, output=0.0)


class ScriptedProvider:
    """Answers each call from the script: a callable, or per stage one answer or a sequence of answers
    consumed in call order (the last one repeats). A ProviderFailure answer is raised.

    Usage is estimated at four characters a token, with the stable instructions counted as cached after
    the first call of a stage, so benchmarks see the shape of prompt caching without a provider.
    """

    def __init__(
        self,
        script: Script,
        *,
        model: MemoryModel | None = None,
        latency_s: float = 0.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._script = script
        self._model = model
        self._latency_s = latency_s
        self._sleep = sleep
        self._lock = threading.Lock()
        self.calls: Counter[Stage] = Counter()
        self.requests: list[ProviderRequest] = []

    @property
    def call_count(self) -> int:
        return sum(self.calls.values())

    def complete(self, request: ProviderRequest) -> ProviderResponse:
        with self._lock:
            index = self.calls[request.stage]
            self.calls[request.stage] += 1
            self.requests.append(request)
        started = time.monotonic()
        if self._latency_s > 0:
            self._sleep(self._latency_s)
        answer = self._answer(request, index)
        if isinstance(answer, ProviderFailure):
            raise answer
        usage = _estimated_usage(request, answer, cached=index > 0)
        prices = self._model.prices if self._model else _FREE
        return ProviderResponse(
            document=answer,
            usage=usage,
            cost_usd=cost_usd(prices, usage),
            latency_ms=max(int(self._latency_s * 1000), int((time.monotonic() - started) * 1000)),
            model=self._model.model if self._model else "scripted",
        )

    def _answer(self, request: ProviderRequest, index: int) -> Answer:
        if callable(self._script):
            return self._script(request)
        try:
            entry = self._script[request.stage]
        except KeyError:
            raise LookupError(f"script has no answer for stage {request.stage.value}") from None
        if isinstance(entry, dict | ProviderFailure):
            return entry
        if not entry:
            raise LookupError(f"script has no answer for stage {request.stage.value}")
        return entry[min(index, len(entry) - 1)]


def _estimated_usage(request: ProviderRequest, document: dict[str, Any], *, cached: bool) -> ProviderUsage:
    stable = _tokens(request.stable_instructions)
    total_input = stable + _tokens(request.content)
    output = _tokens(json.dumps(document))
    return ProviderUsage(
        input_tokens=total_input,
        cached_input_tokens=stable if cached else 0,
        cache_write_tokens=0 if cached else stable,
        output_tokens=output,
    )


def _tokens(text: str) -> int:
    return (len(text) + 3) // 4
