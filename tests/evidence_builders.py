"""Valid evidence artifacts for tests, as plain dicts (so a test can break one field) and as models."""

from typing import Any

from domain.policy.activation import (
    UNRELEASED,
    ArtifactSource,
    FormationMode,
    FoundArtifact,
    RunningComposition,
    ShippedCorpora,
    select_formation_policy,
)
from domain.policy.alternatives import AlternativeEvidence
from domain.policy.evidence import FormationPolicyEvidence, MemoryDistillationEvidence
from domain.policy.versions import DISTILLATION_SCORER, EXTRACTOR_BY_FORMATION, FORMATION_9

BUILD_REF = "0123456789abcdef0123456789abcdef01234567"
CORPUS_DIGEST = "sha256:" + "a" * 64
HOLDOUT_DIGEST = "sha256:" + "b" * 64
FORMATION_CORPUS_DIGEST = "sha256:" + "c" * 64
POLICY_VERSION = "sha256:" + "d" * 64

# The running composition every builder's artifact was evaluated on, and the corpora it ships.
RUNNING = RunningComposition(
    model_policy="balanced",
    provider="openai",
    model="gpt-5.6-sol",
    policy_profile="default",
    compiled_policy_version=POLICY_VERSION,
    reasoning_effort=None,
)
CORPORA = ShippedCorpora(
    corpus_digest=CORPUS_DIGEST,
    holdout_digest=HOLDOUT_DIGEST,
    formation_corpus_digest=FORMATION_CORPUS_DIGEST,
)


def _arm(policy: str) -> dict[str, Any]:
    segments = 70
    return {
        "formation_policy_version": policy,
        "direct_must_form_recall": 0.97,
        "hypothesis_must_form_recall": 0.85,
        "useful_recall": 0.9 if policy == FORMATION_9 else 0.5,
        "precision": 0.93,
        "evidence_disposition_share": 0.8,
        "represented_seeded_clauses": 3,
        "corrections_per_hundred": 2.0,
        "boundary_failures": 0,
        "consolidations": 66,
        "segments": segments,
        "provider_calls": 3 * segments if policy == FORMATION_9 else 66,
        "cost_usd": 1.5,
    }


def _set() -> dict[str, Any]:
    return {
        "arms": [_arm(p) for p in ("formation@7", "formation@8", "formation@9")],
        "useful_lift": 0.4,
        "claim_kinds_covered": 12,
    }


def distillation_dict(**overrides: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "artifact": "memory-distillation",
        "schema_version": 8,
        "extractor_version": EXTRACTOR_BY_FORMATION[FORMATION_9],
        "formation_policy_version": FORMATION_9,
        "model_policy": "balanced",
        "provider": "openai",
        "model": "gpt-5.6-sol",
        "policy_profile": "default",
        "compiled_policy_version": POLICY_VERSION,
        "reasoning_effort": None,
        "scorer_version": DISTILLATION_SCORER,
        "build_ref": BUILD_REF,
        "corpus_digest": CORPUS_DIGEST,
        "holdout_digest": HOLDOUT_DIGEST,
        "repeats": 1,
        "runs": [{"index": 0, "development": _set(), "holdout": _set()}],
        "seeded_case_count": 4,
        "provider_call_total": 210,
        "consolidation_total": 66,
        "cost_usd": 3.0,
        "created_at": "2026-09-20T10:00:00Z",
    }
    document.update(overrides)
    return document


def formation_dict(policy: str = "formation@10", **overrides: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "artifact": "memory-formation",
        "schema_version": 1,
        "extractor_version": EXTRACTOR_BY_FORMATION[policy],
        "formation_policy_version": policy,
        "model_policy": "balanced",
        "provider": "openai",
        "model": "gpt-5.6-sol",
        "policy_profile": "default",
        "compiled_policy_version": POLICY_VERSION,
        "scorer_version": DISTILLATION_SCORER,
        "build_ref": BUILD_REF,
        "corpus_digest": FORMATION_CORPUS_DIGEST,
        "repeats": 1,
        "case_count": 25,
        "runs": [
            {
                "index": 0,
                "recall": 0.8,
                "precision": 0.9,
                "boundary_failures": 0,
                "consolidations": 25,
                "provider_calls": 25,
                "skipped_calls": 0,
                "cost_usd": 0.4,
            }
        ],
        "seeded_case_count": 21,
        "provider_call_total": 25,
        "consolidation_total": 25,
        "cost_usd": 0.4,
        "created_at": "2026-09-20T10:00:00Z",
    }
    document.update(overrides)
    return document


def distillation(**overrides: Any) -> MemoryDistillationEvidence:
    return MemoryDistillationEvidence.model_validate(distillation_dict(**overrides))


def formation(policy: str = "formation@10", **overrides: Any) -> FormationPolicyEvidence:
    return FormationPolicyEvidence.model_validate(formation_dict(policy, **overrides))


# Sol at the provider default (the configured tuple) and an alternative evaluated exactly on this tree.
SOL = FoundArtifact(name="sol.json", source=ArtifactSource.BUNDLED, evidence=distillation())
ASTRA_MEDIUM = FoundArtifact(
    name="sonnet-medium.json",
    source=ArtifactSource.BUNDLED,
    evidence=distillation(
        model_policy="anthropic", provider="anthropic", model="claude-sonnet-5", reasoning_effort="medium"
    ),
)


def alternative_evidence(*artifacts: FoundArtifact) -> AlternativeEvidence:
    """What an owner's tuple choice is judged against when the tree ships these artifacts (ADR-0119),
    on RUNNING with the shipped memory-model profiles."""
    from adapters.providers.policy_documents import load_memory_model_policy

    activation = select_formation_policy(
        running=RUNNING, artifacts=artifacts, corpora=CORPORA, mode=FormationMode.AUTO
    )
    return AlternativeEvidence(
        activation=activation,
        configured=RUNNING,
        profiles=load_memory_model_policy().profiles,
        artifacts=artifacts,
        corpora=CORPORA,
        release=UNRELEASED,
    )
