"""The anticipation and distillation cue pool: the owner's five hundred most recent live beliefs at or below
internal sensitivity (design, Call 2), however many beliefs the owner holds."""

from datetime import timedelta
from uuid import UUID, uuid4

from activities.contracts import StageInput
from activities.stages import StageActivities
from adapters.memory.store import InMemoryStore
from domain.beliefs.records import MemoryRecord
from domain.candidates import Sensitivity
from domain.events import EventRef
from domain.formation.anticipation import CUE_SENSITIVITIES, MEMORY_POOL, select_cue_memories
from domain.formation.segments import EventFootprint, plan_segments
from domain.policy.versions import FORMATION_9
from domain.providers import ProviderFailure, ProviderRequest, ProviderResponse
from domain.telemetry import FailureClass, Stage
from tests.builders import OWNER, T0, belief, event
from tests.pipeline import append

# More than the 20 pages of 500 the stages used to read by id.
OLD_CAP = 10_000
# The highest possible id: paged by id, it is the owner's last belief.
LAST_ID = UUID(int=2**128 - 1)


class _Capture:
    def __init__(self) -> None:
        self.requests: list[ProviderRequest] = []

    def complete(self, request: ProviderRequest) -> ProviderResponse:
        self.requests.append(request)
        raise ProviderFailure(FailureClass.TRANSIENT, "timeout")


def _large_principal(store: InMemoryStore) -> tuple[MemoryRecord, list[MemoryRecord]]:
    other = uuid4()
    older = [
        belief(
            id=UUID(int=n + 1),
            statement=f"User has prior fact number {n}.",
            subject=f"project-fact:seed-{n}",
            source_event_ids=(EventRef(session_id=other, seq=1),),
            updated_at=T0 - timedelta(minutes=n),
        )
        for n in range(OLD_CAP)
    ]
    newest = belief(
        id=LAST_ID,
        statement="User swims twice a week.",
        subject="habit:swimming",
        source_event_ids=(EventRef(session_id=other, seq=2),),
        updated_at=T0 + timedelta(days=1),
    )
    # Newer still, but never a cue: they must not take the newest memory's place in the pool.
    sensitive = [
        belief(
            statement=f"User swims at a private clinic {n}.",
            subject=f"health:swim-{n}",
            sensitivity=Sensitivity.SENSITIVE,
            updated_at=T0 + timedelta(days=2),
        )
        for n in range(MEMORY_POOL)
    ]
    with store() as uow:
        uow.beliefs.upsert_many([*older, newest, *sensitive])
        uow.commit()
    return newest, older


def test_the_most_recently_updated_memory_is_a_cue_for_a_principal_past_the_old_cap() -> None:
    store = InMemoryStore()
    newest, _ = _large_principal(store)
    session = uuid4()
    events = [event(1, "I swim twice a week.", session_id=session)]
    append(store, events)
    footprints = [EventFootprint(seq=e.seq, size_bytes=e.size_bytes, coverage_units=1) for e in events]
    [ref] = plan_segments(OWNER, session, FORMATION_9, footprints)
    provider = _Capture()

    StageActivities(store, provider, clock=lambda: T0).anticipate(StageInput(ref=ref, run_id=uuid4()))

    [request] = provider.requests
    assert request.stage is Stage.ANTICIPATION
    memory_lines = request.content.split("Memories:\n", 1)[1].splitlines()
    assert memory_lines[0] == f"[{newest.id}] {newest.statement}"
    assert "clinic" not in request.content


def test_select_cue_memories_ranks_the_stores_pool_by_shared_content_with_recency_breaking_ties() -> None:
    store = InMemoryStore()
    newest, older = _large_principal(store)
    with store() as uow:
        pool = uow.beliefs.most_recent(OWNER, MEMORY_POOL, CUE_SENSITIVITIES)
    assert pool == [newest, *older[: MEMORY_POOL - 1]]

    chosen = select_cue_memories(pool, "I swim twice a week.")

    # The one memory sharing content first, then the pool's most recent, in store order.
    assert chosen == [newest, *older[:49]]
    # A wider list (every belief of the owner) selects the same: the bound and order are re-applied.
    with store() as uow:
        everything = uow.beliefs.page(OWNER, None, 2 * OLD_CAP, live_only=False)
    assert select_cue_memories(everything, "I swim twice a week.") == chosen
