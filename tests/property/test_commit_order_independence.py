"""Order independence: the live beliefs after consolidating a set of sessions are the same whatever order
the sessions commit in. Where one wording of a claim replaces another, the later evidence decides (then
the session id, then the seq), never which commit came first. A stated correction ("I'm no longer
vegetarian") ends what was said before it and nothing said after it, whichever session commits first.

Seen before: 30 sessions of one principal saying "My favourite food is X", dated minutes apart, left a
different favourite depending on which session committed first, and the latest-dated never won.
"""

import random
from datetime import timedelta
from typing import Any
from uuid import UUID

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.memory.store import InMemoryStore
from domain.events import EventRef
from domain.owner import Owner
from domain.ports import UnitOfWorkFactory
from tests.builders import FAVOURITE_FOODS, OWNER, T0, event
from tests.pipeline import consolidate

FOODS = FAVOURITE_FOODS[:7]
# Conflicting claims of a few slots that never match across slots: which claims are one claim does not
# depend on order (a chain of pairwise matches that is not transitive, like "favourite dish is sushi" ~
# "favourite food is sushi" ~ "favourite food is ramen", is grouped greedily and is out of scope here).
SLOTS = st.one_of(
    st.tuples(st.just("My favourite food is {}."), st.sampled_from(FOODS)),
    st.tuples(st.just("My favourite colour is {}."), st.sampled_from(["red", "teal", "ochre", "violet"])),
    st.tuples(st.just("I live in {}."), st.sampled_from(["Lisbon", "Porto", "Braga", "Faro"])),
)

# One session: (its id's last digits, the minutes after T0 it was said at, its statements).
sessions = st.lists(
    st.tuples(
        st.integers(0, 10**6),
        st.integers(0, 300),
        st.lists(SLOTS, min_size=1, max_size=3),
    ),
    min_size=2,
    max_size=5,
    unique_by=lambda s: s[0],
)


# Claims the rule-based former states and retracts: (the assertion, its correction).
CORRECTED = [
    ("I am vegetarian.", "I'm no longer vegetarian."),
    ("I play chess.", "I don't play chess anymore."),
    ("I live in {}.", "I no longer live in {}."),
    ("I drink coffee.", "I stopped drinking coffee."),
    ("I work at Acme.", "I no longer work at Acme."),
]


def _said_or_corrected(said: bool, claim: tuple[str, str], place: str) -> tuple[str, str]:
    """A statement in _live's (template, filler) shape: the claim, or its correction."""
    return ("{}", claim[0 if said else 1].format(place))


SAID_OR_CORRECTED = st.builds(
    _said_or_corrected,
    # Two claims to each correction.
    st.sampled_from([True, True, False]),
    st.sampled_from(CORRECTED),
    st.sampled_from(["Lisbon", "Porto"]),
)
corrected_sessions = st.lists(
    st.tuples(
        st.integers(0, 10**6),
        # Few distinct times, so a correction and a claim are often said at the same minute.
        st.integers(0, 6).map(lambda n: 10 * n),
        st.lists(SAID_OR_CORRECTED, min_size=1, max_size=3),
    ),
    min_size=2,
    max_size=5,
    unique_by=lambda s: s[0],
)


def _live(
    uow_factory: UnitOfWorkFactory,
    drawn: list[tuple[int, int, list[tuple[str, str]]]],
    order: list[int],
    owner: Owner = OWNER,
) -> Any:
    ids = {tag: UUID(int=tag + 1) for tag, _, _ in drawn}
    with uow_factory() as uow:
        for tag, minutes, said in drawn:
            uow.events.append(
                [
                    event(seq, template.format(food), owner=owner, session_id=ids[tag]).model_copy(
                        update={"occurred_at": T0 + timedelta(minutes=minutes, seconds=seq)}
                    )
                    for seq, (template, food) in enumerate(said, start=1)
                ]
            )
        uow.commit()
    for index in order:
        consolidate(uow_factory, owner, ids[drawn[index][0]], None, now=T0 + timedelta(days=1))
    with uow_factory() as uow:
        beliefs = uow.beliefs.page(owner, None, 1_000)
    return sorted(
        (
            b.subject,
            b.statement,
            b.claim_kind,
            b.derivation,
            b.last_evidence_at,
            b.corroboration_count,
            frozenset(b.source_event_ids),
        )
        for b in beliefs
    )


