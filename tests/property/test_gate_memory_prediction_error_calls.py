"""gate.memory.prediction_error_calls: exactly three provider calls per planned segment, whatever the
number of events, coverage units and candidates, including batches that cross the segment bounds.

Watched failing on purpose, undone after: with integration_request (domain/formation/integration.py) asking
the provider for a segment with no trusted event, the three-per-segment property failed.
"""

import re
from typing import Any
from uuid import uuid4

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from adapters.memory.store import InMemoryStore
from adapters.providers.scripted import ScriptedProvider
from domain.events import SourceEventKind
from domain.formation.clauses import count_coverage_units
from domain.formation.segments import MAX_SEGMENT_UNITS, EventFootprint, plan_segments
from domain.policy.versions import FORMATION_9
from domain.providers import ProviderRequest
from domain.telemetry import THREE_STAGES, Stage
from tests.builders import OWNER, T0, event
from tests.pipeline import append, consolidate

_UNIT = re.compile(r"^<(\d+:\d+)> (.*)$")


def _script(per_unit: int) -> Any:
    def answer(request: ProviderRequest) -> dict[str, Any]:
        if request.stage is Stage.INTEGRATION:
            return {"episodes": []}
        if request.stage is Stage.ANTICIPATION:
            return {"predictions": []}
        units = [m.groups() for line in request.content.splitlines() if (m := _UNIT.match(line))]
        assert len(units) <= MAX_SEGMENT_UNITS
        coverage: list[dict[str, Any]] = []
        candidates: list[dict[str, Any]] = []
        for unit_id, text in units:
            indexes = list(range(len(candidates), len(candidates) + per_unit))
            seq = int(unit_id.split(":")[0])
            for n in indexes:
                candidates.append(
                    {
                        "subject": f"swimming {n}",
                        "claim_kind": "habit",
                        "derivation": "direct",
                        "longevity": "ongoing",
                        "polarity": "assert",
                        "statement": "User swims.",
                        "source_event_ids": [seq],
                        "evidence_spans": [{"seq": seq, "text": text}],
                    }
                )
            coverage.append(
                {
                    "unit_id": unit_id,
                    "disposition": "formed" if indexes else "not_memory",
                    "candidate_indexes": indexes,
                    "prediction_index": None,
                }
            )
        return {"coverage": coverage, "candidates": candidates}

    return answer


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(
    events=st.lists(st.tuples(st.integers(1, 4), st.booleans()), min_size=1, max_size=300),
    per_unit=st.integers(0, 3),
)
# Past the unit bound (400 units), past the event bound (300 events), and user text split by assistant runs.
@example(events=[(4, True)] * 100, per_unit=1)
@example(events=[(1, True)] * 300, per_unit=0)
@example(events=[(4, True)] * 30 + [(1, False)] * 260 + [(2, True)] * 5, per_unit=3)
def test_gate_memory_prediction_error_calls_three_per_segment(
    events: list[tuple[int, bool]], per_unit: int
) -> None:
    store, session = InMemoryStore(), uuid4()
    batch = [
        event(
            seq,
            " ".join(["I swim."] * clauses),
            session_id=session,
            kind=SourceEventKind.USER_MESSAGE if user else SourceEventKind.ASSISTANT_MESSAGE,
        )
        for seq, (clauses, user) in enumerate(events, start=1)
    ]
    append(store, batch)
    footprints = [
        EventFootprint(seq=e.seq, size_bytes=e.size_bytes, coverage_units=count_coverage_units(e.text))
        for e in batch
    ]
    segments = plan_segments(OWNER, session, FORMATION_9, footprints)
    assert len(segments) >= 1
    with_user = [
        s for s in segments if any(e.is_owner_assertion and s.first_seq <= e.seq <= s.last_seq for e in batch)
    ]
    provider = ScriptedProvider(_script(per_unit))
    reports, commits = consolidate(store, OWNER, session, provider, now=T0)
    assert len(commits) == len(segments)
    assert (
        provider.calls == {stage: len(with_user) for stage in THREE_STAGES}
        if with_user
        else provider.call_count == 0
    )
    assert provider.call_count == 3 * len(with_user)
    # Calls go in order, integration, anticipation, distillation, one round per segment.
    assert [r.stage for r in provider.requests] == [
        Stage.INTEGRATION,
        Stage.ANTICIPATION,
        Stage.DISTILLATION,
    ] * len(with_user)
    assert sum(r.provider_called for r in reports) == provider.call_count
