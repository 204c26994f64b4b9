"""gate.memory.distill_segmentation: the planner's bounds, the cue's bound and the output ceiling, each as the
reference's literal number, never as the code's own constant.

The reference: a segment closes before the event that would carry it past ninety coverage units, two hundred
and fifty-six events or ninety-six kilobytes of source text, and an oversized single event forms its own
segment; the anticipation cue keeps the most recent text under twice the segment byte limit; the output
ceiling is 16,384 tokens, sized so a full ledger and its candidates fit.
"""

from typing import Any
from uuid import uuid4

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from adapters.providers.scripted import ScriptedProvider
from domain.events import SourceEvent
from domain.formation.anticipation import blinded_cue
from domain.formation.clauses import count_coverage_units
from domain.formation.deterministic.former import fallback_candidates
from domain.formation.distillation import coverage_units, distillation_outcome, distillation_request
from domain.formation.segments import EventFootprint, SegmentRef, plan_segments
from domain.policy.versions import FORMATION_9
from domain.telemetry import StageOutcome
from tests.builders import OWNER, event
from tests.scripted_answers import load

UNITS = 90
EVENTS = 256
SEGMENT_BYTES = 96 * 1024
CUE_BYTES = 2 * 96 * 1024
OUTPUT_TOKENS = 16_384

footprints = st.lists(
    st.tuples(
        st.integers(0, 40),
        # Mostly small events, some near or past the byte bound on their own.
        st.one_of(st.integers(0, 2_000), st.integers(SEGMENT_BYTES - 1_000, 2 * SEGMENT_BYTES)),
    ),
    min_size=1,
    max_size=700,
)


def _plan(sizes: list[tuple[int, int]]) -> tuple[list[EventFootprint], list[SegmentRef]]:
    prints = [EventFootprint(seq=seq, size_bytes=b, coverage_units=u) for seq, (u, b) in enumerate(sizes, 1)]
    return prints, plan_segments(OWNER, uuid4(), FORMATION_9, prints)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sizes=footprints)
@example(sizes=[(0, 1)] * 600)  # past the event bound on events alone
@example(sizes=[(0, 1_024)] * 300)  # past the byte bound on bytes alone: 96 events of 1 KiB a segment
@example(sizes=[(0, 10), (0, 3 * SEGMENT_BYTES), (0, 10)])  # an oversized event stands alone
def test_gate_memory_distill_segmentation_planner_closes_before_any_bound(
    sizes: list[tuple[int, int]],
) -> None:
    """Every segment holds at most 90 units, 256 events and 96 KiB, unless it is one oversized event, and
    closes only before the event that would carry it past a bound.

    Catches: MAX_SEGMENT_EVENTS or MAX_SEGMENT_BYTES (or MAX_SEGMENT_UNITS) raised, e.g. to 100,000 events
    or 96 MiB, and a planner that closes segments early or lets an oversized event share one."""
    prints, segments = _plan(sizes)
    by_seq = {p.seq: p for p in prints}
    assert [s.first_seq for s in segments] == [1, *(s.last_seq + 1 for s in segments[:-1])]
    assert segments[-1].last_seq == len(prints)
    for position, ref in enumerate(segments):
        members = [by_seq[seq] for seq in range(ref.first_seq, ref.last_seq + 1)]
        assert ref.event_count == len(members)
        units, size = sum(p.coverage_units for p in members), sum(p.size_bytes for p in members)
        if len(members) > 1:
            assert units <= UNITS and size <= SEGMENT_BYTES and len(members) <= EVENTS
        if position + 1 < len(segments):
            following = by_seq[ref.last_seq + 1]
            assert (
                units + following.coverage_units > UNITS
                or size + following.size_bytes > SEGMENT_BYTES
                or len(members) + 1 > EVENTS
            )


def test_gate_memory_distill_segmentation_event_and_byte_bounds_are_the_references() -> None:
    """Catches: the 256-event or 96 KiB bound changed in either direction."""
    _, by_events = _plan([(0, 1)] * 600)
    assert [s.event_count for s in by_events] == [EVENTS, EVENTS, 600 - 2 * EVENTS]
    _, by_bytes = _plan([(0, 1_024)] * 200)
    assert [s.event_count for s in by_bytes] == [96, 96, 8]
    _, by_units = _plan([(1, 1)] * 200)
    assert [s.event_count for s in by_units] == [UNITS, UNITS, 200 - 2 * UNITS]


