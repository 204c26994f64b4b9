"""What the memory page and the governed writes ask of every store: a principal's events read out page by
page, a remember sourced from the owner's own words only, a guess confirmed by its owner, and principal
erasure at the owner's request, audited content-free."""

import json
from datetime import timedelta
from uuid import UUID, uuid4

import pytest

from domain.beliefs.governed import GovernedMemory, GovernedOutcome
from domain.beliefs.records import Authority, ClosedReason, SourceSpan
from domain.candidates import ClaimKind, Derivation, Longevity
from domain.events import EventRef, SourceEventKind
from domain.ports import UnitOfWorkFactory
from domain.telemetry import AuditKind
from tests.builders import OTHER_PRINCIPAL, OWNER, T0, belief, event

LATER = T0 + timedelta(days=1)
FIRST = UUID("00000000-0000-4000-8000-000000000001")
SECOND = UUID("ffffffff-0000-4000-8000-000000000002")


def test_events_page_reads_every_session_of_the_owner_in_key_order_and_nothing_else(
    uow_factory: UnitOfWorkFactory,
) -> None:
    with uow_factory() as uow:
        uow.events.append([event(s, session_id=SECOND) for s in (2, 1)])
        uow.events.append([event(s, session_id=FIRST) for s in (1, 2, 3)])
        uow.events.append([event(1, owner=OTHER_PRINCIPAL, session_id=FIRST)])
        uow.commit()
    read: list[tuple[UUID, int]] = []
    after: EventRef | None = None
    with uow_factory() as uow:
        for _ in range(10):
            page = uow.events.page(OWNER, after, 2)
            read += [(e.session_id, e.seq) for e in page]
            if len(page) < 2:
                break
            after = EventRef(session_id=page[-1].session_id, seq=page[-1].seq)
    assert read == [(FIRST, 1), (FIRST, 2), (FIRST, 3), (SECOND, 1), (SECOND, 2)]


@pytest.mark.parametrize(
    "kind",
    [
        k
        for k in SourceEventKind
        if k not in (SourceEventKind.USER_MESSAGE, SourceEventKind.PAIRED_SURFACE_MESSAGE)
    ],
)
def test_a_remember_sourced_from_words_not_the_owners_is_refused_and_stores_nothing(
    uow_factory: UnitOfWorkFactory, kind: SourceEventKind
) -> None:
    with uow_factory() as uow:
        uow.events.append(
            [event(1, session_id=FIRST), event(2, "Coffee is great.", session_id=FIRST, kind=kind)]
        )
        uow.commit()
    governed = GovernedMemory(uow_factory)

    def remember(seq: int) -> GovernedOutcome:
        return governed.remember(
            OWNER,
            request_id=uuid4(),
            subject="preference:coffee",
            statement="User prefers coffee.",
            claim_kind=ClaimKind.PREFERENCE,
            source=EventRef(session_id=FIRST, seq=seq),
            now=LATER,
        ).outcome

    assert remember(2) is GovernedOutcome.SOURCE_NOT_USER
    assert remember(3) is GovernedOutcome.NOT_FOUND
    with uow_factory() as uow:
        assert uow.beliefs.page(OWNER, None, 10, live_only=False) == []
        assert uow.audits.for_owner(OWNER, AuditKind.GOVERNED_WRITE) == []
    assert remember(1) is GovernedOutcome.APPLIED


