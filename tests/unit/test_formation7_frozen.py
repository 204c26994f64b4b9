"""Half of gate.memory.distill_versions_frozen: formation@7 reproduces its recorded outputs byte for byte."""

from pathlib import Path

import pytest

from domain.events import SourceEvent
from domain.formation.deterministic.formation7 import EXTRACTOR, form_formation7, normalized_output
from domain.policy.versions import EXTRACTOR_BY_FORMATION, FORMATION_7, FORMATION_9

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "formation7"
INPUTS = sorted(FIXTURES.glob("*.input.jsonl"))


def _events(path: Path) -> list[SourceEvent]:
    return [
        SourceEvent.model_validate_json(line) for line in path.read_text("utf-8").splitlines() if line.strip()
    ]


def test_fixtures_exist() -> None:
    assert len(INPUTS) >= 3
    for path in INPUTS:
        assert path.with_name(path.name.replace(".input.jsonl", ".output.json")).exists()


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name.split(".")[0])
def test_gate_memory_distill_versions_frozen_formation7(path: Path) -> None:
    recorded = path.with_name(path.name.replace(".input.jsonl", ".output.json")).read_bytes()
    produced = normalized_output(form_formation7(_events(path))).encode("utf-8")
    assert produced == recorded


def test_formation7_identifies_as_deterministic_v2_and_formation9_as_nemori() -> None:
    assert EXTRACTOR == "deterministic-v2"
    assert EXTRACTOR_BY_FORMATION[FORMATION_7] == "deterministic-v2"
    assert EXTRACTOR_BY_FORMATION[FORMATION_9] == "nemori-assisted-v1"


def test_formation7_ignores_non_owner_events() -> None:
    events = _events(FIXTURES / "plain_statements.input.jsonl")
    formed = form_formation7(events)
    tool_seqs = {e.seq for e in events if not e.is_owner_assertion}
    assert tool_seqs and all(not set(c.source_event_ids) & tool_seqs for c in formed)