def _same_in_a_shuffled_order(drawn: list[tuple[int, int, list[tuple[str, str]]]], seed: int) -> None:
    shuffled = list(range(len(drawn)))
    random.Random(seed).shuffle(shuffled)
    in_order = _live(InMemoryStore(clock=lambda: T0), drawn, list(range(len(drawn))))
    assert _live(InMemoryStore(clock=lambda: T0), drawn, shuffled) == in_order


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=sessions, seed=st.integers(0, 2**32 - 1))
def test_the_live_beliefs_do_not_depend_on_the_order_sessions_commit_in(
    drawn: list[tuple[int, int, list[tuple[str, str]]]], seed: int
) -> None:
    _same_in_a_shuffled_order(drawn, seed)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=corrected_sessions, seed=st.integers(0, 2**32 - 1))
def test_corrections_end_what_was_said_before_them_in_every_commit_order(
    drawn: list[tuple[int, int, list[tuple[str, str]]]], seed: int
) -> None:
    _same_in_a_shuffled_order(drawn, seed)


def test_a_correction_ends_the_claim_said_before_it_and_not_the_one_said_after_in_every_order(
    uow_factory: UnitOfWorkFactory,
) -> None:
    """Vegetarian at 10:00 (session 1), no longer at 10:30 (session 2), vegetarian again at 11:00 (session
    3), on PostgreSQL and in memory: in every commit order one live belief, resting on the 11:00 statement
    alone; without the restatement, none."""
    said = [
        (0, [("{}", "I am vegetarian.")]),
        (30, [("{}", "I'm no longer vegetarian.")]),
        (60, [("{}", "I am vegetarian.")]),
    ]
    orders = [[0, 1, 2], [2, 1, 0], [1, 0, 2], [0, 2, 1], [2, 0, 1], [1, 2, 0], [0, 1], [1, 0]]
    for n, order in enumerate(orders):
        # Each order on its own principal's fresh sessions (tags n*10 + 1.. name them).
        drawn = [(10 * n + i, minutes, statements) for i, (minutes, statements) in enumerate(said, start=1)]
        drawn = drawn[: len(order)]
        owner = Owner(tenant_id=OWNER.tenant_id, principal_id=f"p-correction-{n}")
        live = _live(uow_factory, drawn, order, owner)
        if len(order) == 2:
            assert live == [], order
            continue
        [(_, statement, *_, corroborated, sources)] = live
        restated = EventRef(session_id=UUID(int=10 * n + 3 + 1), seq=1)
        assert (statement, corroborated, sources) == ("User is vegetarian.", 1, frozenset({restated})), order


def test_a_claim_said_around_a_correction_rests_on_what_came_after_it_in_either_order() -> None:
    """One session says "vegetarian" at 10:00:01 and again at 10:00:03; another corrects it at 10:00:02.
    The two statements are one candidate of their segment: only the later one may carry the belief."""
    drawn = [
        (1, 0, [("{}", "I am vegetarian."), ("{}", "I play chess."), ("{}", "I am vegetarian.")]),
        (2, 0, [("{}", "I play chess."), ("{}", "I'm no longer vegetarian.")]),
    ]
    first, second = UUID(int=2), UUID(int=3)
    for order in ([0, 1], [1, 0]):
        live = {statement: sources for _, statement, *_, sources in _live(InMemoryStore(), drawn, order)}
        assert live == {
            "User is vegetarian.": frozenset({EventRef(session_id=first, seq=3)}),
            "User plays chess.": frozenset(
                {EventRef(session_id=first, seq=2), EventRef(session_id=second, seq=1)}
            ),
        }, order


def test_the_latest_dated_wording_wins_in_every_commit_order(uow_factory: UnitOfWorkFactory) -> None:
    """Thirty sessions, seven minutes apart, on PostgreSQL and in memory, committed in three orders."""
    foods = FAVOURITE_FOODS
    drawn = [(i, 7 * i, [("My favourite food is {}.", food)]) for i, food in enumerate(foods)]
    orders = [list(range(30)), list(reversed(range(30))), random.Random(7).sample(range(30), 30)]
    results = []
    for n, order in enumerate(orders):
        # Each order on its own principal's fresh sessions: the same statements, a clean memory.
        tagged = [(tag + 1_000 * n, minutes, said) for tag, minutes, said in drawn]
        owner = Owner(tenant_id=OWNER.tenant_id, principal_id=f"p-order-{n}")
        # The sessions' ids differ by order: compare what each belief says, when, and how corroborated.
        results.append([belief[:6] for belief in _live(uow_factory, tagged, order, owner)])
    assert results[0] == results[1] == results[2]
    assert [statement for _, statement, *_ in results[0]] == [f"User's favourite food is {foods[-1]}."]
