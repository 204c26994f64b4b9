"""`agent eval memory-formation`: formation@8/@10 through the real extract activity on the formation corpus.

The publishing run replays recorded extraction answers that are the gold (tests/gold_answers.py) priced as
the balanced memory model, so the one-call path, the merge with the deterministic fallback and the real
commit run end to end without a network. Its set leaves out the cases whose gold the current runtime does
not keep whole; those are measured findings (docs/evaluation/formation-evidence.md), not publication rules:
- the fallback's wording of a claim is richer and wins the merge under its own kind and key (nurse
  shifts, house extension, husband's course);
- "I stopped eating meat" makes the whole comma-spliced utterance a correction, so the extractor rejects
  both memories it grounds (vegetarian recipes);
- the fallback adds claims the labels do not name, some garbled ("'res"), which cost precision.
The artifact the command writes must then activate formation@10 through the pure selection function,
against the corpus digests this tree ships.
"""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adapters.cli.main import app
from adapters.evidence import read_artifacts, shipped_corpora
from adapters.providers.policy_documents import load_memory_model, shipped_policy_version
from domain.policy.activation import (
    FormationMode,
    Release,
    RunningComposition,
    SelectionReason,
    select_formation_policy,
)
from domain.policy.evidence import FormationPolicyEvidence, parse_artifact
from domain.policy.versions import DISTILLATION_SCORER, FORMATION_10
from domain.telemetry import Stage
from evals.corpus import Corpus
from evals.evaluation import formation_set
from evals.recorded import RecordedAnswers
from evals.runner import FORMATION, EvalSet
from tests.gold_answers import gold_answers

BUILD_REF = "0123456789abcdef0123456789abcdef01234567"
# Cases whose gold answers the runtime does not keep whole (module docstring).
RUNTIME_FINDINGS = frozenset(
    {
        "f10-personal-agent",
        "f10-training",
        "f10-nurse",
        "f10-house-extension",
        "f10-goal-driving",
        "f10-role-scout-leader",
        "f10-habit-walks",
        "f10-constraint-night",
        "f10-preference-metric",
        "f10-recurring-insomnia",
        "f10-goal-savings",
        "f10-preference-vegetarian-recipes",
        "f10-family-activity",
    }
)


def _kept() -> EvalSet:
    """The shipped corpus less the findings, bound to the shipped digest as the command binds it."""
    shipped = formation_set()
    corpus = shipped.corpus
    cases = tuple(c for c in corpus.cases if c.id not in RUNTIME_FINDINGS)
    kept = Corpus(name=corpus.name, description=corpus.description, seed_pools=corpus.seed_pools, cases=cases)
    return EvalSet(FORMATION, kept, shipped.digest)


@pytest.fixture
def live(monkeypatch: pytest.MonkeyPatch) -> EvalSet:
    """The live flag, a build ref the test names, and the kept set in place of the shipped one."""
    kept = _kept()
    monkeypatch.setenv("RUN_LIVE_MODEL_TESTS", "1")
    monkeypatch.setattr("adapters.cli.eval_runs.resolve_build_ref", lambda given: BUILD_REF)
    monkeypatch.setattr("adapters.cli.eval_runs.formation_set", lambda: kept)
    return kept


def _recording(path: Path, answers: RecordedAnswers) -> Path:
    path.write_text(answers.model_dump_json(), encoding="utf-8")
    return path


def _invoke(recording: Path, output: Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        app,
        [
            "eval",
            "memory-formation",
            "--formation-policy",
            FORMATION_10,
            "--recorded-answers",
            str(recording),
            "--output",
            str(output),
            "--json",
        ],
    )
    return result.exit_code, result.stdout, result.stderr


