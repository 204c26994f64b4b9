"""`agent eval memory-distillation` and `agent eval memory-formation` end to end: sets, arms, the run, the
gates, and at most one artifact.

The live flag RUN_LIVE_MODEL_TESTS=1 is the only way a provider is asked anything. A publishing run checks
the output path and the build reference before it spends a call, decides every gate over the pooled
repeats, and creates the artifact only when all pass; a failed run returns its numbers and creates
nothing. --development-only scores the development set alone and never reads the holdout or publishes.
The rules differ by evaluation: `COMPARATIVE` (formation@9 against the controls, evals.publication) and
`SINGLE_POLICY` (formation@8 or formation@10 on the formation corpus, evals.formation_publication).
"""

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Final, Protocol

from pydantic import BaseModel

from adapters.evidence import shipped_corpora
from domain.policy.evidence import EvidenceTuple
from evals.arms import Arm
from evals.corpora import load_development, load_formation_corpus, load_holdout
from evals.formation_publication import formation_evidence, formation_gates
from evals.publication import Gate, decide, distillation_evidence, publish, refuse_existing
from evals.runner import DEVELOPMENT, FORMATION, HOLDOUT, ComparisonRun, EvalSet, Progress, run_comparison

LIVE_FLAG: Final = "RUN_LIVE_MODEL_TESTS"


def live_enabled() -> bool:
    return os.environ.get(LIVE_FLAG) == "1"


def evaluation_sets(*, development_only: bool) -> list[EvalSet]:
    """The development corpus and, unless told not to, the frozen holdout (its digest checked on load)."""
    # Digests exactly as activation computes them from the shipped files, so an artifact binds to this tree.
    shipped = shipped_corpora()
    sets = [EvalSet(DEVELOPMENT, load_development(), _required(shipped.corpus_digest))]
    if not development_only:
        sets.append(EvalSet(HOLDOUT, load_holdout(), _required(shipped.holdout_digest)))
    return sets


def formation_set() -> EvalSet:
    """The 25-case formation corpus of formation@8 and formation@10, with its shipped digest."""
    return EvalSet(FORMATION, load_formation_corpus(), _required(shipped_corpora().formation_corpus_digest))


class ArtifactBuilder(Protocol):
    def __call__(
        self,
        runs: Sequence[ComparisonRun],
        sets: Sequence[EvalSet],
        evaluated: EvidenceTuple,
        *,
        build_ref: str,
        created_at: datetime,
    ) -> BaseModel: ...


@dataclass(frozen=True)
class Rules:
    """How an evaluation's runs are judged, and the artifact a passing one publishes."""

    decide: Callable[[Sequence[ComparisonRun]], list[Gate]]
    artifact: ArtifactBuilder


COMPARATIVE: Final = Rules(decide, distillation_evidence)
SINGLE_POLICY: Final = Rules(formation_gates, formation_evidence)


@dataclass(frozen=True)
class Publication:
    """Where and as what a passing run publishes."""

    output: Path
    evaluated: EvidenceTuple
    build_ref: str
    created_at: datetime


@dataclass(frozen=True)
class Outcome:
    runs: list[ComparisonRun]
    gates: list[Gate]
    published: Path | None = None

    @property
    def passed(self) -> bool:
        return bool(self.gates) and all(gate.passed for gate in self.gates)


def evaluate(
    sets: Sequence[EvalSet],
    arms: Sequence[Arm],
    *,
    publication: Publication | None,
    rules: Rules = COMPARATIVE,
    gated: bool = False,
    repeats: int = 1,
    concurrency: int = 1,
    progress: Progress | None = None,
) -> Outcome:
    """Run every arm; `gated` (implied by `publication`) decides the gates; a passing run with
    `publication` publishes once."""
    if publication is not None:
        refuse_existing(publication.output)
    runs = run_comparison(sets, arms, repeats=repeats, concurrency=concurrency, progress=progress)
    if publication is None and not gated:
        return Outcome(runs, [])
    gates = rules.decide(runs)
    if publication is None or not all(gate.passed for gate in gates):
        return Outcome(runs, gates)
    artifact = rules.artifact(
        runs,
        sets,
        publication.evaluated,
        build_ref=publication.build_ref,
        created_at=publication.created_at,
    )
    publish(artifact.model_dump_json(indent=2).encode() + b"\n", publication.output)
    return Outcome(runs, gates, publication.output)


def _required(digest: str | None) -> str:
    # The loaders above have already read the file, so a missing digest cannot happen here.
    assert digest is not None
    return digest
