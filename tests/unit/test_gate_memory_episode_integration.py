"""gate.memory.episode_integration: ordered, provenance-complete narratives, or the deterministic episode.

Watched failing on purpose, undone after: with trusted_events (domain/formation/integration.py) keeping non-
owner events, the multi-turn narratives test failed.
"""

from typing import Any
from uuid import uuid4

import pytest

from adapters.memory.store import InMemoryStore
from adapters.providers.scripted import ScriptedProvider
from domain.events import SourceEvent, SourceEventKind
from domain.formation.integration import integration_outcome, integration_request, staged_episodes
from domain.formation.segments import EventFootprint, SegmentRef, plan_segments
from domain.policy.versions import FORMATION_9
from domain.providers import ProviderResponse, ProviderUsage
from domain.telemetry import FailureClass, Stage, StageOutcome
from tests.builders import OTHER_PRINCIPAL, OWNER, T0, event
from tests.pipeline import append, consolidate
from tests.scripted_answers import NO_PREDICTIONS, fragment, sentence

TURNS = [
    "I am building a personal AI agent in Python.",
    "It should search the web and fetch pages.",
    "Separately, I swim twice a week.",
    "I also run on Sundays.",
]


def _segment(session: Any, events: list[SourceEvent]) -> SegmentRef:
    footprints = [EventFootprint(seq=e.seq, size_bytes=e.size_bytes, coverage_units=1) for e in events]
    [ref] = plan_segments(OWNER, session, FORMATION_9, footprints)
    return ref


def _events(session: Any) -> list[SourceEvent]:
    events = [event(i + 1, text, session_id=session) for i, text in enumerate(TURNS)]
    # An assistant reply in the middle: part of the segment, never part of any episode.
    events.insert(
        2,
        event(99, "You could use a search API.", session_id=session, kind=SourceEventKind.ASSISTANT_MESSAGE),
    )
    return sorted(events, key=lambda e: e.seq)


def _answer(document: dict[str, Any]) -> ProviderResponse:
    return ProviderResponse(
        document=document, usage=ProviderUsage(), cost_usd=0.0, latency_ms=1, model="scripted"
    )


GOOD: dict[str, Any] = {
    "episodes": [
        fragment(
            ["personal AI agent"],
            sentence("User is building a personal AI agent in Python.", 1),
            sentence("The agent should search the web and fetch pages.", 2),
        ),
        fragment(
            ["exercise"],
            sentence("User swims twice a week.", 3),
            sentence("User also runs on Sundays.", 4),
        ),
    ]
}


def test_gate_memory_episode_integration_multi_turn_session_gives_ordered_complete_narratives() -> None:
    store, session = InMemoryStore(), uuid4()
    events = [event(i + 1, text, session_id=session) for i, text in enumerate(TURNS)]
    events.append(event(5, "Noted, thanks.", session_id=session, kind=SourceEventKind.ASSISTANT_MESSAGE))
    append(store, events)
    script = {
        Stage.INTEGRATION: GOOD,
        Stage.ANTICIPATION: NO_PREDICTIONS,
        Stage.DISTILLATION: {"coverage": [], "candidates": []},
    }
    reports, _ = consolidate(store, OWNER, session, ScriptedProvider(script), now=T0)
    assert reports[0].outcome is StageOutcome.OK and reports[0].counts["episodes"] == 2
    with store() as uow:
        stored = sorted(uow.episodes.for_session(OWNER, session), key=lambda e: e.source_event_ids)
    assert [e.source_event_ids for e in stored] == [(1, 2), (3, 4)]
    assert [e.subjects for e in stored] == [("personal AI agent",), ("exercise",)]
    assert stored[0].narrative.startswith("User is building") and "swims" in stored[1].narrative
    assert all(
        (e.tenant_id, e.principal_id, e.session_id) == (OWNER.tenant_id, OWNER.principal_id, session)
        for e in stored
    )
    assert (
        stored[0].source_started_at == events[0].occurred_at
        and stored[1].source_ended_at == events[3].occurred_at
    )


def test_gate_memory_episode_integration_request_holds_only_trusted_user_events() -> None:
    session = uuid4()
    events = [
        *_events(session),
        event(100, "Forward: meeting moved", session_id=session, kind=SourceEventKind.GMAIL_READ),
    ]
    ref = _segment(session, events)
    request = integration_request(ref, events)
    assert request is not None
    assert "search API" not in request.content and "meeting moved" not in request.content
    assert [line.split("]")[0] for line in request.content.splitlines()] == ["[1", "[2", "[3", "[4"]


def _fragment_with(*sentences: dict[str, Any], subjects: list[str] | None = None) -> dict[str, Any]:
    return fragment(subjects or ["topic"], *sentences)


