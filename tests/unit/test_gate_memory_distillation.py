"""gate.memory.coverage_dispositions_verified and gate.memory.distill_fallback, plus bad provider input.

Watched failing on purpose, undone after: with _represented (domain/formation/distillation.py) not checking
that the prediction copies the memory (same_claim), the prediction-does-not-copy case failed.
"""

from typing import Any
from uuid import uuid4

import pytest

from adapters.memory.store import InMemoryStore
from adapters.providers.scripted import ScriptedProvider
from domain.beliefs.commit import CommitReport
from domain.beliefs.records import MemoryRecord
from domain.candidates import Derivation, Longevity, Polarity, Sensitivity
from domain.events import EventRef, SourceEvent, SourceEventKind
from domain.formation.distillation import distillation_outcome
from domain.formation.segments import EventFootprint, SegmentRef, plan_segments
from domain.formation.stage_results import StageReport
from domain.policy.versions import FORMATION_9
from domain.ports import UnitOfWorkFactory
from domain.providers import ProviderFailure, ProviderResponse, ProviderUsage
from domain.telemetry import FailureClass, ReasonCategory, Stage, StageOutcome
from tests.builders import OTHER_PRINCIPAL, OWNER, T0, belief, event
from tests.pipeline import append, consolidate
from tests.scripted_answers import NO_PREDICTIONS, candidate, entry, fragment, sentence

SWIM = "I swim twice a week."
CORRECTION = "I gave up running."
AGENT = "I am building a personal AI agent."
TEXTS = [SWIM, CORRECTION, AGENT]


def _setup(texts: list[str] = TEXTS) -> tuple[SegmentRef, list[SourceEvent]]:
    session = uuid4()
    events = [event(i + 1, t, session_id=session) for i, t in enumerate(texts)]
    footprints = [EventFootprint(seq=e.seq, size_bytes=e.size_bytes, coverage_units=1) for e in events]
    [ref] = plan_segments(OWNER, session, FORMATION_9, footprints)
    return ref, events


def _answer(document: dict[str, Any]) -> ProviderResponse:
    return ProviderResponse(
        document=document, usage=ProviderUsage(), cost_usd=0.0, latency_ms=1, model="scripted"
    )


SWIM_CANDIDATE = candidate("swimming", "habit", "direct", "ongoing", "User swims twice a week.", [(1, SWIM)])
AGENT_CANDIDATE = candidate(
    "agent", "ongoing_project", "direct", "ongoing", "User is building a personal AI agent.", [(3, AGENT)]
)
RUN_RETRACTION = candidate(
    "running", "habit", "direct", "ongoing", "User no longer runs.", [(2, CORRECTION)], "retract"
)


# --- gate.memory.coverage_dispositions_verified ----------------------------------------------------


def _represented_run(memory_statement: str, clause_text: str, *, live: bool = True, copy: bool = True) -> Any:
    ref, events = _setup([clause_text])
    memory = belief(
        statement=memory_statement,
        source_event_ids=(EventRef(session_id=uuid4(), seq=1),),
        valid_to=None if live else T0,
    )
    prediction = {
        "cue_before_seq": 1,
        "statement": memory_statement if copy else "User swims.",
        "memory_id": str(memory.id),
    }
    document = {"coverage": [entry("1:0", "represented", prediction=0)], "candidates": []}
    return distillation_outcome(ref, events, [prediction], [memory], _answer(document))


def test_gate_memory_coverage_dispositions_verified_same_claim_counts_as_represented() -> None:
    result = _represented_run("User swims twice a week.", SWIM)
    assert result.document["coverage"] == {"represented": 1}
    assert result.report.outcome is StageOutcome.OK


@pytest.mark.parametrize(
    "memory_statement,clause",
    [
        ("User swims twice a week.", "I don't swim twice a week."),  # polarity
        ("User swims twice a week.", "I swim once a week."),  # count
        ("User runs 5 km.", "I run 10 km."),  # number
        ("User moved to Berlin.", "I moved from Berlin."),  # direction
        ("User swims twice a week.", "I am building a personal AI agent."),  # another claim
        ("User runs.", CORRECTION),  # a correction is never already known
        ("User runs every day.", "I no longer run every day."),
    ],
    ids=["polarity", "count", "number", "direction", "other-claim", "correction", "no-longer"],
)
def test_gate_memory_coverage_dispositions_verified_mismatch_is_unverified(
    memory_statement: str, clause: str
) -> None:
    result = _represented_run(memory_statement, clause)
    assert result.document["coverage"] == {"represented_unverified": 1}
    assert result.report.outcome is StageOutcome.PARTIAL_VALIDATION
    assert result.report.counts["coverage.represented_unverified"] == 1


