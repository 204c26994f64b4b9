"""The comparative run: every arm over every case of each evaluated set, repeated, in a fixed order.

Cases run `concurrency` at a time, each in its own composition (a fresh store, its own provider), and are
tallied in corpus order whatever order they finish in. A repeat is a whole pass over every set.
`progress(arm, set_name)` is told each finished case; it sees names, never content.
"""

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from evals.arms import Arm, CaseRun
from evals.corpus import Case, Corpus
from evals.metrics import ArmTally

DEVELOPMENT = "development"
HOLDOUT = "holdout"
# The 25-case corpus of the single-call policies formation@8 and formation@10.
FORMATION = "formation"

Progress = Callable[[str, str], None]


@dataclass(frozen=True)
class EvalSet:
    name: str
    corpus: Corpus
    # "sha256:<hex>" of the corpus file's bytes, as artifacts record it.
    digest: str


@dataclass
class SetRun:
    name: str
    tallies: dict[str, ArmTally]


@dataclass
class ComparisonRun:
    index: int
    sets: dict[str, SetRun]


def run_comparison(
    sets: Sequence[EvalSet],
    arms: Sequence[Arm],
    *,
    repeats: int = 1,
    concurrency: int = 1,
    progress: Progress | None = None,
) -> list[ComparisonRun]:
    runs: list[ComparisonRun] = []
    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        for index in range(repeats):
            done: dict[str, SetRun] = {}
            for evaluated in sets:
                tallies = {arm.policy: _run_arm(pool, arm, evaluated, progress) for arm in arms}
                done[evaluated.name] = SetRun(evaluated.name, tallies)
            runs.append(ComparisonRun(index, done))
    return runs


def _run_arm(pool: ThreadPoolExecutor, arm: Arm, evaluated: EvalSet, progress: Progress | None) -> ArmTally:
    corpus = evaluated.corpus

    def one(case: Case) -> CaseRun:
        result = arm.run(case, corpus.pool(case.seed_pool) if case.seed_pool else None)
        if progress is not None:
            progress(arm.policy, evaluated.name)
        return result

    tally = ArmTally(policy=arm.policy)
    for case, result in zip(corpus.cases, pool.map(one, corpus.cases), strict=True):
        tally.add_case(case, result)
    return tally