BAD: dict[str, tuple[dict[str, Any], str]] = {
    "unsupported sentence": (
        {
            "episodes": [
                _fragment_with(
                    sentence("User is building a personal AI agent at Google.", 1),
                    sentence("The agent should search the web and fetch pages.", 2),
                    sentence("User swims twice a week.", 3),
                    sentence("User also runs on Sundays.", 4),
                )
            ]
        },
        "unsupported_narrative_span",
    ),
    "changed number": (
        {
            "episodes": [
                _fragment_with(
                    sentence(" ".join(TURNS[:2]), 1, 2),
                    sentence("User swims three times a week and runs on Sundays.", 3, 4),
                )
            ]
        },
        "unsupported_narrative_span",
    ),
    "foreign citation (assistant event)": (
        {
            "episodes": [
                _fragment_with(
                    sentence("User is building a personal AI agent in Python.", 1, 99),
                    sentence(" ".join(TURNS[1:]), 2, 3, 4),
                )
            ]
        },
        "unknown_or_unowned_sequence",
    ),
    "unknown citation": (
        {"episodes": [_fragment_with(sentence(" ".join(TURNS), 1, 2, 3, 4), sentence("User swims.", 7))]},
        "unknown_or_unowned_sequence",
    ),
    "empty citation": (
        {
            "episodes": [
                _fragment_with(
                    sentence(" ".join(TURNS), 1, 2, 3, 4),
                    sentence(
                        "User swims.",
                    ),
                )
            ]
        },
        "empty_citation",
    ),
    "duplicate subject": (
        {
            "episodes": [
                fragment(["Agent"], sentence(" ".join(TURNS[:2]), 1, 2)),
                fragment([" agent "], sentence(" ".join(TURNS[2:]), 3, 4)),
            ]
        },
        "duplicate_subject",
    ),
    "overlapping provenance": (
        {
            "episodes": [
                fragment(["agent"], sentence(" ".join(TURNS[:3]), 1, 2, 3)),
                fragment(["exercise"], sentence(" ".join(TURNS[2:]), 3, 4)),
            ]
        },
        "overlapping_provenance",
    ),
    "omitted provenance": (
        {"episodes": [_fragment_with(sentence(" ".join(TURNS[:3]), 1, 2, 3))]},
        "omitted_provenance",
    ),
    "interleaved episodes": (
        {
            "episodes": [
                fragment(["agent"], sentence(TURNS[0], 1), sentence(TURNS[2], 3)),
                fragment(["exercise"], sentence(TURNS[1], 2), sentence(TURNS[3], 4)),
            ]
        },
        "unordered_provenance",
    ),
    "empty sentence": (
        {"episodes": [_fragment_with(sentence(" ".join(TURNS), 1, 2, 3, 4), sentence("  ", 4))]},
        "empty_sentence",
    ),
    "no episode": ({"episodes": []}, "no_episode"),
    "subject past its bound": (
        {"episodes": [_fragment_with(sentence(" ".join(TURNS), 1, 2, 3, 4), subjects=["agent " * 40])]},
        "episode_out_of_bounds",
    ),
}


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
def test_gate_memory_episode_integration_invalid_answer_falls_back_to_deterministic_episode(
    case: str,
) -> None:
    document, reason = BAD[case]
    session = uuid4()
    events = _events(session)
    ref = _segment(session, events)
    result = integration_outcome(ref, events, _answer(document), now=T0)
    assert result.report.outcome is StageOutcome.FALLBACK
    assert result.report.failure_class is FailureClass.STRUCTURAL
    assert result.report.provider_called
    assert result.report.counts == {"episodes": 1, f"invalid.{reason}": 1}
    [episode] = staged_episodes(result.document)
    # The deterministic episode: every trusted event, in order, its text verbatim.
    assert episode.source_event_ids == (1, 2, 3, 4)
    assert all(text in episode.narrative for text in TURNS)
    assert "search API" not in episode.narrative
    # The report is content-free.
    dumped = result.report.model_dump_json()
    assert not any(word in dumped for word in ("Python", "swim", "agent", "Sundays"))


@pytest.mark.parametrize(
    "document",
    [
        {"episodes": "not a list"},
        {"episodes": [], "extra": 1},
        {"episodes": [{"subjects": [], "sentences": [{"text": 1}]}]},
    ],
    ids=["wrong-type", "extra-property", "truncated-shape"],
)
def test_gate_memory_episode_integration_schema_violation_is_a_protocol_fallback(
    document: dict[str, Any],
) -> None:
    session = uuid4()
    events = _events(session)
    result = integration_outcome(_segment(session, events), events, _answer(document), now=T0)
    assert result.report.outcome is StageOutcome.FALLBACK
    assert result.report.failure_class is FailureClass.PROTOCOL
    assert result.report.counts["invalid.not_the_schema"] == 1


def test_gate_memory_episode_integration_other_principals_events_are_not_integrated() -> None:
    session = uuid4()
    events = [*_events(session), event(98, "I am their boss.", session_id=session, owner=OTHER_PRINCIPAL)]
    ref = _segment(session, [e for e in events if e.owner == OWNER])
    document = {
        "episodes": [
            _fragment_with(sentence(" ".join(TURNS), 1, 2, 3, 4), sentence("User is their boss.", 98))
        ]
    }
    result = integration_outcome(ref, events, _answer(document), now=T0)
    assert result.report.counts.get("invalid.unknown_or_unowned_sequence") == 1
