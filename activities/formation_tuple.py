"""What the stage activities need to honour an owner's alternative tuple (ADR-0119): the evidence a choice
is judged against and a way to reach the chosen tuple's provider."""

from collections.abc import Callable
from dataclasses import dataclass

from domain.policy.alternatives import AlternativeEvidence
from domain.policy.model_policy import MemoryModel
from domain.providers import Provider


@dataclass(frozen=True)
class AlternativeTuples:
    evidence: AlternativeEvidence
    # The chosen tuple's provider; None when its API key is not set (the call then falls back, audited).
    provider_for: Callable[[MemoryModel], Provider | None]
