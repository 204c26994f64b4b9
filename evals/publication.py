"""The reference's publication rules: which gates a comparative run passes, and the artifact it publishes.

Gates are decided over every repeat pooled: recall, precision, lift, evidence disposition, correction rate
and claim-kind coverage aggregate the runs' counts; each expected memory of the personal-agent and rich
training cores must form in a majority of runs, and so must a verified representation of a restated seed;
boundary failures, call counts and lifecycle checks fail on any run. The holdout passes the same recall,
lift, disposition, boundary, call-count and represented thresholds with a precision floor of 0.75 and none
of the development set's named-scenario rules. Only a run passing every gate publishes, once: the output
path is created by a hard link, which refuses an existing file, so an artifact is never overwritten.
"""

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import reduce
from pathlib import Path
from typing import Final

from domain.candidates import ClaimKind
from domain.policy.evidence import (
    COMPARATIVE_COST_CEILING_USD,
    ArmMetrics,
    ComparativeRun,
    EvidenceTuple,
    MemoryDistillationEvidence,
    SetMetrics,
)
from domain.policy.versions import DISTILLATION_SCORER, FORMATION_8, FORMATION_9
from evals.metrics import ArmTally, Ratio
from evals.runner import DEVELOPMENT, HOLDOUT, ComparisonRun, EvalSet

DIRECT_RECALL: Final = 0.95
HYPOTHESIS_RECALL: Final = 0.80
PRECISION: Final = {DEVELOPMENT: 0.90, HOLDOUT: 0.75}
USEFUL_LIFT: Final = 0.15
CORRECTIONS_PER_HUNDRED: Final = 10.0
EVIDENCE_DISPOSITION: Final = 0.75


@dataclass(frozen=True)
class Gate:
    set_name: str
    name: str
    passed: bool
    measured: str


class OutputExists(FileExistsError):
    """The output path already holds a file; evidence is never overwritten."""


def pooled(runs: Sequence[ComparisonRun], set_name: str, policy: str) -> ArmTally:
    tallies = [run.sets[set_name].tallies[policy] for run in runs]
    return reduce(ArmTally.pooled, tallies)


def useful_lift(runs: Sequence[ComparisonRun], set_name: str) -> float:
    """formation@9's strict useful recall over formation@8's statement-only recall."""
    return pooled(runs, set_name, FORMATION_9).useful.rate - pooled(runs, set_name, FORMATION_8).useful.rate


def decide(runs: Sequence[ComparisonRun]) -> list[Gate]:
    """Every publication gate of formation@9 over the repeats in `runs`, per evaluated set."""
    gates: list[Gate] = []
    for set_name in runs[0].sets:
        gates += _set_gates(runs, set_name)
    cost = sum(t.cost_usd for run in runs for s in run.sets.values() for t in s.tallies.values())
    gates.append(Gate("all", "cost", cost < COMPARATIVE_COST_CEILING_USD, f"${cost:.2f} < $1000"))
    return gates


def _set_gates(runs: Sequence[ComparisonRun], set_name: str) -> list[Gate]:
    each = [run.sets[set_name].tallies[FORMATION_9] for run in runs]
    total = pooled(runs, set_name, FORMATION_9)
    majority = len(runs) // 2 + 1
    represented_runs = sum(t.represented_seeded > 0 for t in each)
    gates = arm_gates(set_name, each, PRECISION[set_name])
    gates += [
        _at_least(set_name, "useful_lift", useful_lift(runs, set_name), USEFUL_LIFT),
        Gate(
            set_name,
            "represented_seeded",
            total.seeded_positive_cases > 0 and represented_runs >= majority,
            f"{total.seeded_positive_cases} seeded positive cases, represented in {represented_runs} of "
            f"{len(runs)} runs",
        ),
    ]
    if set_name != DEVELOPMENT:
        return gates
    kinds = len(total.kinds_formed)
    return gates + [
        Gate(set_name, "claim_kinds", kinds == len(ClaimKind), f"{kinds} of {len(ClaimKind)} kinds formed"),
        Gate(
            set_name,
            "corrections_per_hundred",
            total.corrections_per_hundred < CORRECTIONS_PER_HUNDRED,
            f"{total.corrections_per_hundred:.1f} < {CORRECTIONS_PER_HUNDRED:g}",
        ),
        Gate(
            set_name,
            "lifecycle_checks",
            all(t.failed_checks == 0 for t in each),
            _per_run(each, "failed_checks"),
        ),
        _core_gate(each, majority),
    ]


def arm_gates(set_name: str, each: Sequence[ArmTally], precision: float) -> list[Gate]:
    """The gates every evaluated set holds one arm to on its own: boundary failures and call counts on
    every run, pooled must_form recall by derivation, precision at `precision` and evidence disposition."""
    total = reduce(ArmTally.pooled, each)
    return [
        Gate(
            set_name,
            "boundary_failures",
            all(t.boundary_failures == 0 for t in each),
            _per_run(each, "boundary_failures"),
        ),
        Gate(
            set_name,
            "call_count",
            all(t.call_violations == 0 for t in each),
            _per_run(each, "call_violations"),
        ),
        _recall_gate(set_name, "direct_must_form_recall", total.direct_must_form, DIRECT_RECALL),
        _recall_gate(set_name, "hypothesis_must_form_recall", total.hypothesis_must_form, HYPOTHESIS_RECALL),
        _at_least(set_name, "precision", total.precision.rate, precision),
        _at_least(set_name, "evidence_disposition", total.evidence.rate, EVIDENCE_DISPOSITION),
    ]


