"""gate.memory.anticipation_blinded, as a property over generated event prefixes.

Every event text carries a unique marker, so a leak of any event, narrative or memory into the anticipation
request shows as its marker in the request.

Watched failing on purpose, undone after: with blinded_cue (domain/formation/anticipation.py) keeping every
prior event, not only owner text, the prior-owner-cue property failed.
"""

from typing import Any
from uuid import uuid4

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.memory.store import InMemoryStore
from adapters.providers.scripted import ScriptedProvider
from domain.beliefs.records import MemoryRecord
from domain.candidates import Sensitivity
from domain.events import EventRef, SourceEvent, SourceEventKind
from domain.formation.anticipation import anticipation_outcome, anticipation_request, earliest_evidence_seq
from domain.formation.integration import trusted_events
from domain.formation.segments import EventFootprint, plan_segments
from domain.policy.versions import FORMATION_9
from domain.providers import ProviderRequest, ProviderResponse, ProviderUsage
from domain.telemetry import Stage
from tests.builders import OTHER_PRINCIPAL, OWNER, T0, belief, event
from tests.pipeline import append, consolidate

KINDS = [
    SourceEventKind.USER_MESSAGE,
    SourceEventKind.PAIRED_SURFACE_MESSAGE,
    SourceEventKind.ASSISTANT_MESSAGE,
    SourceEventKind.TOOL_RESULT,
    SourceEventKind.MODEL_OUTPUT,
    SourceEventKind.GMAIL_READ,
]
WORDS = st.lists(
    st.sampled_from(["I", "swim", "am", "building", "an", "agent", "twice", "a", "week", "and"]), max_size=8
)


def marker(seq: int) -> str:
    return f"zq{seq}k"


def _events(session: Any, spec: list[tuple[SourceEventKind, list[str]]], first: int) -> list[SourceEvent]:
    return [
        event(first + i, f"I said {marker(first + i)} {' '.join(words)}.", session_id=session, kind=kind)
        for i, (kind, words) in enumerate(spec)
    ]


EVENT_SPECS = st.lists(st.tuples(st.sampled_from(KINDS), WORDS), max_size=6)
MEMORY_SPECS = st.lists(
    st.tuples(
        st.sampled_from(list(Sensitivity)),
        st.booleans(),
        st.sampled_from(["prior", "other-session", "segment"]),
    ),
    max_size=6,
)


def _memories(
    session: Any, spec: list[tuple[Sensitivity, bool, str]], prior_last: int, segment_first: int
) -> list[MemoryRecord]:
    memories = []
    for i, (sensitivity, live, origin) in enumerate(spec):
        source = {
            "prior": EventRef(session_id=session, seq=max(1, prior_last)),
            "other-session": EventRef(session_id=uuid4(), seq=1),
            # Formed from the segment's own evidence (a fallback before a re-pass): the gold label itself.
            "segment": EventRef(session_id=session, seq=segment_first),
        }[origin]
        if origin == "prior" and prior_last == 0:
            source = EventRef(session_id=uuid4(), seq=1)
        memories.append(
            belief(
                statement=f"User has memory mm{i}x.",
                subject=f"project:mm{i}x",
                sensitivity=sensitivity,
                source_event_ids=(source,),
                valid_to=None if live else T0,
            )
        )
    return memories


def _available(memory: MemoryRecord, session: Any, segment_first: int) -> bool:
    return (
        memory.is_live
        and memory.sensitivity in (Sensitivity.PUBLIC, Sensitivity.INTERNAL)
        and any(r.session_id != session or r.seq < segment_first for r in memory.source_event_ids)
    )


