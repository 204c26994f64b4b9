"""One arm's numbers on one corpus in one run, kept as counts so repeats pool exactly.

Recall counts gold expectations a formed claim matches (evals.matching): must_form recall by derivation,
useful recall over every positive expectation, and recall by gold kind. An expectation that restates a seed
also counts when its segment verifiably represented the seed through an attributed anticipation.
Precision counts formed claims that match a positive expectation of their case; a claim matching nothing,
or a must_not_form claim, is a false positive. A gold evidence clause is formed when its expectation
matched or a formed claim cites its event, represented when its seed was. Dispositions, calls, segments,
consolidations, skipped one-call segments and cost are what production recorded in each ConsolidationRun.
"""

from collections import Counter
from dataclasses import dataclass, field

from domain.candidates import ClaimKind, Derivation
from domain.telemetry import ConsolidationRun, CoverageDisposition, ReasonCategory
from evals.arms import CaseRun, skipped_calls
from evals.corpus import Case, CoreScenario, Label
from evals.matching import FormedClaim, matches

# The named scenarios whose every expected memory must form (in a majority of repeats).
CORE_SCENARIOS = (CoreScenario.PERSONAL_AGENT, CoreScenario.TRAINING_CONVERSATION)


@dataclass
class Ratio:
    hit: int = 0
    total: int = 0

    @property
    def rate(self) -> float:
        return self.hit / self.total if self.total else 0.0

    def count(self, hit: bool) -> None:
        self.hit += hit
        self.total += 1

    def __add__(self, other: "Ratio") -> "Ratio":
        return Ratio(self.hit + other.hit, self.total + other.total)


@dataclass
class ArmTally:
    policy: str
    direct_must_form: Ratio = field(default_factory=Ratio)
    hypothesis_must_form: Ratio = field(default_factory=Ratio)
    useful: Ratio = field(default_factory=Ratio)
    by_kind: dict[ClaimKind, Ratio] = field(default_factory=dict)
    by_derivation: dict[Derivation, Ratio] = field(default_factory=dict)
    precision: Ratio = field(default_factory=Ratio)
    evidence: Ratio = field(default_factory=Ratio)
    # Kinds formed (as the policy filed them) by claims that matched a positive expectation.
    kinds_formed: set[ClaimKind] = field(default_factory=set)
    # (case id, expectation index) of the core scenarios' must_form expectations: formed or not.
    core: dict[tuple[str, int], bool] = field(default_factory=dict)
    seeded_cases: int = 0
    seeded_positive_cases: int = 0
    represented_seeded: int = 0
    corrections: int = 0
    automatic_committed: int = 0
    boundary_failures: int = 0
    failed_checks: int = 0
    consolidations: int = 0
    segments: int = 0
    provider_calls: int = 0
    # One-call segments whose preflight skipped the call (formation@8 on a populated store).
    skipped_calls: int = 0
    # Consolidations of a provider arm that did not make three calls per planned segment (evals.arms).
    call_violations: int = 0
    cost_usd: float = 0.0
    dispositions: Counter[CoverageDisposition] = field(default_factory=Counter)

    @property
    def corrections_per_hundred(self) -> float:
        return 100.0 * self.corrections / self.automatic_committed if self.automatic_committed else 0.0

    def add_case(self, case: Case, run: CaseRun) -> None:
        self._recall(case, run)
        for claim in run.formed:
            self.precision.count(not claim.boundary_failure and _matches_positive(case, claim))
            self.boundary_failures += claim.boundary_failure
        self.seeded_cases += run.seeded
        self.seeded_positive_cases += run.seeded and case.is_positive
        self.failed_checks += run.failed_checks
        self.call_violations += run.call_violations
        for consolidation in run.runs:
            self._record(consolidation)

    def _recall(self, case: Case, run: CaseRun) -> None:
        for index, expectation in enumerate(case.expectations):
            if not expectation.is_positive:
                continue
            matched = [claim for claim in run.formed if matches(expectation, claim)]
            represented = expectation.restates_seed in run.represented_seeds
            formed = bool(matched) or represented
            self.represented_seeded += represented
            self.kinds_formed |= {c.closed.claim_kind for c in matched if c.closed is not None}
            self.useful.count(formed)
            self.by_kind.setdefault(expectation.claim_kind, Ratio()).count(formed)
            self.by_derivation.setdefault(expectation.derivation, Ratio()).count(formed)
            if expectation.label is Label.MUST_FORM:
                must = (
                    self.direct_must_form
                    if expectation.derivation is Derivation.DIRECT
                    else self.hypothesis_must_form
                )
                must.count(formed)
                if case.scenario in CORE_SCENARIOS:
                    self.core[(case.id, index)] = formed
            cited = {(span.session_id or case.sessions[0], span.seq) for span in expectation.evidence}
            for source in cited:
                self.evidence.count(formed or any(source in claim.sources for claim in run.formed))

    def _record(self, run: ConsolidationRun) -> None:
        self.consolidations += 1
        self.segments += run.segment_count
        self.provider_calls += run.provider_call_count
        self.skipped_calls += skipped_calls(run)
        self.cost_usd += sum(metrics.cost_usd for metrics in run.stage_metrics)
        self.corrections += run.categories.get(ReasonCategory.SUPERSEDED, 0)
        self.automatic_committed += run.direct_committed + run.hypothesis_committed
        self.dispositions.update(run.coverage)

    def pooled(self, other: "ArmTally") -> "ArmTally":
        """Two runs' counts as one: recall, precision and rates over every case of both."""
        merged = ArmTally(policy=self.policy)
        for name in ("direct_must_form", "hypothesis_must_form", "useful", "precision", "evidence"):
            setattr(merged, name, getattr(self, name) + getattr(other, name))
        for mapping in ("by_kind", "by_derivation"):
            mine, theirs = getattr(self, mapping), getattr(other, mapping)
            setattr(
                merged, mapping, {k: mine.get(k, Ratio()) + theirs.get(k, Ratio()) for k in mine | theirs}
            )
        merged.kinds_formed = self.kinds_formed | other.kinds_formed
        for name in (
            "seeded_cases",
            "seeded_positive_cases",
            "represented_seeded",
            "corrections",
            "automatic_committed",
            "boundary_failures",
            "failed_checks",
            "consolidations",
            "segments",
            "provider_calls",
            "skipped_calls",
            "call_violations",
            "cost_usd",
        ):
            setattr(merged, name, getattr(self, name) + getattr(other, name))
        merged.dispositions = self.dispositions + other.dispositions
        return merged


def _matches_positive(case: Case, claim: FormedClaim) -> bool:
    return any(e.is_positive and matches(e, claim) for e in case.expectations)
