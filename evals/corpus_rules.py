"""What each corpus must hold as a whole: the counts and coverage the reference and ADR-0086 set.

Each function returns the rules a corpus breaks, as content-free sentences; an empty list means it holds.
The development set (corpus v3) carries the named scenarios; the frozen holdout carries none of them and
proves independence instead; the formation corpus of formation@8/@10 is evidence on a seeded store.
"""

from collections.abc import Iterable

from domain.candidates import ClaimKind, Derivation
from domain.formation.language import content_lemmas
from evals.corpus import Case, CoreScenario, Corpus, Coverage, Label

MIN_DEVELOPMENT_CASES = 60
MIN_POSITIVE_SHARE = 0.70
MIN_MULTI_TURN_CASES = 20
MIN_POPULATED_POOL = 25
TRAINING_MEMORIES = 11
PERSONAL_AGENT_STATEMENT = (
    "I am building a personal AI agent and I am wondering what to use for web search and web fetch."
)
PERSONAL_AGENT_PROJECT = "User is building a personal AI agent."
PERSONAL_AGENT_HYPOTHESIS = "User likely has software-development experience."

MIN_HOLDOUT_CASES = 30
MIN_SEEDED_RESTATEMENTS = 3

FORMATION_CASES = 25
FORMATION_POOL_BELIEFS = 30
MIN_POOL_NAMED_SHARE = 0.80


def development_violations(corpus: Corpus) -> list[str]:
    """gate.memory.formation_corpus_v3 and gate.memory.formation_corpus_seeded on the development set."""
    broken = _shared_violations(corpus, MIN_DEVELOPMENT_CASES)
    scenarios = {case.scenario for case in corpus.cases if case.scenario is not None}
    broken += [f"no case of core scenario {s}" for s in CoreScenario if s not in scenarios]
    covered = {tag for case in corpus.cases for tag in case.covers}
    broken += [f"no case covers {tag}" for tag in Coverage if tag not in covered]
    broken += _personal_agent_violations(corpus.cases)
    broken += _training_violations(corpus.cases)
    broken += _populated_store_violations(corpus)
    return broken


def holdout_violations(corpus: Corpus, development: Corpus) -> list[str]:
    """The frozen holdout: its own coverage, and nothing shared with the development set."""
    broken = _shared_violations(corpus, MIN_HOLDOUT_CASES)
    if any(case.scenario is not None for case in corpus.cases):
        broken.append("the holdout carries none of the development set's named scenarios")
    restating = [c for c in corpus.cases if c.restated_seeds and c.is_positive]
    if len(restating) < MIN_SEEDED_RESTATEMENTS:
        broken.append(
            f"fewer than {MIN_SEEDED_RESTATEMENTS} seeded cases restate a seed across a segment boundary"
        )
    if {c.id for c in corpus.cases} & {c.id for c in development.cases}:
        broken.append("a holdout case identifier is also a development case identifier")
    if _owner_texts(corpus.cases) & _owner_texts(development.cases):
        broken.append("a holdout owner turn also appears in the development set")
    return broken


def formation_violations(corpus: Corpus) -> list[str]:
    """The 25-case formation@8/@10 corpus and its thirty-belief seeded store (ADR-0086 decision 4)."""
    broken = []
    if len(corpus.cases) != FORMATION_CASES:
        broken.append(f"the formation corpus holds {FORMATION_CASES} cases")
    if len(corpus.seed_pools) != 1 or len(corpus.seed_pools[0].beliefs) != FORMATION_POOL_BELIEFS:
        broken.append(f"the formation corpus declares one seed pool of {FORMATION_POOL_BELIEFS} beliefs")
        return broken
    pool = corpus.seed_pools[0]
    positive = [case for case in corpus.cases if case.is_positive]
    named = [case for case in positive if case.seed_pool == pool.id]
    if not positive or len(named) < MIN_POOL_NAMED_SHARE * len(positive):
        broken.append(f"fewer than {MIN_POOL_NAMED_SHARE:.0%} of positive cases name the seed pool")
    expected = expectation_lemmas(corpus)
    if any(set(content_lemmas(belief.subject)) & expected for belief in pool.beliefs):
        broken.append("a seed's subject touches an expectation")
    return broken