def _assert_blind(
    request: ProviderRequest, forbidden: list[str], memories: list[MemoryRecord], session: Any, first: int
) -> None:
    text = request.stable_instructions + request.content
    leaked = [m for m in forbidden if m in text]
    assert not leaked, leaked
    for m in memories:
        assert (m.statement in text) == _available(m, session, first), (m.sensitivity, m.is_live)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    prior=EVENT_SPECS,
    current=st.lists(st.tuples(st.sampled_from(KINDS), WORDS), min_size=1, max_size=6),
    future=EVENT_SPECS,
    memory_spec=MEMORY_SPECS,
    gold=st.text(alphabet="abcdefghij", min_size=6, max_size=12),
)
def test_gate_memory_anticipation_blinded_request_sees_only_the_prior_owner_cue(
    prior: list[tuple[SourceEventKind, list[str]]],
    current: list[tuple[SourceEventKind, list[str]]],
    future: list[tuple[SourceEventKind, list[str]]],
    memory_spec: list[tuple[Sensitivity, bool, str]],
    gold: str,
) -> None:
    session = uuid4()
    prior_events = _events(session, prior, 1)
    first = len(prior_events) + 1
    current_events = _events(session, current, first)
    future_events = _events(session, future, first + len(current_events))
    foreign = [
        event(first - 1 if first > 1 else 1, "I am zqforeignk.", session_id=session, owner=OTHER_PRINCIPAL)
    ]
    footprints = [
        EventFootprint(seq=e.seq, size_bytes=e.size_bytes, coverage_units=1) for e in current_events
    ]
    [ref] = plan_segments(OWNER, session, FORMATION_9, footprints)
    before = earliest_evidence_seq(ref, current_events)
    memories = _memories(session, memory_spec, len(prior_events), first)
    gold_label = f"User GOLD{gold}."
    forbidden = (
        [marker(e.seq) for e in current_events + future_events]
        + [marker(e.seq) for e in prior_events if not e.is_owner_assertion]
        + ["zqforeignk", gold_label, "GOLD"]
    )

    # A careless caller that hands over every event of the session (and a foreign one) still leaks nothing.
    everything = prior_events + current_events + future_events + foreign
    request = anticipation_request(
        ref, everything, memories, before_seq=before, segment_events=current_events
    )
    if not trusted_events(ref, current_events):
        assert request is None
        return
    assert request is not None
    _assert_blind(request, forbidden, memories, session, first)
    # The most recent owner text before the segment is the cue.
    for e in prior_events:
        assert (marker(e.seq) in request.content) == e.is_owner_assertion

    # Validation of the answer: one memory per prediction, copied statement, no sensitive or unavailable id.
    predictions: list[dict[str, Any]] = [
        {"cue_before_seq": before, "statement": "User swims.", "memory_id": None}
    ]
    for m in memories:
        predictions.append({"cue_before_seq": before, "statement": m.statement, "memory_id": str(m.id)})
        predictions.append(
            {"cue_before_seq": before, "statement": m.statement + " Daily.", "memory_id": str(m.id)}
        )
    answer = ProviderResponse(
        document={"predictions": predictions},
        usage=ProviderUsage(),
        cost_usd=0.0,
        latency_ms=0,
        model="scripted",
    )
    kept = anticipation_outcome(ref, memories, answer)
    available = {str(m.id): m for m in memories if _available(m, session, first)}
    attributed = [p for p in kept.document["predictions"] if p["memory_id"] is not None]
    assert sorted(p["memory_id"] for p in attributed) == sorted(available)
    assert all(p["statement"] == available[p["memory_id"]].statement for p in attributed)
    assert kept.report.counts["rejected_predictions"] == len(memories) * 2 - len(available)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    prior=EVENT_SPECS,
    current=st.lists(st.tuples(st.sampled_from(KINDS), WORDS), min_size=1, max_size=5),
    memory_spec=MEMORY_SPECS,
)
def test_gate_memory_anticipation_blinded_through_the_pipeline(
    prior: list[tuple[SourceEventKind, list[str]]],
    current: list[tuple[SourceEventKind, list[str]]],
    memory_spec: list[tuple[Sensitivity, bool, str]],
) -> None:
    store, session = InMemoryStore(), uuid4()
    prior_events = _events(session, prior, 1)
    first = len(prior_events) + 1
    current_events = _events(session, current, first)
    append(store, prior_events + current_events)
    memories = _memories(session, memory_spec, len(prior_events), first)
    with store() as uow:
        for m in memories:
            uow.beliefs.upsert(m)
        uow.watermarks.compare_and_set(OWNER, session, 0, len(prior_events))
        uow.commit()
    narrative = "User is building an agent."

    def script(request: ProviderRequest) -> dict[str, Any]:
        if request.stage is Stage.INTEGRATION:
            seqs = [int(line[1 : line.index("]")]) for line in request.content.splitlines()]
            return {
                "episodes": [
                    {"subjects": ["agent"], "sentences": [{"text": narrative, "source_event_ids": seqs}]}
                ]
            }
        if request.stage is Stage.ANTICIPATION:
            return {"predictions": []}
        return {"coverage": [], "candidates": []}

    provider = ScriptedProvider(script)
    consolidate(store, OWNER, session, provider, now=T0)
    with store() as uow:
        narratives = [e.narrative for e in uow.episodes.for_session(OWNER, session)]
    anticipation = [r for r in provider.requests if r.stage is Stage.ANTICIPATION]
    has_user_event = any(e.is_owner_assertion for e in current_events)
    assert len(anticipation) == int(has_user_event) and provider.call_count == 3 * int(has_user_event)
    forbidden = [marker(e.seq) for e in current_events] + [
        marker(e.seq) for e in prior_events if not e.is_owner_assertion
    ]
    for request in anticipation:
        _assert_blind(request, forbidden + narratives, memories, session, first)
