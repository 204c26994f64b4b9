"""gate.memory.formation_corpus_seeded: the corpora run against populated stores.

Corpus v3 declares a pool of at least 25 prior beliefs named by the rich training conversation and another
positive multi-event case; the holdout has at least three seeded cases that restate a seed; the formation
corpus of formation@8/@10 has 25 cases and a 30-belief pool, named by at least 80% of its positive cases,
whose subjects never touch an expectation (ADR-0086 decision 4). Each rule is broken once on a copy.

Watched failing on purpose, undone after: with the holdout's MIN_SEEDED_RESTATEMENTS check in
evals/corpus_rules.py skipped, the fewer-than-three-restatements test failed.
"""

from pathlib import Path

import pytest

from domain.candidates import GENERIC_SUBJECTS
from domain.formation.language import content_lemmas
from domain.policy.evidence import CORPUS_V3_FILE, FORMATION_CORPUS_FILE, HOLDOUT_V3_FILE
from evals.corpora import CorpusError, load_development, load_formation_corpus, load_holdout
from evals.corpus import CoreScenario, Corpus
from evals.corpus_rules import expectation_lemmas
from tests.corpus_copies import Document, case, copy_corpora, edit, refreeze_holdout


def _pool_sizes(corpus: Corpus) -> dict[str, int]:
    return {pool.id: len(pool.beliefs) for pool in corpus.seed_pools}


def test_the_rich_conversation_and_another_multi_event_case_run_on_25_seeds() -> None:
    corpus = load_development()
    sizes = _pool_sizes(corpus)
    seeded = [c for c in corpus.cases if c.is_positive and c.seed_pool and sizes[c.seed_pool] >= 25]
    assert any(c.scenario is CoreScenario.TRAINING_CONVERSATION for c in seeded)
    assert any(c.scenario is not CoreScenario.TRAINING_CONVERSATION and len(c.events) > 1 for c in seeded)
    assert any(c.restated_seeds for c in seeded)
    for pool in corpus.seed_pools:
        assert all(b.subject.lower() not in GENERIC_SUBJECTS for b in pool.beliefs)


def test_the_holdout_restates_a_seed_in_at_least_three_cases() -> None:
    corpus = load_holdout()
    restating = [c for c in corpus.cases if c.is_positive and c.restated_seeds]
    assert len(restating) >= 3
    for c in restating:
        pool = corpus.pool(c.seed_pool or "")
        assert pool is not None
        assert all(pool.belief(subject) is not None for subject in c.restated_seeds)


def test_the_formation_corpus_runs_on_thirty_seeds_that_touch_no_expectation() -> None:
    corpus = load_formation_corpus()
    assert len(corpus.cases) == 25
    [pool] = corpus.seed_pools
    assert len(pool.beliefs) == 30
    positive = [c for c in corpus.cases if c.is_positive]
    assert sum(c.seed_pool == pool.id for c in positive) >= 0.80 * len(positive)
    expected = expectation_lemmas(corpus)
    for belief in pool.beliefs:
        assert not set(content_lemmas(belief.subject)) & expected, belief.subject


def _unseed_training(document: Document) -> None:
    del case(document, "dev-core-training-conversation")["seed_pool"]


def _shrink_pool_to_24(document: Document) -> None:
    pool = document["seed_pools"][0]
    pool["beliefs"] = [b for b in pool["beliefs"] if b["subject"] not in {"visits", "volunteering"}][:24]
    for c in document["cases"]:
        for e in c["expectations"]:
            e.pop("restates_seed", None)


def test_development_loader_refuses_a_rich_conversation_without_its_pool(tmp_path: Path) -> None:
    root = copy_corpora(tmp_path)
    edit(root, CORPUS_V3_FILE, _unseed_training)
    with pytest.raises(CorpusError, match="the rich conversation names no pool of 25 beliefs"):
        load_development(root)


def test_development_loader_refuses_a_pool_below_25_beliefs(tmp_path: Path) -> None:
    root = copy_corpora(tmp_path)
    edit(root, CORPUS_V3_FILE, _shrink_pool_to_24)
    with pytest.raises(CorpusError, match="names no pool of 25 beliefs"):
        load_development(root)


def test_a_restatement_of_a_seed_the_pool_does_not_hold_is_refused(tmp_path: Path) -> None:
    root = copy_corpora(tmp_path)

    def rename_restated(document: Document) -> None:
        pool = document["seed_pools"][0]
        pool["beliefs"] = [b for b in pool["beliefs"] if b["subject"] != "visits"]

    edit(root, CORPUS_V3_FILE, rename_restated)
    with pytest.raises(CorpusError, match="restates a seed its pool does not hold"):
        load_development(root)


def test_holdout_loader_refuses_fewer_than_three_seeded_restatements(tmp_path: Path) -> None:
    root = copy_corpora(tmp_path)

    def forget_restatements(document: Document) -> None:
        restating = [c for c in document["cases"] if any("restates_seed" in e for e in c["expectations"])]
        for c in restating[1:]:
            for e in c["expectations"]:
                e.pop("restates_seed", None)

    edit(root, HOLDOUT_V3_FILE, forget_restatements)
    refreeze_holdout(root)
    with pytest.raises(CorpusError, match="fewer than 3 seeded cases restate a seed"):
        load_holdout(root)


def test_formation_loader_refuses_too_few_seeded_positives(tmp_path: Path) -> None:
    root = copy_corpora(tmp_path)

    def unseed_five(document: Document) -> None:
        for c in [c for c in document["cases"] if "seed_pool" in c][:5]:
            del c["seed_pool"]

    edit(root, FORMATION_CORPUS_FILE, unseed_five)
    with pytest.raises(CorpusError, match="80% of positive cases name the seed pool"):
        load_formation_corpus(root)


def test_formation_loader_refuses_a_seed_that_touches_an_expectation(tmp_path: Path) -> None:
    root = copy_corpora(tmp_path)
    edit(
        root,
        FORMATION_CORPUS_FILE,
        lambda d: d["seed_pools"][0]["beliefs"][0].update(subject="morning walks"),
    )
    with pytest.raises(CorpusError, match="a seed's subject touches an expectation"):
        load_formation_corpus(root)


def test_formation_loader_refuses_a_pool_that_is_not_thirty(tmp_path: Path) -> None:
    root = copy_corpora(tmp_path)
    edit(root, FORMATION_CORPUS_FILE, lambda d: d["seed_pools"][0]["beliefs"].pop())
    with pytest.raises(CorpusError, match="one seed pool of 30 beliefs"):
        load_formation_corpus(root)
