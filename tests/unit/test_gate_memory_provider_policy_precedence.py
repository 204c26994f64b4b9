"""gate.memory.provider_policy_precedence: with every artifact present formation@9 activates; without it
formation@10 outranks formation@8; a pin holds any one of the three; a pin to an unevidenced policy falls
back deterministically with a content-free pinned_policy_unevidenced audit rather than activating another.

Watched failing on purpose, undone after: with AUTO_ORDER (domain/policy/activation.py) ranking formation@8
above formation@10, the formation@10-outranks-formation@8 test failed.
"""

import json

import pytest

from domain.policy.activation import (
    ActivationDecision,
    ArtifactSource,
    FormationMode,
    FoundArtifact,
    SelectionReason,
    select_formation_policy,
)
from domain.policy.versions import FORMATION_8, FORMATION_9, FORMATION_10
from tests.evidence_builders import CORPORA, RUNNING, distillation, formation

ALL = {
    FORMATION_9: FoundArtifact(
        name="memory-distillation.json", source=ArtifactSource.BUNDLED, evidence=distillation()
    ),
    FORMATION_10: FoundArtifact(
        name="memory-formation-formation10.json",
        source=ArtifactSource.BUNDLED,
        evidence=formation(FORMATION_10),
    ),
    FORMATION_8: FoundArtifact(
        name="memory-formation-formation8.json",
        source=ArtifactSource.BUNDLED,
        evidence=formation(FORMATION_8),
    ),
}


def decide(
    policies: set[str], *, pin: str | None = None, mode: FormationMode = FormationMode.AUTO
) -> ActivationDecision:
    artifacts = tuple(ALL[p] for p in (FORMATION_8, FORMATION_10, FORMATION_9) if p in policies)
    return select_formation_policy(running=RUNNING, artifacts=artifacts, corpora=CORPORA, mode=mode, pin=pin)


def test_gate_memory_provider_policy_precedence_every_artifact_activates_formation9() -> None:
    decision = decide(set(ALL))
    assert decision.policy == FORMATION_9 and decision.label == FORMATION_9
    assert decision.audit_details()["chosen_policy"] == FORMATION_9


def test_gate_memory_provider_policy_precedence_formation10_outranks_formation8() -> None:
    assert decide({FORMATION_10, FORMATION_8}).policy == FORMATION_10
    assert decide({FORMATION_8}).policy == FORMATION_8
    assert decide({FORMATION_10}).policy == FORMATION_10


@pytest.mark.parametrize("pin", [FORMATION_8, FORMATION_9, FORMATION_10])
@pytest.mark.parametrize("mode", [FormationMode.AUTO, FormationMode.REQUIRED])
def test_gate_memory_provider_policy_precedence_a_pin_holds_any_one(pin: str, mode: FormationMode) -> None:
    decision = decide(set(ALL), pin=pin, mode=mode)
    assert decision.policy == pin and not decision.refused
    assert decision.running.formation_policy_version == pin
    assert decision.audit_details()["pin"] == pin


@pytest.mark.parametrize("pin", [FORMATION_8, FORMATION_9, FORMATION_10])
def test_gate_memory_provider_policy_precedence_unevidenced_pin_falls_back_deterministically(
    pin: str,
) -> None:
    others = set(ALL) - {pin}
    decision = decide(others, pin=pin)
    assert decision.policy is None and decision.label == "deterministic"
    assert decision.reason is SelectionReason.PINNED_POLICY_UNEVIDENCED
    assert decision.formation_policy == FORMATION_9  # its pipeline, every stage falling back
    audit = decision.audit_details()
    assert audit["reason"] == "pinned_policy_unevidenced" and audit["chosen_policy"] == "deterministic"
    # Content-free: versions, names and codes only, and small.
    assert all(value is None or isinstance(value, str | bool) for value in audit.values())
    assert len(json.dumps(audit)) < 1_000

    refused = decide(others, pin=pin, mode=FormationMode.REQUIRED)
    assert refused.refused and f"no {pin} artifact found" in refused.explanation()


def test_off_activates_nothing_whatever_is_present() -> None:
    decision = decide(set(ALL), mode=FormationMode.OFF)
    assert decision.policy is None and decision.reason is SelectionReason.MODE_OFF and not decision.refused


def test_a_matching_artifact_without_the_api_key_forms_deterministically() -> None:
    artifacts = tuple(ALL.values())
    decision = select_formation_policy(
        running=RUNNING,
        artifacts=artifacts,
        corpora=CORPORA,
        mode=FormationMode.AUTO,
        provider_configured=False,
    )
    assert decision.policy is None and decision.reason is SelectionReason.PROVIDER_NOT_CONFIGURED