def _at_least(set_name: str, name: str, value: float, floor: float) -> Gate:
    return Gate(set_name, name, value >= floor, f"{value:.3f} >= {floor:g}")


def _recall_gate(set_name: str, name: str, recall: Ratio, floor: float) -> Gate:
    """A recall floor; a set with no such expectation has nothing to miss."""
    if recall.total == 0:
        return Gate(set_name, name, True, "no such must_form expectation")
    return _at_least(set_name, name, recall.rate, floor)


def _per_run(tallies: Sequence[ArmTally], field: str) -> str:
    return "per run: " + ", ".join(str(getattr(t, field)) for t in tallies)


def _core_gate(each: Sequence[ArmTally], majority: int) -> Gate:
    expected = set().union(*(t.core for t in each))
    missing = [key for key in expected if sum(t.core.get(key, False) for t in each) < majority]
    return Gate(
        DEVELOPMENT,
        "core_scenarios",
        bool(expected) and not missing,
        f"{len(expected) - len(missing)} of {len(expected)} core memories in a majority of runs",
    )


def _arm_metrics(tally: ArmTally) -> ArmMetrics:
    return ArmMetrics.model_validate(
        {
            "formation_policy_version": tally.policy,
            "direct_must_form_recall": tally.direct_must_form.rate,
            "hypothesis_must_form_recall": tally.hypothesis_must_form.rate,
            "useful_recall": tally.useful.rate,
            "precision": tally.precision.rate,
            "evidence_disposition_share": tally.evidence.rate,
            "represented_seeded_clauses": tally.represented_seeded,
            "corrections_per_hundred": tally.corrections_per_hundred,
            "boundary_failures": tally.boundary_failures,
            "consolidations": tally.consolidations,
            "segments": tally.segments,
            "provider_calls": tally.provider_calls,
            "cost_usd": tally.cost_usd,
        }
    )


def _set_metrics(run: ComparisonRun, set_name: str) -> SetMetrics:
    tallies = run.sets[set_name].tallies
    return SetMetrics(
        arms=tuple(_arm_metrics(t) for t in tallies.values()),
        useful_lift=tallies[FORMATION_9].useful.rate - tallies[FORMATION_8].useful.rate,
        claim_kinds_covered=len(tallies[FORMATION_9].kinds_formed),
    )


def distillation_evidence(
    runs: Sequence[ComparisonRun],
    sets: Sequence[EvalSet],
    evaluated: EvidenceTuple,
    *,
    build_ref: str,
    created_at: datetime,
) -> MemoryDistillationEvidence:
    """The comparative artifact of a passing run; schema 8 records the effort the formation@9 arm sent."""
    digests = {s.name: s.digest for s in sets}
    every = [t for run in runs for s in run.sets.values() for t in s.tallies.values()]
    return MemoryDistillationEvidence(
        schema_version=8,
        **evaluated.model_dump(),
        scorer_version=DISTILLATION_SCORER,
        build_ref=build_ref,
        corpus_digest=digests[DEVELOPMENT],
        holdout_digest=digests[HOLDOUT],
        repeats=len(runs),
        runs=tuple(
            ComparativeRun(
                index=run.index,
                development=_set_metrics(run, DEVELOPMENT),
                holdout=_set_metrics(run, HOLDOUT),
            )
            for run in runs
        ),
        # Cases, not case runs: every repeat seeds the same cases.
        seeded_case_count=sum(s.tallies[FORMATION_9].seeded_positive_cases for s in runs[0].sets.values()),
        provider_call_total=sum(t.provider_calls for t in every),
        consolidation_total=sum(t.consolidations for t in every),
        cost_usd=sum(t.cost_usd for t in every),
        created_at=created_at,
    )


def refuse_existing(path: Path) -> None:
    """Checked before a run spends anything, and again by publish itself."""
    if path.exists() or path.is_symlink():
        raise OutputExists(f"{path} exists; evidence is never overwritten: choose a new path")


def publish(document: bytes, path: Path) -> None:
    """Create `path` with `document`, or fail without touching an existing file."""
    refuse_existing(path)
    handle, staging = tempfile.mkstemp(dir=path.parent, prefix=".evidence-", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(document)
            out.flush()
            os.fsync(out.fileno())
        try:
            # A link is created whole or not at all, and never replaces a file that appeared meanwhile.
            os.link(staging, path)
        except FileExistsError:
            raise OutputExists(f"{path} exists; evidence is never overwritten: choose a new path") from None
    finally:
        os.unlink(staging)