def test_a_passing_formation10_run_publishes_once_and_its_artifact_activates(
    live: EvalSet, tmp_path: Path
) -> None:
    recording = _recording(tmp_path / "answers.json", gold_answers(live.corpus))
    output = tmp_path / "out" / "memory-formation.json"
    output.parent.mkdir()

    code, stdout, stderr = _invoke(recording, output)

    assert code == 0, stderr
    summary = json.loads(stdout)
    assert [g for g in summary["gates"] if not g["passed"]] == []
    artifact = parse_artifact(output.read_bytes())
    assert isinstance(artifact, FormationPolicyEvidence)
    model = load_memory_model("balanced")
    assert (artifact.formation_policy_version, artifact.extractor_version) == (
        FORMATION_10,
        "provider-assisted-v3",
    )
    assert (artifact.provider, artifact.model, artifact.model_policy) == (
        model.provider,
        model.model,
        "balanced",
    )
    assert (artifact.scorer_version, artifact.build_ref, artifact.repeats) == (
        DISTILLATION_SCORER,
        BUILD_REF,
        1,
    )
    assert artifact.corpus_digest == shipped_corpora().formation_corpus_digest
    assert artifact.case_count == len(live.corpus.cases)
    assert artifact.seeded_case_count == sum(c.seed_pool is not None for c in live.corpus.cases) > 0
    (run,) = artifact.runs
    assert run.provider_calls == artifact.provider_call_total == artifact.consolidation_total
    assert run.skipped_calls == 0 and run.boundary_failures == 0
    assert 0 < artifact.cost_usd < 10

    running = RunningComposition(
        model_policy="balanced",
        provider=model.provider,
        model=model.model,
        policy_profile="default",
        compiled_policy_version=shipped_policy_version(),
        reasoning_effort=None,
    )
    decision = select_formation_policy(
        running=running,
        artifacts=read_artifacts(output.parent)[0],
        corpora=shipped_corpora(),
        mode=FormationMode.REQUIRED,
        pin=FORMATION_10,
        release=Release(commit=BUILD_REF, production=True),
    )
    assert (decision.policy, decision.reason, decision.artifact) == (
        FORMATION_10,
        SelectionReason.EVIDENCED,
        output.name,
    )

    published = output.read_bytes()
    code, _, stderr = _invoke(recording, output)
    assert code == 3 and "never overwritten" in stderr
    assert output.read_bytes() == published


def test_a_failing_run_prints_its_numbers_and_creates_nothing(live: EvalSet, tmp_path: Path) -> None:
    """A model that extracts nothing: the fallback alone forms, recall misses, nothing is published."""
    answers = gold_answers(live.corpus)
    for stages in answers.cases.values():
        stages[Stage.EXTRACTION] = [{"memories": []} for _ in stages[Stage.EXTRACTION]]
    recording = _recording(tmp_path / "answers.json", answers)
    output = tmp_path / "memory-formation.json"

    code, stdout, stderr = _invoke(recording, output)

    assert code == 1 and "nothing published" in stderr
    summary = json.loads(stdout)
    assert "direct_must_form_recall" in {g["gate"] for g in summary["gates"] if not g["passed"]}
    assert summary["sets"][FORMATION][FORMATION_10]["provider_calls"] > 0
    assert summary["published"] is None and not output.exists()


def test_a_live_run_refuses_without_an_output_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUN_LIVE_MODEL_TESTS", "1")
    result = CliRunner().invoke(app, ["eval", "memory-formation", "--formation-policy", FORMATION_10])

    assert result.exit_code == 3
    assert "needs --output" in result.stderr


def test_offline_scores_the_fallback_through_the_extract_path_and_publishes_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("RUN_LIVE_MODEL_TESTS", raising=False)
    output = tmp_path / "memory-formation.json"
    result = CliRunner().invoke(
        app,
        ["eval", "memory-formation", "--formation-policy", FORMATION_10, "--json", "--output", str(output)],
    )

    assert result.exit_code == 0, result.output
    assert "skip: RUN_LIVE_MODEL_TESTS=1 is not set" in result.stderr
    summary = json.loads(result.stdout)
    fallback = summary["sets"][FORMATION][FORMATION_10]
    assert fallback["provider_calls"] == 0 and fallback["consolidations"] == 25
    assert fallback["seeded_cases"] == 23
    assert {g["gate"] for g in summary["gates"]} >= {
        "direct_must_form_recall",
        "precision",
        "populated_store",
    }
    assert summary["published"] is None and not output.exists()
