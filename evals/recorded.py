"""Recorded stage answers: what a provider answered for each case, replayed without a network.

A recording holds, per case, the documents each stage answered in call order. The runner consolidates a
case's sessions and segments in a fixed order, so the n-th call of a stage in a replay is the n-th call of
the recorded run. A replay that asks for more than was recorded gets a permanent provider failure: the
stage falls back and the call is counted, exactly as a live provider that refused would be. Recordings hold
model output about people's conversations and are read from the path the operator names, never logged.
"""

import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from adapters.providers.scripted import ScriptedProvider
from domain.policy.model_policy import MemoryModel
from domain.providers import Provider, ProviderFailure, ProviderRequest
from domain.telemetry import FailureClass, Stage

StageAnswers = dict[Stage, list[dict[str, Any]]]


class RecordedAnswers(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    cases: dict[str, StageAnswers]

    @classmethod
    def load(cls, path: Path) -> "RecordedAnswers":
        return cls.model_validate_json(path.read_bytes())

    def replay(self, case_id: str, model: MemoryModel | None = None) -> Provider:
        """A provider answering this case's calls in recorded order, priced as `model` when given (usage
        estimated from the request and answer sizes), so a replay records a cost as a live run does."""
        recorded = self.cases.get(case_id, {})
        return ScriptedProvider(_InOrder(recorded), model=model)


class _InOrder:
    def __init__(self, recorded: Mapping[Stage, list[dict[str, Any]]]) -> None:
        self._recorded = recorded
        self._next: dict[Stage, int] = {}
        self._lock = threading.Lock()

    def __call__(self, request: ProviderRequest) -> dict[str, Any] | ProviderFailure:
        with self._lock:
            index = self._next.get(request.stage, 0)
            self._next[request.stage] = index + 1
        answers = self._recorded.get(request.stage, [])
        if index >= len(answers):
            return ProviderFailure(FailureClass.PERMANENT, "unexpected_response")
        return answers[index]