def test_a_delete_after_a_reject_says_the_belief_is_already_closed_as_rejected_and_changes_nothing(
    uow_factory: UnitOfWorkFactory,
) -> None:
    wrong, gone = belief(statement="User likes jazz."), belief(statement="User likes opera.")
    with uow_factory() as uow:
        uow.beliefs.upsert_many([wrong, gone])
        uow.commit()
    governed = GovernedMemory(uow_factory)
    rejecting = uuid4()

    rejected = governed.reject(OWNER, wrong.id, request_id=rejecting, now=LATER)
    retried = governed.reject(OWNER, wrong.id, request_id=rejecting, now=LATER)
    deleted_after = governed.delete(OWNER, wrong.id, request_id=uuid4(), now=LATER)
    deleted = governed.delete(OWNER, gone.id, request_id=uuid4(), now=LATER)
    deleted_again = governed.delete(OWNER, gone.id, request_id=uuid4(), now=LATER)
    rejected_after = governed.reject(OWNER, gone.id, request_id=uuid4(), now=LATER)

    assert (rejected.outcome, retried.outcome) == (GovernedOutcome.APPLIED, GovernedOutcome.ALREADY_APPLIED)
    assert (deleted_after.outcome, deleted_after.belief_id, deleted_after.closed_as) == (
        GovernedOutcome.ALREADY_CLOSED,
        wrong.id,
        ClosedReason.REJECTED,
    )
    assert (deleted.outcome, deleted_again.outcome) == (
        GovernedOutcome.APPLIED,
        GovernedOutcome.ALREADY_APPLIED,
    )
    assert (rejected_after.outcome, rejected_after.closed_as) == (
        GovernedOutcome.ALREADY_CLOSED,
        ClosedReason.DELETED,
    )
    with uow_factory() as uow:
        still = uow.beliefs.get(OWNER, wrong.id)
        audits = uow.audits.for_owner(OWNER, AuditKind.GOVERNED_WRITE)
    assert still is not None and still.closed_reason is ClosedReason.REJECTED
    assert sorted(str(a.details["action"]) for a in audits) == ["delete", "reject"]


def test_an_edit_or_confirm_of_a_closed_belief_says_it_is_already_closed_and_by_which_act(
    uow_factory: UnitOfWorkFactory,
) -> None:
    wrong, reworded = belief(statement="User likes jazz."), belief(statement="User likes opera.")
    with uow_factory() as uow:
        uow.beliefs.upsert_many([wrong, reworded])
        uow.commit()
    governed = GovernedMemory(uow_factory)
    editing = uuid4()

    governed.reject(OWNER, wrong.id, request_id=uuid4(), now=LATER)
    edited = governed.edit(OWNER, reworded.id, request_id=editing, statement="User likes ballet.", now=LATER)
    retried = governed.edit(OWNER, reworded.id, request_id=editing, statement="User likes ballet.", now=LATER)
    after_reject = [
        governed.edit(OWNER, wrong.id, request_id=uuid4(), statement="User likes blues.", now=LATER),
        governed.confirm(OWNER, wrong.id, request_id=uuid4(), now=LATER),
    ]
    after_edit = [
        governed.edit(OWNER, reworded.id, request_id=uuid4(), statement="User likes tango.", now=LATER),
        governed.confirm(OWNER, reworded.id, request_id=uuid4(), now=LATER),
    ]
    foreign = governed.edit(OTHER_PRINCIPAL, wrong.id, request_id=uuid4(), statement="x", now=LATER)

    assert edited.outcome is GovernedOutcome.APPLIED
    assert (retried.outcome, retried.belief_id) == (GovernedOutcome.ALREADY_APPLIED, edited.belief_id)
    assert [(r.outcome, r.belief_id, r.closed_as) for r in after_reject] == [
        (GovernedOutcome.ALREADY_CLOSED, wrong.id, ClosedReason.REJECTED)
    ] * 2
    assert [(r.outcome, r.belief_id, r.closed_as) for r in after_edit] == [
        (GovernedOutcome.ALREADY_CLOSED, reworded.id, ClosedReason.EDITED)
    ] * 2
    assert foreign.outcome is GovernedOutcome.NOT_FOUND
    with uow_factory() as uow:
        live = uow.beliefs.page(OWNER, None, 10)
        audits = uow.audits.for_owner(OWNER, AuditKind.GOVERNED_WRITE)
    assert [b.statement for b in live] == ["User likes ballet."]
    assert sorted(str(a.details["action"]) for a in audits) == ["edit", "reject"]


