"""The publication rules of a single-call policy (formation@8, formation@10) and the artifact it publishes.

The reference gives the 25-case formation corpus no thresholds of its own: ADR-0086 asks only that
formation@10's evidence come from a populated store and record the seeded case count. A run is held to
the gates the reference applies to every evaluated set of formation@9 (those the frozen holdout passes
too), as far as one arm can be measured on them, pooled over repeats the same way: zero boundary failures
and one call, or a preflight skip, per eligible segment on every run; direct must_form recall at least
0.95 and hypothesis must_form recall at least 0.80 (where the corpus has such an expectation); precision
at least 0.75, the holdout's floor, because like the holdout this corpus was authored before any run and
its labels cannot anticipate every true belief the fallback merges in; and at least three quarters of the
gold evidence clauses formed. Besides, at least one positive case ran on a populated store, and the cost
is below the artifact's USD 10 sanity ceiling. Not applied: the useful-recall lift and represented seeds
(one arm, and a pool that never touches an expectation) and the development corpus's own rules (claim-kind
coverage, corrections, lifecycle checks, named scenarios).
"""

from collections.abc import Sequence
from datetime import datetime
from functools import reduce

from domain.policy.evidence import (
    FORMATION_COST_CEILING_USD,
    EvidenceTuple,
    FormationPolicyEvidence,
    FormationRun,
)
from domain.policy.versions import DISTILLATION_SCORER
from evals.metrics import ArmTally
from evals.publication import PRECISION, Gate, arm_gates
from evals.runner import HOLDOUT, ComparisonRun, EvalSet


def _only_arm(runs: Sequence[ComparisonRun]) -> tuple[str, list[ArmTally]]:
    """The one set's name and its one arm's tally in each run."""
    (set_name,) = runs[0].sets
    (policy,) = runs[0].sets[set_name].tallies
    return set_name, [run.sets[set_name].tallies[policy] for run in runs]


def formation_gates(runs: Sequence[ComparisonRun]) -> list[Gate]:
    set_name, each = _only_arm(runs)
    total = reduce(ArmTally.pooled, each)
    return arm_gates(set_name, each, PRECISION[HOLDOUT]) + [
        Gate(
            set_name,
            "populated_store",
            total.seeded_positive_cases > 0,
            f"{total.seeded_positive_cases} positive case runs on a seeded store",
        ),
        Gate(
            "all",
            "cost",
            total.cost_usd < FORMATION_COST_CEILING_USD,
            f"${total.cost_usd:.2f} < ${FORMATION_COST_CEILING_USD:g}",
        ),
    ]


def formation_evidence(
    runs: Sequence[ComparisonRun],
    sets: Sequence[EvalSet],
    evaluated: EvidenceTuple,
    *,
    build_ref: str,
    created_at: datetime,
) -> FormationPolicyEvidence:
    """The single-policy artifact of a passing run. It records no effort: a control sends the default."""
    if evaluated.reasoning_effort is not None:
        raise ValueError("a formation@8/@10 artifact is provider-default evidence: reasoning_effort is null")
    (evaluated_set,) = sets
    _, each = _only_arm(runs)
    return FormationPolicyEvidence(
        **evaluated.model_dump(exclude={"reasoning_effort"}),
        scorer_version=DISTILLATION_SCORER,
        build_ref=build_ref,
        corpus_digest=evaluated_set.digest,
        repeats=len(runs),
        case_count=len(evaluated_set.corpus.cases),
        # Cases, not case runs: every repeat seeds the same cases.
        seeded_case_count=each[0].seeded_cases,
        runs=tuple(
            FormationRun(
                index=run.index,
                recall=tally.useful.rate,
                precision=tally.precision.rate,
                boundary_failures=tally.boundary_failures,
                consolidations=tally.consolidations,
                provider_calls=tally.provider_calls,
                skipped_calls=tally.skipped_calls,
                cost_usd=tally.cost_usd,
            )
            for run, tally in zip(runs, each, strict=True)
        ),
        provider_call_total=sum(t.provider_calls for t in each),
        consolidation_total=sum(t.consolidations for t in each),
        cost_usd=sum(t.cost_usd for t in each),
        created_at=created_at,
    )