@pytest.mark.parametrize(
    "kwargs", [{"live": False}, {"copy": False}], ids=["retired-memory", "prediction-does-not-copy"]
)
def test_gate_memory_coverage_dispositions_verified_needs_a_live_copied_memory(
    kwargs: dict[str, bool],
) -> None:
    result = _represented_run("User swims twice a week.", SWIM, **kwargs)
    assert result.document["coverage"] == {"represented_unverified": 1}


def test_gate_memory_coverage_dispositions_verified_unattributed_or_sensitive_prediction_cannot_represent() -> (
    None
):
    ref, events = _setup([SWIM])
    sensitive = belief(statement="User swims twice a week.", sensitivity=Sensitivity.SENSITIVE)
    for prediction in (
        {"cue_before_seq": 1, "statement": "User swims twice a week.", "memory_id": None},
        {"cue_before_seq": 1, "statement": "User swims twice a week.", "memory_id": str(sensitive.id)},
    ):
        document = {"coverage": [entry("1:0", "represented", prediction=0)], "candidates": []}
        result = distillation_outcome(ref, events, [prediction], [sensitive], _answer(document))
        assert result.document["coverage"] == {"represented_unverified": 1}


RUNNING = "User runs every day."
STOPPED = "I no longer run every day."


def _labelled_run(
    uow_factory: UnitOfWorkFactory, said: str, known: str, distillation: dict[str, Any]
) -> tuple[MemoryRecord, list[StageReport], list[CommitReport]]:
    """A live memory ``known`` from an earlier session, then ``said`` consolidated through the three
    scripted stage answers (the anticipation copies the memory) and the real commit."""
    session = uuid4()
    memory = belief(
        statement=known, subject="habit:running", source_event_ids=(EventRef(session_id=uuid4(), seq=1),)
    )
    with uow_factory() as uow:
        uow.beliefs.upsert(memory)
        uow.commit()
    append(uow_factory, [event(1, said, session_id=session)])
    script = {
        Stage.INTEGRATION: {"episodes": [fragment(["running"], sentence("User talked about running.", 1))]},
        Stage.ANTICIPATION: {
            "predictions": [{"cue_before_seq": 1, "statement": known, "memory_id": str(memory.id)}]
        },
        Stage.DISTILLATION: distillation,
    }
    reports, commits = consolidate(uow_factory, OWNER, session, ScriptedProvider(script), now=T0)
    assert reports[1].counts["predictions"] == 1
    return memory, reports, commits


def _live(uow_factory: UnitOfWorkFactory) -> list[MemoryRecord]:
    with uow_factory() as uow:
        return uow.beliefs.page(OWNER, None, 100)


@pytest.mark.parametrize(
    "distillation,rejected",
    [
        ({"coverage": [entry("1:0", "represented", prediction=0)], "candidates": []}, {}),
        # Formed, but its only candidate asserts what the clause ends: rejected, so the clause is unformed.
        (
            {
                "coverage": [entry("1:0", "formed", [0])],
                "candidates": [candidate("running", "habit", "direct", "ongoing", RUNNING, [(1, STOPPED)])],
            },
            {ReasonCategory.REJECTED_CORRECTION: 1},
        ),
    ],
    ids=["labelled-represented", "candidate-rejected"],
)
def test_gate_memory_coverage_dispositions_verified_correction_labelled_known_still_retracts_through_pipeline(
    uow_factory: UnitOfWorkFactory, distillation: dict[str, Any], rejected: dict[ReasonCategory, int]
) -> None:
    """A correction can never be labelled away: the unit that fails verification (or whose candidates are
    all rejected) gets the deterministic former's retraction, and the belief it names is closed.

    Catches: distillation_outcome dropping the _clause_fallback candidates (``rescued = []``), which leaves
    "User runs every day." live with an empty commit."""
    memory, reports, commits = _labelled_run(uow_factory, STOPPED, RUNNING, distillation)
    assert _live(uow_factory) == []
    with uow_factory() as uow:
        [closed] = uow.beliefs.get_many(OWNER, [memory.id])
    assert closed.valid_to is not None and not closed.is_live
    assert commits[0].categories == {ReasonCategory.SUPERSEDED: 1, **rejected}
    assert commits[0].reconciles
    assert reports[2].outcome is StageOutcome.PARTIAL_VALIDATION
    assert reports[2].counts["fallback_candidates"] == 1


