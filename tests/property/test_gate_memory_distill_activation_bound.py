"""gate.memory.distill_activation_bound: over generated tuple differences, a provider policy activates only
for the exact artifact tuple; auto otherwise keeps the evidenced older policy and required refuses.

Watched failing on purpose, undone after: with EvidenceTuple.differences (domain/policy/evidence.py) skipping
extractor_version, the exact-tuple property failed.
"""

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.policy.activation import (
    ArtifactSource,
    FormationMode,
    FoundArtifact,
    Refusal,
    Release,
    RunningComposition,
    SelectionReason,
    ShippedCorpora,
    select_formation_policy,
)
from domain.policy.evidence import TUPLE_FIELDS, FormationPolicyEvidence, MemoryDistillationEvidence
from domain.policy.versions import FORMATION_9, FORMATION_10
from tests.evidence_builders import BUILD_REF, CORPORA, RUNNING, distillation_dict, formation_dict

# A changed value per field. The extractor is changed without validation (model_copy): the schema already
# refuses an artifact whose extractor is not its policy's, and the selection must refuse it on its own too.
CHANGED: dict[str, Any] = {
    "extractor_version": "provider-assisted-v3",
    "model_policy": "flagship",
    "provider": "anthropic",
    "model": "gpt-5.6-astra",
    "policy_profile": "people",
    "compiled_policy_version": "sha256:" + "e" * 64,
    "reasoning_effort": "medium",
}


def candidate(differing: frozenset[str]) -> FoundArtifact:
    """The formation@9 artifact, differing from the running tuple in exactly these fields."""
    evidence = MemoryDistillationEvidence.model_validate(distillation_dict())
    evidence = evidence.model_copy(update={field: CHANGED[field] for field in differing})
    return FoundArtifact.model_construct(
        name="formation9.json", source=ArtifactSource.BUNDLED, evidence=evidence
    )


def decide(
    artifacts: tuple[FoundArtifact, ...], mode: FormationMode, running: RunningComposition = RUNNING
) -> Any:
    return select_formation_policy(running=running, artifacts=artifacts, corpora=CORPORA, mode=mode)


# formation_policy_version is the slot an artifact stands for: the last test shows it never fills another.
differing_fields = st.frozensets(st.sampled_from(sorted(CHANGED)))


@settings(max_examples=200, deadline=None)
@given(differing=differing_fields, mode=st.sampled_from([FormationMode.AUTO, FormationMode.REQUIRED]))
def test_gate_memory_distill_activation_bound_formation9_only_on_the_exact_tuple(
    differing: frozenset[str], mode: FormationMode
) -> None:
    decision = decide((candidate(differing),), mode)
    if not differing:
        assert decision.policy == FORMATION_9 and decision.reason is SelectionReason.EVIDENCED
        assert not decision.refused
        return
    assert decision.policy is None
    [verdict] = decision.verdicts
    assert verdict.refusal is Refusal.TUPLE_MISMATCH
    assert set(verdict.fields) == differing
    assert decision.refused is (mode is FormationMode.REQUIRED)
    if decision.refused:
        # required names every mismatched field
        assert all(field in decision.explanation() for field in differing)


@settings(max_examples=200, deadline=None)
@given(differing=differing_fields.filter(bool))
def test_gate_memory_distill_activation_bound_auto_keeps_the_evidenced_older_policy(
    differing: frozenset[str],
) -> None:
    older = FoundArtifact(
        name="formation10.json",
        source=ArtifactSource.BUNDLED,
        evidence=FormationPolicyEvidence.model_validate(formation_dict(FORMATION_10)),
    )
    auto = decide((candidate(differing), older), FormationMode.AUTO)
    required = decide((candidate(differing), older), FormationMode.REQUIRED)
    assert auto.policy == FORMATION_10 and auto.artifact == "formation10.json"
    assert required.refused and required.policy is None


