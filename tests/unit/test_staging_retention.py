"""Stage documents do not linger and never carry a secret: a commit removes its segment's documents in
its own transaction, a retirement page removes those no commit will read once their retention is over,
a credential is never staged, and narratives mask e-mail addresses and phone numbers as they mask keys.

Seen before: every stage document stayed after its segment committed (conversation text and unredacted
API keys in candidate subjects), and narratives copied e-mail addresses and phone numbers verbatim.
"""

from datetime import UTC, datetime, timedelta
from uuid import uuid4

from activities.retirement import RetirementActivities, RetirePageInput
from adapters.memory.store import InMemoryStore
from domain.formation.integration import fallback_episode
from domain.formation.stage_schemas import Prediction
from domain.ports import UnitOfWorkFactory
from domain.staging import AnticipationDocument, DistillationDocument, StagedKind
from domain.telemetry import ReasonCategory
from tests.builders import OWNER, T0, event
from tests.commit_support import candidate, segment, stage_and_commit

KEY = "sk-proj-" + "Q" * 24


def test_a_commit_removes_its_segment_documents_in_its_own_transaction(
    uow_factory: UnitOfWorkFactory,
) -> None:
    session = uuid4()
    events = [event(1, "I am building a personal AI agent.", session_id=session)]
    stage_and_commit(
        uow_factory,
        events,
        [candidate(1, "building a personal AI agent", "User is building a personal AI agent.")],
    )
    ref = segment(session, [1])
    with uow_factory() as uow:
        assert [uow.staged.get(OWNER, ref.segment_key, stage) for stage in StagedKind] == [None, None, None]


def test_a_retirement_page_removes_documents_no_commit_read_once_their_retention_is_over() -> None:
    staged_at = datetime(2026, 9, 2, 10, 0, tzinfo=UTC)
    store = InMemoryStore(clock=lambda: staged_at)
    ref = segment(uuid4(), [1])
    with store() as uow:
        uow.staged.put(DistillationDocument().staged_output(ref))
        uow.commit()
    sweep = RetirementActivities(store)
    sweep.retire_expired_page(RetirePageInput(as_of=staged_at + timedelta(hours=23)))
    with store() as uow:
        assert uow.staged.get(OWNER, ref.segment_key, StagedKind.DISTILLATION) is not None, (
            "still in retention"
        )
    sweep.retire_expired_page(RetirePageInput(as_of=staged_at + timedelta(days=1, minutes=1)))
    with store() as uow:
        assert uow.staged.get(OWNER, ref.segment_key, StagedKind.DISTILLATION) is None


def test_a_candidate_repeating_a_credential_is_never_staged_and_is_counted_as_refused() -> None:
    ref = segment(uuid4(), [1])
    leaky = candidate(1, "my key", f"User uses key {KEY}.", subject=f"resource:{KEY.lower()}")
    spanned = candidate(1, f"key {KEY}", "User has an API key.")
    clean = candidate(1, "building an agent", "User is building an agent.")
    document = DistillationDocument(candidates=(leaky, spanned, clean)).staged_output(ref).document
    assert KEY not in str(document) and KEY.lower() not in str(document)
    staged = DistillationDocument.model_validate(document)
    assert staged.candidates == (clean,)
    assert staged.rejections == {ReasonCategory.REJECTED_CREDENTIAL: 2}


def test_a_prediction_is_staged_with_its_credentials_masked() -> None:
    ref = segment(uuid4(), [1])
    prediction = Prediction(
        cue_before_seq=1, statement=f"User's password is hunter2 and key {KEY}.", memory_id=None
    )
    document = AnticipationDocument(predictions=(prediction,)).staged_output(ref).document
    assert KEY not in str(document) and "hunter2" not in str(document)


def test_a_narrative_masks_email_addresses_and_phone_numbers_as_it_masks_keys() -> None:
    text = (
        f"Reach me at jane.doe+work@example.co.uk or +1 (415) 555-0142, or 020 7946 0958. My key is {KEY}."
        " On 2026-09-02 I ran 10 km in 52 minutes, and I was born in 1987."
    )
    episode = fallback_episode([event(1, text, session_id=uuid4())], created_at=T0)
    assert episode is not None
    for secret in ("jane.doe", "example.co.uk", "555-0142", "7946", KEY):
        assert secret not in episode.narrative
    # Dates, distances and years are not phone numbers.
    for kept in ("2026-09-02", "10 km", "52 minutes", "1987"):
        assert kept in episode.narrative
