"""Direct recall and benign precision of a former over the formation recall corpus.

Run: .venv/bin/python -m evals.formation_recall.recall [--part dev|dev2|dev3|dev4|dev5|dev6|dev7|dev8|unseen] [--misses] [--json]

Direct recall is the share of expected claims some formed direct candidate of the same polarity states.
Benign precision is the share of formed direct candidates that state an expected claim or one the case
marks as true but not required (`may`). A formed candidate that states none of those but states a
`must_not` is counted as a fabrication. Hypotheses are counted, not scored: the labels name direct claims.

Whether a candidate states a gold claim is a `Matcher`, always of the same polarity. The main one is
distillation-scorer@7's statement rule (`evals.scorer.score_statement`, the rule the reference scores
statement-only controls with) against any acceptable rendering; the labels name a kind but no subject or
longevity, so the scorer's full match is not applied. The runtime's statement equivalence
(`domain.formation.equivalence.same_claim`, stricter because merging is irreversible) is reported beside it
for continuity with the first measurements. `--misses` lists what the development parts missed under the
main matcher; it refuses the unseen part, which must not steer rule work, and any other part read as totals
only (`corpus.TOTALS_ONLY`).
"""

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

from domain.candidates import ClaimKind, Derivation, Longevity, MemoryCandidate, Polarity
from domain.events import SourceEvent
from domain.formation.deterministic.former import fallback_candidates
from domain.formation.equivalence import same_claim
from domain.policy.versions import DISTILLATION_SCORER
from evals.formation_recall.corpus import TOTALS_ONLY, Case, GoldClaim, Part, load
from evals.scorer import FormedBelief, GoldExpectation, score_statement

Matcher = Callable[[GoldClaim, MemoryCandidate], bool]
Former = Callable[[Sequence[SourceEvent]], list[MemoryCandidate]]
# The closed fields a scorer's gold claim must carry and the statement rule never reads: the labels give a
# kind (none for a `may` statement) and no subject or longevity.
_UNLABELLED_SUBJECT = "formation-recall:unlabelled"


def scorer_statement(gold: GoldClaim, candidate: MemoryCandidate) -> bool:
    """distillation-scorer@7's statement rule, any rendering of the gold claim, the same polarity."""
    if candidate.polarity is not gold.polarity:
        return False
    expectation = GoldExpectation(
        claim_kind=gold.kind or ClaimKind.PROJECT_FACT,
        derivation=Derivation.DIRECT,
        longevity=Longevity.DURABLE,
        subject=_UNLABELLED_SUBJECT,
        statements=gold.statements,
    )
    belief = FormedBelief(
        claim_kind=candidate.claim_kind,
        derivation=candidate.derivation,
        longevity=candidate.longevity,
        subject=candidate.subject,
        statement=candidate.statement,
        polarity=candidate.polarity,
    )
    return score_statement(expectation, belief).match


def statement_equivalence(gold: GoldClaim, candidate: MemoryCandidate) -> bool:
    """The runtime's same_claim, any rendering of the gold claim, the same polarity."""
    return candidate.polarity is gold.polarity and any(
        same_claim(statement, candidate.statement) for statement in gold.statements
    )


MAIN_MATCHER = f"{DISTILLATION_SCORER} statement"
MATCHERS: dict[str, Matcher] = {MAIN_MATCHER: scorer_statement, "same_claim": statement_equivalence}


@dataclass
class Score:
    part: str
    matcher: str
    cases: int = 0
    expected: int = 0
    recalled: int = 0
    formed: int = 0
    benign: int = 0
    fabricated: int = 0
    hypotheses: int = 0
    misses: list[str] = field(default_factory=list)

    @property
    def direct_recall(self) -> float:
        return self.recalled / self.expected if self.expected else 1.0

    @property
    def benign_precision(self) -> float:
        return self.benign / self.formed if self.formed else 1.0


def _allowed(case: Case) -> list[GoldClaim]:
    """Every claim a candidate may state without harm: the expected ones and the true-but-optional ones."""
    return [*case.expect, *(GoldClaim((statement,), None, Polarity.ASSERT) for statement in case.may)]


def score_case(case: Case, former: Former, matcher: Matcher, into: Score) -> None:
    formed = former(case.events)
    direct = [c for c in formed if c.derivation is Derivation.DIRECT]
    into.cases += 1
    into.hypotheses += len(formed) - len(direct)
    into.expected += len(case.expect)
    for gold in case.expect:
        if any(matcher(gold, candidate) for candidate in direct):
            into.recalled += 1
        else:
            into.misses.append(f"{case.id} missed: {gold.statements[0]}")
    allowed = _allowed(case)
    for candidate in direct:
        into.formed += 1
        if any(matcher(gold, candidate) for gold in allowed):
            into.benign += 1
            continue
        forbidden = any(
            matcher(GoldClaim((statement,), None, Polarity.ASSERT), candidate) for statement in case.must_not
        )
        into.fabricated += forbidden
        label = "fabricated" if forbidden else "unexpected"
        into.misses.append(f"{case.id} {label}: {candidate.polarity.value} {candidate.statement}")


def score(part: Part, former: Former = fallback_candidates, matcher: str = MAIN_MATCHER) -> Score:
    result = Score(part=part.value, matcher=matcher)
    for case in load(part):
        score_case(case, former, MATCHERS[matcher], result)
    return result


def _row(result: Score) -> str:
    return (
        f"{result.part:<7} {result.cases:>5} {result.expected:>8} {result.direct_recall:>8.1%} "
        f"{result.formed:>6} {result.benign_precision:>9.1%} {result.fabricated:>10} {result.hypotheses:>10}"
        f"  {result.matcher}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=[p.value for p in Part], action="append")
    parser.add_argument("--misses", action="store_true", help="list the development parts' misses")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    parts = [Part(p) for p in args.part] if args.part else list(Part)
    if args.misses and TOTALS_ONLY & set(parts):
        parser.error("--misses reads the development parts only, not " + ", ".join(sorted(TOTALS_ONLY)))
    results = [score(part, matcher=matcher) for matcher in MATCHERS for part in parts]
    if args.json:
        for result in results:
            row = {k: v for k, v in asdict(result).items() if k != "misses"}
            row |= {"direct_recall": result.direct_recall, "benign_precision": result.benign_precision}
            print(json.dumps(row))
    else:
        print("part    cases expected   recall formed precision fabricated hypotheses  matcher")
        for result in results:
            print(_row(result))
    if args.misses:
        for result in results:
            if result.matcher != MAIN_MATCHER:
                continue
            print("\n".join(result.misses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
