"""Every bundled evidence artifact is bound to the tree that ships it (ADR-0086 decision 5).

Its policy version is the compiled policy version of the shipped documents, its digests are the shipped
corpora's, its scorer is the current one, its build ref is an ancestor of HEAD, and no two artifacts share
one eight-field tuple. A mismatch fails naming the file, both values and the remedy: a change to the
policy documents regenerates the evidence on that tree, or withdraws the artifact and records the
interregnum in project state, instead of merging and silently forming deterministically in production.
"""

import subprocess
from collections import Counter
from importlib.resources.abc import Traversable
from pathlib import Path

from adapters.evidence import bundled_artifact_files, shipped_corpora
from adapters.providers.policy_documents import shipped_policy_version
from domain.policy.activation import ShippedCorpora
from domain.policy.evidence import FormationPolicyEvidence, MemoryDistillationEvidence, parse_artifact
from domain.policy.versions import DISTILLATION_SCORER
from tests.evidence_builders import BUILD_REF, CORPORA, POLICY_VERSION, distillation

ROOT = Path(__file__).resolve().parents[2]
REMEDY = (
    "regenerate the artifact on this tree (agent eval memory-distillation / memory-formation) "
    "or withdraw it and record the interregnum in project state"
)
Evidence = MemoryDistillationEvidence | FormationPolicyEvidence


def is_ancestor_of_head(commit: str) -> bool:
    done = subprocess.run(
        ["git", "-C", str(ROOT), "merge-base", "--is-ancestor", commit, "HEAD"],
        capture_output=True,
        check=False,
    )
    return done.returncode == 0


def bundle_problems(
    name: str, evidence: Evidence, *, policy_version: str, corpora: ShippedCorpora, ancestor: bool
) -> list[str]:
    """What binds the artifact to another tree, one sentence each, naming the file, both values, remedy."""
    expected: list[tuple[str, str, str | None]] = [
        ("compiled_policy_version", evidence.compiled_policy_version, policy_version),
        ("scorer_version", evidence.scorer_version, DISTILLATION_SCORER),
    ]
    if isinstance(evidence, MemoryDistillationEvidence):
        expected += [
            ("corpus_digest", evidence.corpus_digest, corpora.corpus_digest),
            ("holdout_digest", evidence.holdout_digest, corpora.holdout_digest),
        ]
    else:
        expected.append(("corpus_digest", evidence.corpus_digest, corpora.formation_corpus_digest))
    problems = [
        f"{name}: {field} is {recorded}, the tree ships {shipped or 'nothing'}; {REMEDY}"
        for field, recorded, shipped in expected
        if recorded != shipped
    ]
    if not ancestor:
        problems.append(f"{name}: build_ref {evidence.build_ref} is not an ancestor of HEAD; {REMEDY}")
    return problems


BUNDLED: list[Traversable] = bundled_artifact_files()


def test_every_bundled_artifact_is_bound_to_this_tree() -> None:
    """One test over the whole bundle (not one per file), so an empty bundle passes as a fact, not a skip."""
    problems: list[str] = []
    for entry in BUNDLED:
        evidence = parse_artifact(entry.read_bytes())
        problems += bundle_problems(
            entry.name,
            evidence,
            policy_version=shipped_policy_version(),
            corpora=shipped_corpora(),
            ancestor=is_ancestor_of_head(evidence.build_ref),
        )
    assert not problems, "\n".join(problems)


def test_no_two_bundled_artifacts_share_a_tuple() -> None:
    tuples = Counter(parse_artifact(entry.read_bytes()).evidence_tuple for entry in BUNDLED)
    assert all(count == 1 for count in tuples.values()), "two bundled artifacts evaluate one tuple"


def test_a_mismatch_names_the_file_both_values_and_the_remedy() -> None:
    """The check itself: an artifact from another tree fails on every binding, each said in full."""
    stale = distillation(compiled_policy_version="sha256:" + "9" * 64, scorer_version="distillation-scorer@6")
    problems = bundle_problems(
        "memory-distillation.json",
        stale,
        policy_version=POLICY_VERSION,
        corpora=CORPORA.model_copy(update={"holdout_digest": None}),
        ancestor=False,
    )
    assert len(problems) == 4
    assert problems[0] == (
        f"memory-distillation.json: compiled_policy_version is sha256:{'9' * 64}, the tree ships "
        f"{POLICY_VERSION}; {REMEDY}"
    )
    assert "distillation-scorer@6" in problems[1] and DISTILLATION_SCORER in problems[1]
    assert "holdout_digest" in problems[2] and "the tree ships nothing" in problems[2]
    assert BUILD_REF in problems[3]
    assert (
        bundle_problems(
            "memory-distillation.json",
            distillation(),
            policy_version=POLICY_VERSION,
            corpora=CORPORA,
            ancestor=True,
        )
        == []
    )