def test_gate_memory_coverage_dispositions_verified_stated_fact_labelled_known_still_forms(
    uow_factory: UnitOfWorkFactory,
) -> None:
    """A fact the cited memory does not state, labelled represented, still forms from the clause.

    Catches: the same dropped _clause_fallback, which commits nothing for the unverified unit."""
    distillation = {"coverage": [entry("1:0", "represented", prediction=0)], "candidates": []}
    _, reports, commits = _labelled_run(uow_factory, SWIM, RUNNING, distillation)
    assert sorted(b.statement for b in _live(uow_factory)) == [RUNNING, "User swims twice a week."]
    assert commits[0].categories == {ReasonCategory.COMMITTED_DIRECT: 1}
    assert reports[2].counts["coverage.represented_unverified"] == 1


# --- gate.memory.distill_fallback ------------------------------------------------------------------

FAILURES = {
    "transient": ProviderFailure(FailureClass.TRANSIENT, "http_429", status=429, retry_after_s=2.0),
    "transient-truncated": ProviderFailure(FailureClass.TRANSIENT, "truncated_stream"),
    "permanent": ProviderFailure(FailureClass.PERMANENT, "refusal"),
    "protocol": ProviderFailure(FailureClass.PROTOCOL, "invalid_json"),
}
STRUCTURAL = {
    "missing-unit": {"coverage": [entry("1:0", "formed", [0])], "candidates": [SWIM_CANDIDATE]},
    "repeated-unit": {
        "coverage": [
            entry("1:0", "formed", [0]),
            entry("1:0", "not_memory"),
            entry("2:0", "not_memory"),
            entry("3:0", "not_memory"),
        ],
        "candidates": [SWIM_CANDIDATE],
    },
    "unknown-unit": {
        "coverage": [
            entry("1:0", "formed", [0]),
            entry("2:0", "not_memory"),
            entry("3:0", "not_memory"),
            entry("9:0", "not_memory"),
        ],
        "candidates": [SWIM_CANDIDATE],
    },
    "unknown-index": {
        "coverage": [entry("1:0", "formed", [0, 5]), entry("2:0", "not_memory"), entry("3:0", "not_memory")],
        "candidates": [SWIM_CANDIDATE],
    },
    "negative-index": {
        "coverage": [entry("1:0", "formed", [-1]), entry("2:0", "not_memory"), entry("3:0", "not_memory")],
        "candidates": [SWIM_CANDIDATE],
    },
    "unreferenced-candidate": {
        "coverage": [entry("1:0", "formed", [0]), entry("2:0", "not_memory"), entry("3:0", "not_memory")],
        "candidates": [SWIM_CANDIDATE, AGENT_CANDIDATE],
    },
}
SCHEMA = {
    "extra-property": {"coverage": [], "candidates": [], "notes": "x"},
    "unknown-claim-kind": {"coverage": [], "candidates": [{**SWIM_CANDIDATE, "claim_kind": "occupation"}]},
    "truncated-object": {"coverage": [{"unit_id": "1:0"}], "candidates": []},
}


def _full_run(answer: Any) -> tuple[Any, Any, InMemoryStore, Any]:
    store, session = InMemoryStore(), uuid4()
    append(store, [event(i + 1, t, session_id=session) for i, t in enumerate(TEXTS)])
    script = {
        Stage.INTEGRATION: ProviderFailure(FailureClass.TRANSIENT, "timeout"),
        Stage.ANTICIPATION: NO_PREDICTIONS,
        Stage.DISTILLATION: answer,
    }
    provider = ScriptedProvider(script)
    reports, commits = consolidate(store, OWNER, session, provider, now=T0)
    return reports, commits, store, session


def _assert_content_free(*dumps: str) -> None:
    for dumped in dumps:
        for word in ("swim", "running", "agent", "week"):
            assert word not in dumped.lower(), word


@pytest.mark.parametrize(
    "answer,failure,reason",
    [(f, f.failure_class, f.code) for f in FAILURES.values()]
    + [(doc, FailureClass.STRUCTURAL, None) for doc in STRUCTURAL.values()]
    + [(doc, FailureClass.PROTOCOL, "not_the_schema") for doc in SCHEMA.values()],
    ids=[*FAILURES, *STRUCTURAL, *SCHEMA],
)
def test_gate_memory_distill_fallback_completes_with_audited_fallback(
    answer: Any, failure: FailureClass, reason: str | None
) -> None:
    reports, commits, store, session = _full_run(answer)
    distill = reports[2]
    assert distill.outcome is StageOutcome.FALLBACK
    assert distill.failure_class is failure
    assert distill.retryable_fallback is (failure is FailureClass.TRANSIENT)
    invalid = [k for k in distill.counts if k.startswith("invalid.")]
    assert len(invalid) == 1 and (reason is None or invalid == [f"invalid.{reason}"])
    # The fallback formed the stated habit and project locally; the correction retracts nothing that exists.
    with store() as uow:
        statements = {b.statement for b in uow.beliefs.page(OWNER, None, 100)}
        assert uow.watermarks.get(OWNER, session) == 3
    assert "User swims twice a week." in statements
    assert "User is building a personal AI agent." in statements
    _assert_content_free(*(r.model_dump_json() for r in reports), *(c.model_dump_json() for c in commits))


