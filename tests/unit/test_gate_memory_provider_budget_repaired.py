"""gate.memory.provider_budget_repaired: on a populated store where the frozen formation@8 control cannot
afford one output token and skips its call, formation@10 makes its single call with the full output
ceiling, ranks its compact belief view by relevance to the batch rather than recency, and sends only
public or internal beliefs to the provider.

Run through the extract activity against both stores (PostgreSQL included), with the scripted provider
priced as the shipped anthropic memory model.

Watched failing on purpose, undone after: with the formation@10 compact view (domain/formation/extraction.py)
taking the most recent beliefs instead of select_cue_memories, the memory-store run failed.
"""

from datetime import timedelta
from pathlib import Path
from uuid import UUID, uuid4

from activities.commit import CommitActivities
from activities.contracts import CommitInput, StageInput
from activities.stages import StageActivities
from adapters.providers.policy_documents import load_memory_model
from adapters.providers.scripted import ScriptedProvider
from domain.beliefs.records import MemoryRecord
from domain.candidates import ClaimKind, Sensitivity
from domain.events import SourceEvent
from domain.formation.anticipation import MAX_CUE_MEMORIES
from domain.formation.segments import EventFootprint, SegmentRef, plan_segments
from domain.formation.stage_results import StageReport
from domain.policy.versions import FORMATION_8, FORMATION_10
from domain.ports import UnitOfWorkFactory
from domain.providers import MAX_OUTPUT_TOKENS, TIMEOUT_S
from domain.telemetry import FailureClass, Stage, StageOutcome
from tests.builders import OWNER, T0, belief
from tests.pipeline import append

CONVERSATION = Path(__file__).resolve().parents[1] / "fixtures" / "training_conversation.jsonl"
MODEL = load_memory_model("anthropic")
# An old belief the conversation returns to: outside the fifty most recent, first by relevance.
RETURNED_TO = "User restarted a 5x5 routine after years of calisthenics."
# Recent and relevant, but sensitive: it must never reach the provider.
SENSITIVE = "User's 5x5 routine works around a knee injury from running."
ANSWER = {
    "memories": [
        {
            "subject": "5x5 routine",
            "claim_kind": "habit",
            "longevity": "ongoing",
            "statement": "User does a 5x5 routine 2-3x a week.",
            "evidence_spans": [{"seq": 1, "text": "right now I do a 5x5 routine 2-3x a week"}],
        }
    ]
}


def _populated(count: int) -> list[MemoryRecord]:
    """count recent, unrelated, verbose beliefs, the old one the batch returns to, the sensitive one."""
    unrelated = [
        belief(
            id=UUID(int=0x10000 + i),
            subject=f"interest:collection-{i}",
            statement=(
                f"User keeps collection number {i} of vintage postcards in labelled archival boxes, "
                "catalogues each card by printer and year in a spreadsheet, trades duplicates by post with "
                "pen friends abroad, visits two collector fairs every spring and autumn, and has described "
                "the hobby in several separate conversations as the calmest part of the week."
            ),
            claim_kind=ClaimKind.INTEREST,
            updated_at=T0 - timedelta(days=1, minutes=i),
        )
        for i in range(count)
    ]
    returned_to = belief(
        statement=RETURNED_TO,
        subject="activity:5x5-routine",
        claim_kind=ClaimKind.HABIT,
        updated_at=T0 - timedelta(days=400),
    )
    sensitive = belief(
        statement=SENSITIVE,
        subject="state:knee-injury",
        claim_kind=ClaimKind.RECURRING_STATE,
        sensitivity=Sensitivity.SENSITIVE,
        updated_at=T0,
    )
    return [*unrelated, returned_to, sensitive]


def _seed(uow_factory: UnitOfWorkFactory, beliefs: list[MemoryRecord]) -> tuple[UUID, list[EventFootprint]]:
    """The training conversation in a new session, and the owner's beliefs."""
    session = uuid4()
    events = [
        SourceEvent.model_validate_json(line).model_copy(update={"session_id": session})
        for line in CONVERSATION.read_text("utf-8").splitlines()
        if line.strip()
    ]
    append(uow_factory, events)
    with uow_factory() as uow:
        uow.beliefs.upsert_many(beliefs)
        uow.commit()
    return session, [EventFootprint(seq=e.seq, size_bytes=e.size_bytes, coverage_units=1) for e in events]


def _extract(
    uow_factory: UnitOfWorkFactory, policy: str, footprints: list[EventFootprint], session: UUID
) -> tuple[SegmentRef, StageReport, ScriptedProvider]:
    [ref] = plan_segments(OWNER, session, policy, footprints)
    provider = ScriptedProvider({Stage.EXTRACTION: ANSWER}, model=MODEL)
    stages = StageActivities(uow_factory, provider, lambda: T0 + timedelta(hours=1), model=MODEL)
    return ref, stages.extract(StageInput(ref=ref, run_id=uuid4())), provider


def test_gate_memory_provider_budget_repaired(uow_factory: UnitOfWorkFactory) -> None:
    session, footprints = _seed(uow_factory, _populated(2 * MAX_CUE_MEMORIES))

    _, frozen, frozen_provider = _extract(uow_factory, FORMATION_8, footprints, session)
    assert frozen_provider.call_count == 0
    assert not frozen.provider_called
    assert frozen.outcome is StageOutcome.FALLBACK and frozen.failure_class is FailureClass.BUDGET
    assert frozen.counts["skipped.output_budget"] == 1

    ref, repaired, provider = _extract(uow_factory, FORMATION_10, footprints, session)
    assert provider.call_count == 1 and repaired.provider_called
    [request] = provider.requests
    assert request.stage is Stage.EXTRACTION
    assert request.max_output_tokens == MAX_OUTPUT_TOKENS == 16_384 and request.timeout_s == TIMEOUT_S == 120
    known = request.content.split("Known memories:\n", 1)[1].split("\nMessages:", 1)[0].splitlines()
    assert len(known) == MAX_CUE_MEMORIES
    # Relevance, not recency: the old belief the conversation returns to leads the view.
    assert known[0] == f"- {RETURNED_TO}"
    assert SENSITIVE not in request.content
    assert repaired.outcome is StageOutcome.OK and repaired.metrics.cost_usd > 0

    run_id = uuid4()
    commit = CommitActivities(uow_factory, lambda: T0 + timedelta(hours=1)).commit_segment(
        CommitInput(ref=ref, run_id=run_id)
    )
    assert commit.direct_committed >= 1


def test_formation8_sends_the_fifty_most_recent_public_or_internal_beliefs(
    uow_factory: UnitOfWorkFactory,
) -> None:
    """With a few beliefs the control can afford its call: its view is recency, not relevance."""
    beliefs = _populated(3)
    session, footprints = _seed(uow_factory, beliefs)
    _, report, provider = _extract(uow_factory, FORMATION_8, footprints, session)
    assert report.provider_called
    [request] = provider.requests
    assert 0 < request.max_output_tokens < MAX_OUTPUT_TOKENS
    known = request.content.split("Known memories:\n", 1)[1].split("\nMessages:", 1)[0].splitlines()
    assert known == [f"- {b.statement}" for b in beliefs[:3]] + [f"- {RETURNED_TO}"]
