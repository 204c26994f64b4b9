"""gate.memory.source_grounding at commit, as a property over generated ownership and event kinds."""

from typing import cast
from uuid import UUID, uuid4

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.memory.store import InMemoryStore
from domain.candidates import ClaimKind, Derivation, Sensitivity
from domain.events import COMMUNICATION_KINDS, OWNER_ASSERTION_KINDS, SourceEvent, SourceEventKind
from domain.owner import Owner
from domain.ports import UnitOfWorkFactory
from domain.telemetry import ReasonCategory
from tests.builders import OTHER_PRINCIPAL, OTHER_TENANT, OWNER, event
from tests.commit_support import candidate, stage_and_commit

OWNERS = [OWNER, OTHER_PRINCIPAL, OTHER_TENANT]
SESSION = UUID("00000000-0000-4000-8000-000000000001")

sources = st.lists(
    st.tuples(st.sampled_from(OWNERS), st.sampled_from(list(SourceEventKind)), st.booleans()),
    min_size=1,
    max_size=6,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sources=sources, cite=st.lists(st.tuples(st.integers(0, 5), st.booleans(), st.booleans()), max_size=8))
def test_gate_memory_source_grounding_every_committed_span_occurs_in_an_admitted_source(
    sources: list[tuple[Owner, SourceEventKind, bool]], cite: list[tuple[int, bool, bool]]
) -> None:
    store = cast(UnitOfWorkFactory, InMemoryStore())
    events: list[SourceEvent] = []
    for index, (owner, kind, _) in enumerate(sources):
        events.append(
            event(
                index + 1, f"I am building gadget{index} at home.", owner=owner, session_id=SESSION, kind=kind
            )
        )
    own = [e for e in events if e.owner == OWNER]
    foreign = [e for e in events if e.owner != OWNER]
    with store() as uow:
        uow.events.append(foreign)
        uow.commit()
    if not own:
        return
    proposals = []
    for position, (pick, exact, as_channel) in enumerate(cite):
        cited = events[pick % len(events)]
        span = f"building gadget{cited.seq - 1}" if exact else "building a rocket"
        channel = cited.kind.value if as_channel and cited.kind in COMMUNICATION_KINDS else None
        proposals.append(
            candidate(
                cited.seq,
                span,
                f"User likely builds gadget{cited.seq - 1}."
                if channel
                else f"User is building gadget{cited.seq - 1}.",
                subject=f"project:gadget{position}",
                kind=ClaimKind.ONGOING_PROJECT,
                derivation=Derivation.HYPOTHESIS if channel else Derivation.DIRECT,
                channel=channel,
            )
        )
    report = stage_and_commit(store, own, proposals)
    committed = sum(
        report.categories.get(c, 0)
        for c in (ReasonCategory.COMMITTED_DIRECT, ReasonCategory.COMMITTED_HYPOTHESIS)
    )
    with store() as uow:
        beliefs = uow.beliefs.page(OWNER, None, 100)
        admitted = {e.seq: e for e in own if e.kind in OWNER_ASSERTION_KINDS | COMMUNICATION_KINDS}
        for belief in beliefs:
            for ref in belief.source_event_ids:
                source = admitted.get(ref.seq)
                assert source is not None and ref.session_id == SESSION
                # Every span that grounded the belief is exact text of that admitted, owned source.
                assert f"building gadget{ref.seq - 1}" in source.text
                if source.kind in COMMUNICATION_KINDS:
                    assert belief.derivation is Derivation.HYPOTHESIS
                    assert belief.sensitivity is Sensitivity.SENSITIVE and belief.channel == source.kind.value
                else:
                    assert belief.channel is None
    assert committed == len(beliefs)
    # An exact span of an owned owner assertion is never lost: it commits (or folds into its twin).
    owner_said = {e.seq for e in own if e.kind in OWNER_ASSERTION_KINDS}
    grounded = {events[p % len(events)].seq for p, exact, _ in cite if exact} & owner_said
    assert grounded <= {ref.seq for b in beliefs for ref in b.source_event_ids}


def test_gate_memory_source_grounding_mail_never_retracts_or_touches_owner_memory() -> None:
    from domain.candidates import Polarity

    store = cast(UnitOfWorkFactory, InMemoryStore())
    session = uuid4()
    said = event(1, "I drive my BMW every day.", session_id=session)
    stage_and_commit(
        store,
        [said],
        [candidate(1, "I drive my BMW every day.", "User drives their BMW every day.", subject="habit:bmw")],
    )
    mail = event(
        2,
        "I no longer drive my BMW. I drive my BMW every day.",
        session_id=session,
        kind=SourceEventKind.GMAIL_READ,
    )
    report = stage_and_commit(
        store,
        [said, mail],
        [
            candidate(
                2,
                "I no longer drive my BMW.",
                "User no longer drives their BMW.",
                subject="habit:bmw",
                polarity=Polarity.RETRACT,
            ),
            candidate(
                2,
                "I drive my BMW every day.",
                "User likely drives their BMW every day.",
                subject="habit:bmw2",
                derivation=Derivation.HYPOTHESIS,
                channel="gmail_read",
            ),
            candidate(
                2, "I drive my BMW every day.", "User drives their BMW every day.", subject="habit:bmw3"
            ),
        ],
    )
    assert report.categories == {ReasonCategory.REJECTED_PROVENANCE: 2, ReasonCategory.CONFLICTED: 1}
    with store() as uow:
        [kept] = uow.beliefs.page(OWNER, None, 10)
    assert kept.derivation is Derivation.DIRECT and kept.evidence_count == 1
