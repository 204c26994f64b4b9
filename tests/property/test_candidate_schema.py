"""gate.memory.candidate_schema: the candidate language is closed and complete at construction."""

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from domain.candidates import (
    ALLOWED_LONGEVITY,
    CandidateOrigin,
    ClaimKind,
    Derivation,
    Longevity,
    MemoryCandidate,
    Polarity,
)

KINDS = [k.value for k in ClaimKind]
DERIVATIONS = [d.value for d in Derivation]
LONGEVITIES = [lv.value for lv in Longevity]
POLARITIES = [p.value for p in Polarity]


def _fields(
    kind: str, derivation: str, longevity: str, polarity: str, spans: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "subject": "project:personal-ai-agent",
        "statement": "User is building a personal AI agent.",
        "claim_kind": kind,
        "derivation": derivation,
        "longevity": longevity,
        "polarity": polarity,
        "source_event_ids": (1,),
        "evidence_spans": spans,
        "origin": CandidateOrigin.PROVIDER,
    }


def _expected_valid(derivation: str, longevity: str, polarity: str, spans: list[dict[str, Any]]) -> bool:
    closed = derivation in DERIVATIONS and longevity in LONGEVITIES and polarity in POLARITIES
    if not closed:
        return False
    combination = Longevity(longevity) in ALLOWED_LONGEVITY[Derivation(derivation)]
    retraction_ok = not (polarity == "retract" and derivation == "hypothesis")
    one_exact_span = len(spans) == 1 and spans[0]["seq"] == 1 and bool(spans[0]["text"].strip())
    return combination and retraction_ok and one_exact_span


span_text = st.sampled_from(["building a personal AI agent", "", "   ", "I am building"])
spans = st.lists(st.fixed_dictionaries({"seq": st.sampled_from([1, 2]), "text": span_text}), max_size=2)


@given(
    kind=st.sampled_from(KINDS),
    derivation=st.sampled_from([*DERIVATIONS, "guess"]),
    longevity=st.sampled_from([*LONGEVITIES, "forever"]),
    polarity=st.sampled_from([*POLARITIES, "maybe"]),
    spans=spans,
)
def test_gate_memory_candidate_schema_every_combination_validates_or_fails_at_construction(
    kind: str, derivation: str, longevity: str, polarity: str, spans: list[dict[str, Any]]
) -> None:
    fields = _fields(kind, derivation, longevity, polarity, spans)
    if _expected_valid(derivation, longevity, polarity, spans):
        candidate = MemoryCandidate.model_validate(fields)
        assert candidate.claim_kind == ClaimKind(kind)
    else:
        with pytest.raises(ValidationError):
            MemoryCandidate.model_validate(fields)


@pytest.mark.parametrize("kind", ["hobby", "occupation", "", "ONGOING_PROJECT"])
def test_gate_memory_candidate_schema_unknown_claim_kind_is_refused(kind: str) -> None:
    with pytest.raises(ValidationError, match="claim_kind"):
        MemoryCandidate.model_validate(
            _fields(kind, "direct", "ongoing", "assert", [{"seq": 1, "text": "x"}])
        )


@pytest.mark.parametrize("subject", ["user", "User", " the user ", "me"])
def test_gate_memory_candidate_schema_generic_user_subject_is_refused(subject: str) -> None:
    fields = _fields("goal", "direct", "ongoing", "assert", [{"seq": 1, "text": "x"}])
    with pytest.raises(ValidationError, match="specific conflict key"):
        MemoryCandidate.model_validate({**fields, "subject": subject})
