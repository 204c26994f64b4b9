"""gate.memory.formation_corpus_v3: corpus v3 and its frozen holdout have the declared coverage.

Counts are literals from the reference, not the loader's constants, so loosening a rule in evals/ fails
here. Each rule is also broken once on a copy, and the loader must refuse it.

Watched failing on purpose, undone after: with the MIN_POSITIVE_SHARE check in evals/corpus_rules.py skipped,
the "70% of cases are positive" refusal failed.
"""

import hashlib
import tomllib
from collections.abc import Callable
from fnmatch import fnmatch
from pathlib import Path

import pytest
from setuptools import find_packages

from domain.candidates import GENERIC_SUBJECTS, ClaimKind, Derivation
from domain.policy.evidence import (
    CORPUS_V3_FILE,
    FORMATION_CORPUS_FILE,
    HOLDOUT_V3_DIGEST_FILE,
    HOLDOUT_V3_FILE,
)
from evals.claim_shapes import CLAIM_SHAPES
from evals.corpora import CorpusError, capability_dir, load_development, load_holdout
from evals.corpus import CASE_OWNER, Case, CoreScenario, Corpus, Coverage, Label
from tests.corpus_copies import Document, case, copy_corpora, edit, refreeze_holdout

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def development() -> Corpus:
    return load_development()


@pytest.fixture(scope="module")
def holdout() -> Corpus:
    return load_holdout()


def _assert_common_coverage(corpus: Corpus, minimum: int) -> None:
    cases = corpus.cases
    assert len(cases) >= minimum
    assert len({c.id for c in cases}) == len(cases)
    assert sum(c.is_positive for c in cases) >= 0.70 * len(cases)
    assert {c.label for c in cases} == set(Label)
    positives = [e for c in cases for e in c.expectations if e.is_positive]
    assert {e.claim_kind for e in positives} == set(ClaimKind)
    assert {e.derivation for e in positives} == set(Derivation)
    assert sum(c.is_multi_turn for c in cases) >= 20


def _assert_expectations_well_formed(corpus: Corpus) -> None:
    for c in corpus.cases:
        for e in c.expectations:
            assert e.subject.lower() not in GENERIC_SUBJECTS, c.id
            assert e.statements and e.evidence, c.id
            assert len(e.compatible_kinds) <= 3, c.id
            if e.derivation is Derivation.HYPOTHESIS:
                assert e.compatible_kinds == (), c.id
            else:
                assert e.shape is not None, c.id
                assert set(e.compatible_kinds) <= CLAIM_SHAPES[e.shape][e.claim_kind], c.id
            for span in e.evidence:
                session = span.session_id or c.sessions[0]
                [event] = [x for x in c.events if x.session_id == session and x.seq == span.seq]
                assert span.text in event.text, c.id
                if e.is_positive:
                    assert event.is_owner_assertion and event.owner == CASE_OWNER, c.id


def test_development_set_has_the_declared_coverage(development: Corpus) -> None:
    _assert_common_coverage(development, 60)
    _assert_expectations_well_formed(development)
    assert {c.scenario for c in development.cases} - {None} == set(CoreScenario)
    assert {tag for c in development.cases for tag in c.covers} == set(Coverage)


def test_the_personal_agent_core_expects_the_project_and_the_hypothesis(development: Corpus) -> None:
    [core] = [c for c in development.cases if c.scenario is CoreScenario.PERSONAL_AGENT]
    [turn] = core.owner_turns
    assert turn.text == (
        "I am building a personal AI agent and I am wondering what to use for web search and web fetch."
    )
    must = {
        (e.claim_kind, e.derivation, e.statements[0]) for e in core.expectations if e.label is Label.MUST_FORM
    }
    assert (ClaimKind.ONGOING_PROJECT, Derivation.DIRECT, "User is building a personal AI agent.") in must
    assert (
        ClaimKind.SKILL,
        Derivation.HYPOTHESIS,
        "User likely has software-development experience.",
    ) in must
    forbidden = [e for e in core.expectations if e.label is Label.MUST_NOT_FORM]
    assert [(e.claim_kind, e.derivation) for e in forbidden] == [(ClaimKind.SKILL, Derivation.DIRECT)]


