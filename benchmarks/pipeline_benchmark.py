"""formation@9 provider pipeline: local validation time and request sizes.

Run: .venv/bin/python -m benchmarks.pipeline_benchmark

1. Local validation time per segment at 90 coverage units and 32 candidates: the three outcome functions
   (integration, anticipation, distillation) over a valid scripted answer, no provider latency.
2. Request size per stage for the training conversation against a 30-belief store. Tokens are an
   ESTIMATE: UTF-8 bytes / 4 (no tokenizer is a dependency). The stable cacheable prefix is the stage's
   instructions plus its JSON schema, which every provider sends before the per-segment content.
"""

import json
import statistics
import time
from typing import Any
from uuid import uuid4

from domain.candidates import ClaimKind
from domain.events import EventRef
from domain.formation.anticipation import (
    anticipation_outcome,
    anticipation_request,
    earliest_evidence_seq,
    select_cue_memories,
)
from domain.formation.clauses import count_coverage_units
from domain.formation.distillation import coverage_units, distillation_outcome, distillation_request
from domain.formation.integration import integration_outcome, integration_request, staged_episodes
from domain.formation.segments import EventFootprint, plan_segments
from domain.policy.versions import FORMATION_9
from domain.providers import ProviderRequest, ProviderResponse, ProviderUsage
from tests.builders import OWNER, T0, belief, event
from tests.scripted_answers import TRAINING_INTEGRATION, TRAINING_SESSION, load, training_distillation

ROUNDS = 30


def _response(document: dict[str, Any]) -> ProviderResponse:
    return ProviderResponse(
        document=document, usage=ProviderUsage(), cost_usd=0.0, latency_ms=0, model="bench"
    )


def validation_time() -> tuple[int, int, float, float]:
    session = uuid4()
    # 45 events of two clauses each: 90 coverage units in one segment.
    texts = [
        f"I swim {n} times a week at the lake. I am building agent number {n} in Python." for n in range(45)
    ]
    events = [event(i + 1, t, session_id=session) for i, t in enumerate(texts)]
    footprints = [
        EventFootprint(seq=e.seq, size_bytes=e.size_bytes, coverage_units=count_coverage_units(e.text))
        for e in events
    ]
    [ref] = plan_segments(OWNER, session, FORMATION_9, footprints)
    units = coverage_units(ref, events)
    integration = {
        "episodes": [
            {
                "subjects": [f"topic {i}"],
                "sentences": [
                    {"text": f"User swims {i} times a week at the lake.", "source_event_ids": [i + 1]}
                ],
            }
            for i in range(45)
        ]
    }
    memories = [belief(statement=f"User likes topic {n}.", subject=f"interest:topic-{n}") for n in range(30)]
    predictions = {
        "predictions": [
            {"cue_before_seq": 1, "statement": m.statement, "memory_id": str(m.id)} for m in memories
        ]
    }
    candidates: list[dict[str, Any]] = []
    coverage: list[dict[str, Any]] = []
    for unit in units:
        indexes = [len(candidates)] if len(candidates) < 32 and unit.index == 0 else []
        if indexes:
            candidates.append(
                {
                    "subject": f"swimming {unit.seq}",
                    "claim_kind": ClaimKind.HABIT.value,
                    "derivation": "direct",
                    "longevity": "ongoing",
                    "polarity": "assert",
                    "statement": f"User swims {unit.seq - 1} times a week at the lake.",
                    "source_event_ids": [unit.seq],
                    "evidence_spans": [{"seq": unit.seq, "text": unit.text}],
                }
            )
        coverage.append(
            {
                "unit_id": unit.id,
                "disposition": "formed" if indexes else "not_memory",
                "candidate_indexes": indexes,
                "prediction_index": None,
            }
        )
    distill = {"coverage": coverage, "candidates": candidates}
    timings = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        i = integration_outcome(ref, events, _response(integration), now=T0)
        a = anticipation_outcome(ref, memories, _response(predictions))
        d = distillation_outcome(ref, events, a.document["predictions"], memories, _response(distill))
        timings.append(time.perf_counter() - started)
        assert i.report.outcome.value == "ok" and d.report.outcome.value == "ok", (
            i.report.counts,
            d.report.counts,
        )
        assert d.report.counts["candidates"] == 32
    return len(units), len(candidates), statistics.median(timings) * 1000, max(timings) * 1000


def _sizes(request: ProviderRequest) -> tuple[int, int]:
    stable = len(request.stable_instructions.encode()) + len(json.dumps(request.json_schema).encode())
    return stable, stable + len(request.content.encode())


def request_sizes() -> list[tuple[str, int, int]]:
    events = load("training_conversation.jsonl")
    footprints = [
        EventFootprint(seq=e.seq, size_bytes=e.size_bytes, coverage_units=count_coverage_units(e.text))
        for e in events
    ]
    [ref] = plan_segments(OWNER, TRAINING_SESSION, FORMATION_9, footprints)
    other = uuid4()
    store = [
        belief(
            statement=f"User has prior belief number {n} about their training and tools.",
            subject=f"project-fact:seed-{n}",
            source_event_ids=(EventRef(session_id=other, seq=n + 1),),
        )
        for n in range(30)
    ]
    memories = select_cue_memories(store, " ".join(e.text for e in events if e.is_owner_assertion))
    integration = integration_outcome(ref, events, _response(TRAINING_INTEGRATION), now=T0)
    predictions = [
        {"cue_before_seq": 1, "statement": m.statement, "memory_id": str(m.id)} for m in memories[:5]
    ]
    requests = [
        integration_request(ref, events),
        anticipation_request(
            ref, [], memories, before_seq=earliest_evidence_seq(ref, events), segment_events=events
        ),
        distillation_request(ref, events, staged_episodes(integration.document), predictions),
    ]
    distillation_outcome(ref, events, predictions, memories, _response(training_distillation()))
    rows = []
    for request in requests:
        assert request is not None
        stable, total = _sizes(request)
        rows.append((request.stage.value, total, stable))
    return rows


def main() -> None:
    units, candidates, median_ms, max_ms = validation_time()
    print(
        f"local validation per segment ({units} units, {candidates} candidates, {ROUNDS} rounds): median {median_ms:.1f} ms, max {max_ms:.1f} ms"
    )
    print()
    print("request size, training conversation vs 30-belief store (tokens estimated as UTF-8 bytes / 4)")
    print(f"{'stage':<14}{'bytes':>8}{'~tokens':>9}{'stable bytes':>14}{'stable share':>14}")
    for stage, total, stable in request_sizes():
        print(f"{stage:<14}{total:>8}{total // 4:>9}{stable:>14}{stable / total:>13.0%}")


if __name__ == "__main__":
    main()
