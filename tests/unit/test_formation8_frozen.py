"""The formation@8 half of gate.memory.distill_versions_frozen: recorded requests and provider answers
reproduce their normalized outputs byte for byte.

Each case under tests/fixtures/formation8/ records the batch (the memory model, the planned segment, its
events and the owner's beliefs), the request formation@8 sends (or plans and skips), the provider's answer,
and the normalized output."""

import json
from pathlib import Path
from typing import Any

import pytest

from domain.beliefs.records import MemoryRecord
from domain.candidates import Sensitivity
from domain.events import SourceEvent
from domain.formation.extraction import ExtractionCall, ProviderAssistedExtractor, normalized_output
from domain.formation.segments import SegmentRef
from domain.policy.model_policy import MemoryModel
from domain.policy.versions import EXTRACTOR_BY_FORMATION, FORMATION_8, FORMATION_9
from domain.providers import ProviderResponse, ProviderUsage

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "formation8"
CASES = sorted(p.name.removesuffix(".input.json") for p in FIXTURES.glob("*.input.json"))


def _case(name: str) -> tuple[ProviderAssistedExtractor, SegmentRef, list[SourceEvent], ExtractionCall]:
    recorded: dict[str, Any] = json.loads((FIXTURES / f"{name}.input.json").read_text("utf-8"))
    extractor = ProviderAssistedExtractor(FORMATION_8, MemoryModel.model_validate(recorded["model"]))
    ref = SegmentRef.model_validate(recorded["segment"])
    events = [SourceEvent.model_validate(e) for e in recorded["events"]]
    beliefs = [MemoryRecord.model_validate(b) for b in recorded["beliefs"]]
    text = "\n".join(e.text for e in events if e.is_owner_assertion)
    return extractor, ref, events, extractor.plan(ref, events, extractor.view(beliefs, text))


def test_fixtures_exist() -> None:
    assert len(CASES) >= 3
    for name in CASES:
        assert (FIXTURES / f"{name}.request.json").exists()
        assert (FIXTURES / f"{name}.output.json").exists()


@pytest.mark.parametrize("name", CASES)
def test_gate_memory_distill_versions_frozen_formation8(name: str) -> None:
    extractor, ref, events, call = _case(name)
    assert call.request is not None
    request = json.dumps(call.request.model_dump(mode="json"), indent=2, sort_keys=True, ensure_ascii=False)
    assert (request + "\n").encode("utf-8") == (FIXTURES / f"{name}.request.json").read_bytes()

    answer_file = FIXTURES / f"{name}.answer.json"
    answer = (
        ProviderResponse(
            document=json.loads(answer_file.read_text("utf-8")),
            usage=ProviderUsage(),
            cost_usd=0.0,
            latency_ms=1,
            model="recorded",
        )
        if call.to_send is not None
        else None
    )
    produced = normalized_output(extractor, call, extractor.outcome(ref, events, call, answer))
    assert produced.encode("utf-8") == (FIXTURES / f"{name}.output.json").read_bytes()


def test_the_populated_store_case_starves_and_skips() -> None:
    """The recorded reason formation@10 exists: fifty recent beliefs leave formation@8 no output token."""
    _, _, _, call = _case("training_populated_store")
    assert call.skipped == "output_budget" and call.to_send is None


@pytest.mark.parametrize("name", CASES)
def test_no_sensitive_belief_leaves_in_a_recorded_request(name: str) -> None:
    recorded = json.loads((FIXTURES / f"{name}.input.json").read_text("utf-8"))
    sensitive = [
        b["statement"]
        for b in recorded["beliefs"]
        if b["sensitivity"] in (Sensitivity.SENSITIVE.value, Sensitivity.RESTRICTED.value)
    ]
    content = json.loads((FIXTURES / f"{name}.request.json").read_text("utf-8"))["content"]
    # A recorded sensitive belief shares its template with others: compare whole lines.
    lines = set(content.splitlines())
    assert all(f"- {statement}" not in lines for statement in sensitive)


def test_formation8_identifies_as_provider_assisted_v2_and_formation9_as_nemori() -> None:
    assert ProviderAssistedExtractor(FORMATION_8, None).extractor_version == "provider-assisted-v2"
    assert EXTRACTOR_BY_FORMATION[FORMATION_9] == "nemori-assisted-v1"