def test_the_training_conversation_expects_its_eleven_memories(development: Corpus) -> None:
    [core] = [c for c in development.cases if c.scenario is CoreScenario.TRAINING_CONVERSATION]
    assert len(core.owner_turns) == 3 and core.is_multi_turn
    must = [e for e in core.expectations if e.label is Label.MUST_FORM]
    assert len(must) == 11
    assert {e.subject for e in must} >= {
        "swimming",
        "running",
        "biking",
        "5x5 routine",
        "training improvement",
    }


def test_holdout_has_its_own_coverage_and_shares_nothing_with_development(
    development: Corpus, holdout: Corpus
) -> None:
    _assert_common_coverage(holdout, 30)
    _assert_expectations_well_formed(holdout)
    assert all(c.scenario is None for c in holdout.cases)
    assert not {c.id for c in holdout.cases} & {c.id for c in development.cases}
    holdout_turns = {e.text for c in holdout.cases for e in c.owner_turns}
    assert not holdout_turns & {e.text for c in development.cases for e in c.owner_turns}


def test_holdout_digest_is_recorded_beside_it_in_sha256sum_form() -> None:
    directory = capability_dir()
    content = directory.joinpath(HOLDOUT_V3_FILE).read_bytes()
    recorded = directory.joinpath(HOLDOUT_V3_DIGEST_FILE).read_text(encoding="utf-8")
    assert recorded == f"{hashlib.sha256(content).hexdigest()}  {HOLDOUT_V3_FILE}\n"


def test_corpora_ship_as_package_data() -> None:
    assert "evals.capability" in find_packages(ROOT, include=["evals*"])
    with (ROOT / "pyproject.toml").open("rb") as handle:
        globs = tomllib.load(handle)["tool"]["setuptools"]["package-data"]["*"]
    for name in (CORPUS_V3_FILE, HOLDOUT_V3_FILE, HOLDOUT_V3_DIGEST_FILE, FORMATION_CORPUS_FILE):
        assert any(fnmatch(name, glob) for glob in globs), name
        assert capability_dir().joinpath(name).is_file(), name


# --- the loader refuses a broken corpus ------------------------------------------------------------


def test_a_tampered_holdout_is_refused_naming_the_file_and_both_digests(tmp_path: Path) -> None:
    root = copy_corpora(tmp_path)
    recorded = (root / HOLDOUT_V3_DIGEST_FILE).read_text(encoding="utf-8").split()[0]
    edit(root, HOLDOUT_V3_FILE, lambda d: d["cases"][0].update(title="Retitled after the freeze"))
    actual = hashlib.sha256((root / HOLDOUT_V3_FILE).read_bytes()).hexdigest()
    with pytest.raises(CorpusError) as refused:
        load_holdout(root)
    assert HOLDOUT_V3_FILE in str(refused.value)
    assert recorded in str(refused.value) and actual in str(refused.value)


def test_a_refrozen_holdout_loads_and_still_meets_its_rules(tmp_path: Path) -> None:
    root = copy_corpora(tmp_path)
    edit(root, HOLDOUT_V3_FILE, lambda d: d["cases"][0].update(title="Retitled and re-frozen"))
    refreeze_holdout(root)
    assert load_holdout(root).cases[0].title == "Retitled and re-frozen"

    edit(root, HOLDOUT_V3_FILE, lambda d: d.update(cases=d["cases"][:29]))
    refreeze_holdout(root)
    with pytest.raises(CorpusError, match="fewer than 30 cases"):
        load_holdout(root)


def _drop_to_59(document: Document) -> None:
    document["cases"] = document["cases"][:59]


def _mostly_negative(document: Document) -> None:
    negative = [c for c in document["cases"] if c["label"] == Label.MUST_NOT_FORM]
    positive = [c for c in document["cases"] if c["label"] != Label.MUST_NOT_FORM]
    document["cases"] = positive[: len(negative) * 2] + negative


def _without_scenario(scenario: CoreScenario) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        for c in document["cases"]:
            if c.get("scenario") == scenario:
                del c["scenario"]

    return change


def _without_kind(kind: ClaimKind) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        document["cases"] = [
            c for c in document["cases"] if all(e["claim_kind"] != kind for e in c["expectations"])
        ]

    return change