def test_gate_memory_distill_fallback_invalid_candidate_rejected_without_losing_siblings() -> None:
    ref, events = _setup()
    bad_span = candidate(
        "swimming", "habit", "direct", "ongoing", "User swims daily.", [(1, "I swim every day")]
    )
    document = {
        "coverage": [
            entry("1:0", "formed", [0, 1]),
            entry("2:0", "formed", [2]),
            entry("3:0", "formed", [3]),
        ],
        "candidates": [SWIM_CANDIDATE, bad_span, RUN_RETRACTION, AGENT_CANDIDATE],
    }
    result = distillation_outcome(ref, events, [], [], _answer(document))
    assert result.report.outcome is StageOutcome.PARTIAL_VALIDATION
    assert result.document["rejections"] == {ReasonCategory.REJECTED_PROVENANCE.value: 1}
    statements = [c["statement"] for c in result.document["candidates"]]
    assert statements == [
        "User swims twice a week.",
        "User no longer runs.",
        "User is building a personal AI agent.",
    ]
    assert result.report.counts["candidates"] == 3


@pytest.mark.parametrize(
    "bad,reason",
    [
        (
            candidate("running", "habit", "direct", "ongoing", "User runs.", [(2, CORRECTION)]),
            ReasonCategory.REJECTED_CORRECTION,
        ),
        (
            candidate(
                "swimming", "habit", "direct", "ongoing", "User no longer swims.", [(1, SWIM)], "retract"
            ),
            ReasonCategory.REJECTED_CORRECTION,
        ),
        (
            candidate("running", "habit", "direct", "ongoing", "User runs.", [(2, CORRECTION)], "retract"),
            ReasonCategory.REJECTED_CORRECTION,
        ),
        (candidate("swimming", "habit", "direct", "ongoing", "User swims.", [(1, "I swim")]), None),
        (
            candidate("swimming", "habit", "direct", "ongoing", "User swims.", [(4, "I swim")]),
            ReasonCategory.REJECTED_PROVENANCE,
        ),
        (
            candidate(
                "swimming", "habit", "direct", "ongoing", "User swims.", [(1, "I swim twice a fortnight")]
            ),
            ReasonCategory.REJECTED_PROVENANCE,
        ),
        (
            candidate("outside", "habit", "direct", "ongoing", "User swims.", [(3, "I am building")]),
            ReasonCategory.REJECTED_VALIDATION,
        ),
        ({**SWIM_CANDIDATE, "source_event_ids": [1, 3]}, ReasonCategory.PROVIDER_INVALID),
        ({**SWIM_CANDIDATE, "evidence_spans": []}, ReasonCategory.PROVIDER_INVALID),
        (
            candidate("swimming", "habit", "direct", "tentative", "User swims.", [(1, SWIM)]),
            ReasonCategory.REJECTED_VALIDATION,
        ),
        (
            candidate("swimming", "habit", "direct", "ongoing", "User " + "swims " * 100, [(1, SWIM)]),
            ReasonCategory.REJECTED_VALIDATION,
        ),
    ],
    ids=[
        "assertion-citing-correction",
        "retraction-citing-none",
        "still-affirmative-retraction",
        "valid-control",
        "unknown-event",
        "invented-span",
        "span-outside-claiming-unit",
        "ids-disagree-with-spans",
        "no-span",
        "direct-tentative",
        "statement-past-bound",
    ],
)
def test_gate_memory_distill_fallback_each_candidate_judged_alone(
    bad: dict[str, Any], reason: ReasonCategory | None
) -> None:
    ref, events = _setup()
    span_seq = bad["evidence_spans"][0]["seq"] if bad["evidence_spans"] else 1
    # The candidate is claimed by the unit of its span's event, except the one whose span lies elsewhere.
    unit = "1:0" if bad["subject"] == "outside" or span_seq > 3 else f"{span_seq}:0"
    claims: dict[str, list[int]] = {"1:0": [], "2:0": [], "3:0": [1]}
    claims[unit] = [0, *claims[unit]]
    coverage = [entry(u, "formed" if idx else "not_memory", idx) for u, idx in claims.items()]
    document = {"coverage": coverage, "candidates": [bad, AGENT_CANDIDATE]}
    result = distillation_outcome(ref, events, [], [], _answer(document))
    assert result.report.outcome is not StageOutcome.FALLBACK, result.report.counts
    by_origin: dict[str, list[dict[str, Any]]] = {}
    for formed in result.document["candidates"]:
        by_origin.setdefault(formed["origin"], []).append(formed)
    kept = [c["statement"] for c in by_origin.get("provider", [])]
    assert "User is building a personal AI agent." in kept
    if reason is None:
        assert result.document["rejections"] == {} and len(kept) == 2 and "fallback" not in by_origin
    else:
        assert result.document["rejections"] == {reason.value: 1}
        assert kept == ["User is building a personal AI agent."]
        assert result.report.outcome is StageOutcome.PARTIAL_VALIDATION
        # The unit left with no valid candidate gets the deterministic former's, citing that unit alone.
        claimed = events[int(unit.split(":")[0]) - 1]
        assert by_origin.get("fallback")
        for rescued in by_origin["fallback"]:
            assert rescued["evidence_spans"] == [{"seq": claimed.seq, "text": claimed.text}]