def expectation_lemmas(corpus: Corpus) -> set[str]:
    """Every content lemma of every expectation's subject and statements: what a seed must not touch."""
    return {
        lemma
        for case in corpus.cases
        for e in case.expectations
        for text in (e.subject, *e.statements)
        for lemma in content_lemmas(text)
    }


def _shared_violations(corpus: Corpus, minimum: int) -> list[str]:
    """Counts and coverage both v3 sets need."""
    cases = corpus.cases
    broken = []
    if len(cases) < minimum:
        broken.append(f"fewer than {minimum} cases")
    if sum(case.is_positive for case in cases) < MIN_POSITIVE_SHARE * len(cases):
        broken.append(f"fewer than {MIN_POSITIVE_SHARE:.0%} of cases are positive")
    labels = {case.label for case in cases}
    broken += [f"no case labelled {label}" for label in Label if label not in labels]
    positive = [e for case in cases for e in case.expectations if e.is_positive]
    kinds = {e.claim_kind for e in positive}
    broken += [f"no positive expectation of kind {kind}" for kind in ClaimKind if kind not in kinds]
    derivations = {e.derivation for e in positive}
    broken += [f"no positive {d} expectation" for d in Derivation if d not in derivations]
    if sum(case.is_multi_turn for case in cases) < MIN_MULTI_TURN_CASES:
        broken.append(f"fewer than {MIN_MULTI_TURN_CASES} multi-turn conversations")
    return broken


def _personal_agent_violations(cases: Iterable[Case]) -> list[str]:
    for case in _of(cases, CoreScenario.PERSONAL_AGENT):
        texts = [event.text for event in case.owner_turns]
        formed = {
            (e.derivation, s) for e in case.expectations if e.label is Label.MUST_FORM for s in e.statements
        }
        if (
            texts == [PERSONAL_AGENT_STATEMENT]
            and (Derivation.DIRECT, PERSONAL_AGENT_PROJECT) in formed
            and (Derivation.HYPOTHESIS, PERSONAL_AGENT_HYPOTHESIS) in formed
        ):
            return []
    return ["no personal-agent case expects the direct project and the software-development hypothesis"]


def _training_violations(cases: Iterable[Case]) -> list[str]:
    for case in _of(cases, CoreScenario.TRAINING_CONVERSATION):
        must = [e for e in case.expectations if e.label is Label.MUST_FORM]
        if len(case.owner_turns) == 3 and len(must) == TRAINING_MEMORIES:
            return []
    return [f"no three-turn training conversation expects its {TRAINING_MEMORIES} supported memories"]


def _populated_store_violations(corpus: Corpus) -> list[str]:
    """The rich conversation and another positive multi-event case run on a pool of at least 25 beliefs."""
    populated = {pool.id for pool in corpus.seed_pools if len(pool.beliefs) >= MIN_POPULATED_POOL}
    seeded = [case for case in corpus.cases if case.seed_pool in populated and case.is_positive]
    broken = []
    if not any(case.scenario is CoreScenario.TRAINING_CONVERSATION for case in seeded):
        broken.append(f"the rich conversation names no pool of {MIN_POPULATED_POOL} beliefs")
    if not any(_of_other_scenario(case) and len(case.events) > 1 for case in seeded):
        broken.append(f"no other positive multi-event case names a pool of {MIN_POPULATED_POOL} beliefs")
    if not any(case.restated_seeds for case in seeded):
        broken.append("no seeded case restates a seed")
    return broken


def _of_other_scenario(case: Case) -> bool:
    return case.scenario is not CoreScenario.TRAINING_CONVERSATION


def _of(cases: Iterable[Case], scenario: CoreScenario) -> list[Case]:
    return [case for case in cases if case.scenario is scenario]


def _owner_texts(cases: Iterable[Case]) -> set[str]:
    return {event.text for case in cases for event in case.owner_turns}