def _without_coverage(tag: Coverage) -> Callable[[Document], None]:
    def change(document: Document) -> None:
        for c in document["cases"]:
            c["covers"] = [t for t in c.get("covers", []) if t != tag]

    return change


def _only_19_multi_turn(document: Document) -> None:
    multi = [c for c in document["cases"] if Case.model_validate(c).is_multi_turn]
    document["cases"] = [c for c in document["cases"] if c not in multi[19:]]


def _training_loses_a_memory(document: Document) -> None:
    training = case(document, "dev-core-training-conversation")
    training["expectations"] = training["expectations"][1:]


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        (_drop_to_59, "fewer than 60 cases"),
        (_mostly_negative, "70% of cases are positive"),
        (_without_scenario(CoreScenario.PERSONAL_AGENT), "core scenario personal_agent"),
        (_without_scenario(CoreScenario.TRAINING_CONVERSATION), "core scenario training_conversation"),
        (_without_kind(ClaimKind.INTEREST), "kind interest"),
        (_without_coverage(Coverage.SELF_CITATION), "covers self_citation"),
        (_training_loses_a_memory, "11 supported memories"),
        (_only_19_multi_turn, "fewer than 20 multi-turn conversations"),
    ],
)
def test_development_loader_refuses_a_corpus_that_breaks_a_rule(
    tmp_path: Path, change: Callable[[Document], None], rule: str
) -> None:
    root = copy_corpora(tmp_path)
    edit(root, CORPUS_V3_FILE, change)
    with pytest.raises(CorpusError, match=rule):
        load_development(root)


# --- one case's rules: the models refuse, and say where without quoting the conversation ------------

PERSONAL_AGENT = "dev-core-personal-agent"


def _personal_agent_expectation(document: Document, index: int) -> Document:
    expectation: Document = case(document, PERSONAL_AGENT)["expectations"][index]
    return expectation


def _duplicate_id(document: Document) -> None:
    document["cases"][1]["id"] = document["cases"][0]["id"]


def _user_subject(document: Document) -> None:
    _personal_agent_expectation(document, 0)["subject"] = "the user"


def _inexact_evidence(document: Document) -> None:
    _personal_agent_expectation(document, 0)["evidence"][0]["text"] = "I am building a personal agent"


def _hypothesis_with_compatible_kinds(document: Document) -> None:
    _personal_agent_expectation(document, 1)["compatible_kinds"] = ["role"]


def _compatible_kind_off_the_table(document: Document) -> None:
    _personal_agent_expectation(document, 0)["compatible_kinds"] = ["relationship"]


def _four_compatible_kinds(document: Document) -> None:
    _personal_agent_expectation(document, 0)["compatible_kinds"] = ["project_fact", "goal", "skill", "role"]


def _evidence_from_the_assistant(document: Document) -> None:
    marathon = case(document, "dev-not-assistant-diagnosis")
    marathon["label"] = "must_form"
    marathon["expectations"][0]["label"] = "must_form"


def _certain_hypothesis(document: Document) -> None:
    _personal_agent_expectation(document, 1)["statements"] = ["User has software-development experience."]


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        (_duplicate_id, "duplicate case identifier"),
        (_user_subject, "never the user"),
        (_inexact_evidence, "not exact text of seq 1"),
        (_hypothesis_with_compatible_kinds, "a hypothesis declares no compatible kinds"),
        (_compatible_kind_off_the_table, "claim-shape table"),
        (_four_compatible_kinds, "at most 3 items"),
        (_evidence_from_the_assistant, "not the owner's assertion"),
        (_certain_hypothesis, "uncertainty language"),
    ],
)
def test_development_loader_refuses_a_case_that_breaks_a_rule(
    tmp_path: Path, change: Callable[[Document], None], rule: str
) -> None:
    root = copy_corpora(tmp_path)
    edit(root, CORPUS_V3_FILE, change)
    with pytest.raises(CorpusError, match=rule) as refused:
        load_development(root)
    assert CORPUS_V3_FILE in str(refused.value)
    assert "personal AI agent" not in str(refused.value) and "Raynaud" not in str(refused.value)
