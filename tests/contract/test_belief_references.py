"""A short reference (m:xxxxxxxx) resolves by one range of the id order, on every store."""

from datetime import timedelta
from uuid import UUID

import pytest

from domain.beliefs.records import ClosedReason
from domain.beliefs.retrieval import ref_id_range, short_ref
from domain.ports import UnitOfWorkFactory
from tests.builders import OTHER_PRINCIPAL, OWNER, T0, belief


def test_in_id_range_returns_the_owners_beliefs_live_or_closed_inside_the_range(
    uow_factory: UnitOfWorkFactory,
) -> None:
    inside = [UUID("8f21a0c3-0000-4000-8000-000000000001"), UUID("8f21a0c3-ffff-4fff-bfff-ffffffffffff")]
    closed = belief(id=UUID("8f21a0c3-1234-4000-8000-000000000000")).closed(
        T0 + timedelta(days=1), ClosedReason.RETRACTED
    )
    outside = belief(id=UUID("8f21a0c4-0000-4000-8000-000000000000"))
    foreign = belief(id=UUID("8f21a0c3-5555-4000-8000-000000000000"), owner=OTHER_PRINCIPAL)
    with uow_factory() as uow:
        for record in [*(belief(id=i) for i in inside), closed, outside, foreign]:
            uow.beliefs.upsert(record)
        uow.commit()
    first, last = ref_id_range(short_ref(inside[0]))
    with uow_factory() as uow:
        found = uow.beliefs.in_id_range(OWNER, first, last, 10)
        capped = uow.beliefs.in_id_range(OWNER, first, last, 2)
    assert [r.id for r in found] == sorted([*inside, closed.id])
    assert [r.id for r in capped] == sorted([*inside, closed.id])[:2]


@pytest.mark.parametrize("reference", ["m:8f21a0c", "m:8f21a0cz", "8f21", "", "m:" + "0" * 33])
def test_a_reference_too_short_or_not_hexadecimal_is_refused(reference: str) -> None:
    with pytest.raises(ValueError, match="not a belief reference"):
        ref_id_range(reference)


def test_a_full_id_is_a_range_of_one() -> None:
    belief_id = UUID("8f21a0c3-0000-4000-8000-000000000001")
    assert ref_id_range(str(belief_id)) == (belief_id, belief_id)
    assert ref_id_range("M:8F21A0C3") == (
        UUID("8f21a0c3-0000-0000-0000-000000000000"),
        UUID("8f21a0c3-ffff-ffff-ffff-ffffffffffff"),
    )