def test_confirming_a_guess_supersedes_it_with_a_remembered_belief_that_keeps_its_spans(
    uow_factory: UnitOfWorkFactory,
) -> None:
    guess_id, source = uuid4(), EventRef(session_id=FIRST, seq=1)
    span = SourceSpan(session_id=source.session_id, seq=source.seq, text="I fix my own bikes")
    guess = belief(
        id=guess_id,
        statement="User likely repairs bicycles.",
        claim_kind=ClaimKind.SKILL,
        derivation=Derivation.HYPOTHESIS,
        longevity=Longevity.TENTATIVE,
        confidence=0.35,
        source_event_ids=(source,),
        evidence_spans=(span,),
    )
    with uow_factory() as uow:
        uow.beliefs.upsert(guess)
        uow.commit()
    governed = GovernedMemory(uow_factory)
    request = uuid4()

    first = governed.confirm(OWNER, guess_id, request_id=request, now=LATER)
    again = governed.confirm(OWNER, guess_id, request_id=request, now=LATER)
    foreign = governed.confirm(OTHER_PRINCIPAL, guess_id, request_id=uuid4(), now=LATER)

    assert first.outcome is GovernedOutcome.APPLIED and first.belief_id is not None
    assert (again.outcome, again.belief_id) == (GovernedOutcome.ALREADY_APPLIED, first.belief_id)
    assert foreign.outcome is GovernedOutcome.NOT_FOUND
    with uow_factory() as uow:
        old = uow.beliefs.get(OWNER, guess_id)
        new = uow.beliefs.get(OWNER, first.belief_id)
        audits = uow.audits.for_owner(OWNER, AuditKind.GOVERNED_WRITE)
    assert old is not None and old.closed_reason is ClosedReason.SUPERSEDED
    assert new is not None and new.valid_to is None
    assert (new.statement, new.claim_kind, new.derivation, new.authority) == (
        "User likely repairs bicycles.",
        ClaimKind.SKILL,
        Derivation.DIRECT,
        Authority.EXPLICIT_REMEMBER,
    )
    assert new.evidence_spans == (span,) and new.source_event_ids == (source,)
    assert [a.details["action"] for a in audits] == ["confirm"]


def test_erasure_at_the_owners_request_removes_everything_of_theirs_and_leaves_one_content_free_audit(
    uow_factory: UnitOfWorkFactory,
) -> None:
    words = "I keep my savings in a jar under the floorboards."
    with uow_factory() as uow:
        uow.events.append([event(1, words, session_id=FIRST)])
        uow.events.append([event(1, words, owner=OTHER_PRINCIPAL, session_id=FIRST)])
        uow.beliefs.upsert(belief(statement="User keeps savings at home."))
        uow.beliefs.upsert(belief(owner=OTHER_PRINCIPAL, statement="User keeps savings at home."))
        uow.commit()
    governed = GovernedMemory(uow_factory)
    request = uuid4()

    first = governed.erase(OWNER, request_id=request, now=LATER)
    repeated = governed.erase(OWNER, request_id=request, now=LATER)
    with uow_factory() as uow:
        uow.events.append([event(2, "I moved to Porto.", session_id=FIRST)])
        uow.commit()
    second = governed.erase(OWNER, request_id=uuid4(), now=LATER)

    assert first.outcome is GovernedOutcome.APPLIED and first.counts is not None
    assert (first.counts.events, first.counts.beliefs) == (1, 1)
    assert (repeated.outcome, repeated.counts) == (GovernedOutcome.ALREADY_APPLIED, None)
    assert second.counts is not None and (second.counts.events, second.counts.beliefs) == (1, 0)
    with uow_factory() as uow:
        assert uow.events.page(OWNER, None, 10) == []
        assert uow.beliefs.page(OWNER, None, 10, live_only=False) == []
        audits = uow.audits.for_owner(OWNER)
        assert len(uow.events.page(OTHER_PRINCIPAL, None, 10)) == 1
        assert len(uow.beliefs.page(OTHER_PRINCIPAL, None, 10)) == 1
    # Each erasure leaves its own audit, and an audit never quotes the person.
    assert sorted((a.details["action"], a.details["events"]) for a in audits) == [("erase", 1), ("erase", 1)]
    assert all(a.kind is AuditKind.GOVERNED_WRITE for a in audits)
    assert not any(w in json.dumps([a.model_dump(mode="json") for a in audits]) for w in ("savings", "Porto"))
