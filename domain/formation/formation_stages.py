"""The formation@9 stages as activities call them: staged documents in, StageResult out.

Activities hold staged documents (what the store keeps between stages); this module turns them back into
domain values and hands them to the stage that owns each rule."""

from typing import Any

from domain.beliefs.commit import CommitReport, commit_segment
from domain.beliefs.records import MemoryRecord
from domain.events import SourceEvent
from domain.formation.anticipation import (
    anticipation_outcome,
    anticipation_request,
    earliest_evidence_seq,
    select_cue_memories,
)
from domain.formation.clauses import split_clauses
from domain.formation.distillation import distillation_outcome, distillation_request
from domain.formation.integration import integration_outcome, integration_request, staged_episodes
from domain.formation.segments import SegmentRef
from domain.formation.stage_results import ProviderAnswer, StageReport, StageResult
from domain.providers import ProviderRequest

__all__ = [
    "CommitReport",
    "StageReport",
    "StageResult",
    "anticipation_outcome",
    "anticipation_request",
    "commit_segment",
    "count_coverage_units",
    "distill_outcome",
    "distill_request",
    "earliest_evidence_seq",
    "integration_outcome",
    "integration_request",
    "select_cue_memories",
]


def count_coverage_units(text: str) -> int:
    return len(split_clauses(1, text))


def _predictions(anticipation_doc: dict[str, Any]) -> list[dict[str, object]]:
    predictions = anticipation_doc.get("predictions", [])
    return list(predictions) if isinstance(predictions, list) else []


def distill_request(
    ref: SegmentRef,
    events: list[SourceEvent],
    integration_doc: dict[str, Any],
    anticipation_doc: dict[str, Any],
) -> ProviderRequest | None:
    return distillation_request(ref, events, staged_episodes(integration_doc), _predictions(anticipation_doc))


def distill_outcome(
    ref: SegmentRef,
    events: list[SourceEvent],
    anticipation_doc: dict[str, Any],
    memories: list[MemoryRecord],
    answer: ProviderAnswer,
) -> StageResult:
    return distillation_outcome(ref, events, _predictions(anticipation_doc), memories, answer)