def test_gate_memory_distill_segmentation_cue_keeps_the_newest_text_under_twice_the_segment_bytes() -> None:
    """The cue is the most recent owner text under 2 x 96 KiB; an oversized newest event is sent as its tail.

    Catches: CUE_BYTE_BOUND changed (e.g. to 2 x 96 MiB, which resends a long session in every request)."""
    session = uuid4()
    prior = [
        event(seq, f"{seq:04d}" + "x" * 10_236, session_id=session) for seq in range(1, 41)
    ]  # 10 KiB each
    cue = blinded_cue(prior, before_seq=41)
    sent = sum(len(text.encode("utf-8")) for _, text in cue)
    assert sent <= CUE_BYTES < sent + prior[0].size_bytes
    assert [seq for seq, _ in cue] == list(range(41 - len(cue), 41))
    huge = event(41, "y" * (CUE_BYTES + 5_000) + "tail", session_id=session)
    [(seq, tail)] = blinded_cue([*prior, huge], before_seq=42)
    assert seq == 41 and len(tail.encode("utf-8")) == CUE_BYTES and tail.endswith("tail")


def _correct_answer(ref: SegmentRef, events: list[SourceEvent]) -> dict[str, Any]:
    """What a correct model returns for the segment: every unit in the ledger, and for each unit the claims
    its clause states, one candidate a claim citing the exact clause (the deterministic former's reading)."""
    by_seq = {e.seq: e for e in events}
    coverage: list[dict[str, Any]] = []
    candidates: list[dict[str, Any]] = []
    for unit in coverage_units(ref, events):
        claims = [
            c
            for c in fallback_candidates([by_seq[unit.seq]])
            if any(s.text == unit.text for s in c.evidence_spans)
        ]
        indexes = list(range(len(candidates), len(candidates) + len(claims)))
        candidates += [
            {
                "subject": c.subject.split(":", 1)[-1],
                "claim_kind": c.claim_kind.value,
                "derivation": c.derivation.value,
                "longevity": c.longevity.value,
                "polarity": c.polarity.value,
                "statement": c.statement,
                "source_event_ids": [unit.seq],
                "evidence_spans": [{"seq": unit.seq, "text": unit.text}],
            }
            for c in claims
        ]
        disposition = "formed" if indexes else "not_memory"
        coverage.append(
            {
                "unit_id": unit.id,
                "disposition": disposition,
                "candidate_indexes": indexes,
                "prediction_index": None,
            }
        )
    return {"coverage": coverage, "candidates": candidates}


def test_gate_memory_distill_segmentation_full_segment_ledger_and_candidates_fit_the_output_ceiling() -> None:
    """A batch of dense owner turns (the training and personal-agent statements, each turn stating its own
    claims) planned into full segments: each segment's correct answer, ledger and candidates, fits 16,384
    output tokens at the project's estimate of four characters a token, and validates whole.

    Catches: MAX_SEGMENT_UNITS raised (e.g. to 400: a full segment's answer then runs past 50,000 tokens),
    and MAX_OUTPUT_TOKENS lowered below what a full ledger needs."""
    session = uuid4()
    owned = [
        e for e in load("training_conversation.jsonl") + load("personal_agent.jsonl") if e.is_owner_assertion
    ]
    batch = [event(seq, owned[seq % len(owned)].text, session_id=session) for seq in range(1, 401)]
    prints = [
        EventFootprint(seq=e.seq, size_bytes=e.size_bytes, coverage_units=count_coverage_units(e.text))
        for e in batch
    ]
    segments = plan_segments(OWNER, session, FORMATION_9, prints)
    fullest = max(len(coverage_units(ref, batch)) for ref in segments)
    assert fullest > UNITS - 4, "the batch must fill a segment to its unit bound"
    for ref in segments:
        events = [e for e in batch if ref.first_seq <= e.seq <= ref.last_seq]
        request = distillation_request(ref, events, [], [])
        assert request is not None and request.max_output_tokens == OUTPUT_TOKENS
        answer = _correct_answer(ref, events)
        response = ScriptedProvider({request.stage: answer}).complete(request)
        assert response.usage.output_tokens <= OUTPUT_TOKENS, (ref.index, response.usage.output_tokens)
        outcome = distillation_outcome(ref, events, [], [], response)
        assert outcome.report.outcome is StageOutcome.OK
        assert outcome.report.counts["candidates"] == len(answer["candidates"])
