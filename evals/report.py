"""A run's numbers as plain values, for the table and `--json`: rates, counts and names, no content."""

from collections.abc import Sequence
from typing import Any

from domain.telemetry import CoverageDisposition
from evals.metrics import ArmTally
from evals.publication import Gate, pooled
from evals.runner import ComparisonRun


def arm_summary(tally: ArmTally) -> dict[str, Any]:
    coverage = sum(tally.dispositions.values())
    return {
        "direct_must_form_recall": round(tally.direct_must_form.rate, 4),
        "hypothesis_must_form_recall": round(tally.hypothesis_must_form.rate, 4),
        "useful_recall": round(tally.useful.rate, 4),
        "precision": round(tally.precision.rate, 4),
        "formed": tally.precision.total,
        "evidence_disposition_share": round(tally.evidence.rate, 4),
        "recall_by_derivation": {
            d.value: _ratio(r.hit, r.total) for d, r in sorted(tally.by_derivation.items())
        },
        "recall_by_kind": {k.value: _ratio(r.hit, r.total) for k, r in sorted(tally.by_kind.items())},
        "claim_kinds_formed": len(tally.kinds_formed),
        "disposition_shares": {
            d.value: round(tally.dispositions[d] / coverage, 4) if coverage else 0.0
            for d in CoverageDisposition
        },
        "boundary_failures": tally.boundary_failures,
        "failed_lifecycle_checks": tally.failed_checks,
        "seeded_cases": tally.seeded_cases,
        "seeded_positive_cases": tally.seeded_positive_cases,
        "represented_seeded": tally.represented_seeded,
        "corrections_per_hundred": round(tally.corrections_per_hundred, 2),
        "consolidations": tally.consolidations,
        "segments": tally.segments,
        "provider_calls": tally.provider_calls,
        "skipped_calls": tally.skipped_calls,
        "cost_usd": round(tally.cost_usd, 4),
    }


def _ratio(hit: int, total: int) -> dict[str, int]:
    return {"formed": hit, "expected": total}


def run_summary(runs: Sequence[ComparisonRun], gates: Sequence[Gate] = ()) -> dict[str, Any]:
    """Pooled numbers per set and policy, and the gates when a publication was decided."""
    sets = {
        name: {policy: arm_summary(pooled(runs, name, policy)) for policy in run_set.tallies}
        for name, run_set in runs[0].sets.items()
    }
    return {
        "repeats": len(runs),
        "sets": sets,
        "gates": [
            {"set": g.set_name, "gate": g.name, "passed": g.passed, "measured": g.measured} for g in gates
        ],
    }