def test_gate_memory_distill_fallback_foreign_principal_event_cannot_ground() -> None:
    ref, events = _setup()
    foreign = event(2, "I swim twice a week.", session_id=ref.session_id, owner=OTHER_PRINCIPAL)
    events = [events[0], foreign, events[2]]
    document = {
        "coverage": [entry("1:0", "formed", [0]), entry("3:0", "formed", [1])],
        "candidates": [
            candidate("swimming", "habit", "direct", "ongoing", "User swims twice a week.", [(2, SWIM)]),
            AGENT_CANDIDATE,
        ],
    }
    result = distillation_outcome(ref, events, [], [], _answer(document))
    assert result.document["rejections"] == {ReasonCategory.REJECTED_PROVENANCE.value: 1}


@pytest.mark.parametrize(
    "statement,derivation,longevity",
    [
        ("User has software-development experience.", "hypothesis", "tentative"),
        ("User is a software developer.", "hypothesis", "tentative"),
        ("User builds software for a living.", "hypothesis", "durable"),
    ],
)
def test_gate_memory_distill_fallback_local_rendering_owns_hypothesis_statements(
    statement: str, derivation: str, longevity: str
) -> None:
    ref, events = _setup()
    hypothesis = candidate("software", "skill", derivation, longevity, statement, [(3, AGENT)])
    document = {
        "coverage": [entry("1:0", "not_memory"), entry("2:0", "not_memory"), entry("3:0", "formed", [0])],
        "candidates": [hypothesis],
    }
    result = distillation_outcome(ref, events, [], [], _answer(document))
    [formed] = result.document["candidates"]
    assert formed["derivation"] == Derivation.HYPOTHESIS.value
    assert formed["longevity"] == Longevity.TENTATIVE.value
    assert formed["statement"] != statement and " likely " in formed["statement"]
    assert formed["statement"].replace(" likely", "").rstrip(".") == statement.rstrip(".").replace(
        " likely", ""
    )


def test_gate_memory_distill_fallback_retraction_polarity_survives_rendering() -> None:
    ref, events = _setup()
    document = {
        "coverage": [entry("1:0", "not_memory"), entry("2:0", "formed", [0]), entry("3:0", "not_memory")],
        "candidates": [RUN_RETRACTION],
    }
    result = distillation_outcome(ref, events, [], [], _answer(document))
    [formed] = result.document["candidates"]
    assert formed["polarity"] == Polarity.RETRACT.value and formed["statement"] == "User no longer runs."


def test_gate_memory_distill_fallback_assistant_and_tool_text_never_ground() -> None:
    ref, events = _setup()
    events = [
        events[0],
        event(2, "You swim daily.", session_id=ref.session_id, kind=SourceEventKind.ASSISTANT_MESSAGE),
        events[2],
    ]
    document = {
        "coverage": [entry("1:0", "formed", [0]), entry("3:0", "formed", [1])],
        "candidates": [
            candidate(
                "swimming", "habit", "direct", "ongoing", "User swims daily.", [(2, "You swim daily.")]
            ),
            AGENT_CANDIDATE,
        ],
    }
    result = distillation_outcome(ref, events, [], [], _answer(document))
    assert result.document["rejections"] == {ReasonCategory.REJECTED_PROVENANCE.value: 1}