@settings(max_examples=200, deadline=None)
@given(
    field=st.sampled_from(TUPLE_FIELDS),
    policy=st.sampled_from(["formation@8", "formation@10"]),
)
def test_gate_memory_distill_activation_bound_every_field_of_the_running_tuple(
    field: str, policy: str
) -> None:
    """The running side differs in one field: the matching artifact no longer activates; and an artifact
    stands only for its own policy, so a formation@8 or @10 artifact never activates formation@9."""
    artifact = FoundArtifact(
        name="a.json",
        source=ArtifactSource.BUNDLED,
        evidence=FormationPolicyEvidence.model_validate(formation_dict(policy)),
    )
    if field in CHANGED and field != "extractor_version":
        running = RUNNING.model_copy(update={field: CHANGED[field]})
        decision = decide((artifact,), FormationMode.AUTO, running)
        assert decision.policy is None
        assert decision.verdicts[0].fields == (field,)
    else:
        # The running side's policy and extractor are the slot being judged: an artifact only ever
        # stands for its own policy, so it never activates another.
        decision = decide((artifact,), FormationMode.AUTO)
        assert decision.policy == policy
        assert decision.running.formation_policy_version == policy
        assert decision.running.extractor_version == artifact.evidence.extractor_version
        required = select_formation_policy(
            running=RUNNING, artifacts=(artifact,), corpora=CORPORA, mode=FormationMode.REQUIRED
        )
        assert required.refused and f"no {FORMATION_9} artifact found" in required.explanation()


@settings(max_examples=100, deadline=None)
@given(
    corpus=st.sampled_from(["corpus_digest", "holdout_digest"]),
    missing=st.booleans(),
    source=st.sampled_from(list(ArtifactSource)),
    production=st.booleans(),
    same_commit=st.booleans(),
)
def test_gate_memory_distill_activation_bound_digests_scorer_and_build_ref(
    corpus: str, missing: bool, source: ArtifactSource, production: bool, same_commit: bool
) -> None:
    found = candidate(frozenset()).model_copy(update={"source": source})
    release = Release(commit=BUILD_REF if same_commit else "f" * 40, production=production)
    shipped = CORPORA.model_copy(update={corpus: None if missing else "sha256:" + "0" * 64})
    decision = select_formation_policy(
        running=RUNNING, artifacts=(found,), corpora=shipped, mode=FormationMode.AUTO, release=release
    )
    assert decision.policy is None
    assert decision.verdicts[0].refusal is (
        Refusal.CORPUS_MISSING if missing else Refusal.CORPUS_DIGEST_MISMATCH
    )
    assert decision.verdicts[0].fields == (corpus,)

    exact = select_formation_policy(
        running=RUNNING, artifacts=(found,), corpora=CORPORA, mode=FormationMode.AUTO, release=release
    )
    if source is ArtifactSource.OPERATOR and production and not same_commit:
        assert exact.policy is None and exact.verdicts[0].refusal is Refusal.BUILD_REF_NOT_RELEASE
    else:
        assert exact.policy == FORMATION_9
        gap = source is ArtifactSource.OPERATOR and not same_commit
        assert exact.verdicts[0].build_ref_unverified is gap
        assert exact.audit_details()["build_ref_unverified"] is gap

    older_scorer = found.model_copy(
        update={"evidence": found.evidence.model_copy(update={"scorer_version": "distillation-scorer@6"})}
    )
    withdrawn = select_formation_policy(
        running=RUNNING, artifacts=(older_scorer,), corpora=CORPORA, mode=FormationMode.AUTO, release=release
    )
    assert withdrawn.policy is None and withdrawn.verdicts[0].refusal is Refusal.SCORER_WITHDRAWN


def test_a_tree_without_its_corpora_activates_nothing_and_says_why() -> None:
    empty = ShippedCorpora(corpus_digest=None, holdout_digest=None, formation_corpus_digest=None)
    decision = select_formation_policy(
        running=RUNNING, artifacts=(candidate(frozenset()),), corpora=empty, mode=FormationMode.AUTO
    )
    assert decision.policy is None and decision.reason is SelectionReason.CORPORA_MISSING
    assert "ships none of the evaluation corpora" in decision.explanation()
