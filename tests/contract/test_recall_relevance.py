"""Query-relevant recall, kept evidence spans and event facts: one contract over both stores."""

from datetime import timedelta
from typing import Any
from uuid import UUID, uuid4

from domain.beliefs.provenance import explain
from domain.beliefs.recall import recall
from domain.beliefs.records import ClosedReason, MemoryRecord, SourceSpan
from domain.beliefs.relevance import (
    MATCHES_PER_TERM,
    RELEVANCE_POOL,
    Match,
    SearchedTerm,
    query_terms,
    searched_terms,
    within,
)
from domain.candidates import Sensitivity
from domain.events import EventRef, SourceEventKind
from domain.ports import BeliefRepository, UnitOfWorkFactory
from tests.builders import OTHER_PRINCIPAL, OWNER, T0, belief, event

NOW = T0 + timedelta(days=2)


def _store(factory: UnitOfWorkFactory, *records: MemoryRecord) -> None:
    with factory() as uow:
        uow.beliefs.upsert_many(records)
        uow.commit()


def test_without_vectors_a_query_recalls_only_matching_beliefs_one_term_is_enough(uow_factory: UnitOfWorkFactory) -> None:
    climbing = belief(subject="hobby:climbing", statement="User goes bouldering every Tuesday.")
    violin = belief(subject="hobby:violin", statement="User plays the violin in an orchestra.")
    agent = belief()
    _store(uow_factory, climbing, violin, agent)
    with uow_factory() as uow:
        found = recall(uow, OWNER, NOW, 10, query="when do I go bouldering or hiking?")
        assert [b.id for b in found.beliefs] == [climbing.id]
        assert found.trace.query_terms == len(query_terms("when do I go bouldering or hiking?"))
        by_subject = recall(uow, OWNER, NOW, 10, query="violin")
        assert [b.id for b in by_subject.beliefs] == [violin.id]
        # matching no word (and nothing embedded): never empty, retrieval@3's order of every live belief
        nothing = recall(uow, OWNER, NOW, 10, query="sailing")
        assert [b.id for b in nothing.beliefs] == [b.id for b in recall(uow, OWNER, NOW, 10).beliefs]
        assert len(nothing.beliefs) == 3


def test_more_matching_terms_rank_first_and_a_query_without_terms_is_todays_order(
    uow_factory: UnitOfWorkFactory,
) -> None:
    both = belief(subject="travel:japan", statement="User plans a trip to Japan in spring.")
    one = belief(subject="travel:spain", statement="User plans a trip to Spain.", last_evidence_at=NOW)
    _store(uow_factory, both, one)
    with uow_factory() as uow:
        found = recall(uow, OWNER, NOW, 10, query="Japan trip")
        assert [b.id for b in found.beliefs] == [both.id, one.id]
        plain = recall(uow, OWNER, NOW, 10)
        assert [b.id for b in recall(uow, OWNER, NOW, 10, query="I my me").beliefs] == [
            b.id for b in plain.beliefs
        ]


def test_matching_is_scoped_to_the_owner_live_beliefs_and_the_ceiling(uow_factory: UnitOfWorkFactory) -> None:
    mine = belief(subject="hobby:chess", statement="User plays chess online.")
    secret = belief(
        subject="health:chess",
        statement="User plays chess to manage anxiety.",
        sensitivity=Sensitivity.RESTRICTED,
    )
    closed = belief(subject="hobby:chess-club", statement="User joined a chess club.").closed(
        T0, ClosedReason.DELETED
    )
    theirs = belief(owner=OTHER_PRINCIPAL, subject="hobby:chess", statement="User plays chess online.")
    _store(uow_factory, mine, secret, closed, theirs)
    with uow_factory() as uow:
        everything = uow.beliefs.matching(
            OWNER, searched_terms(query_terms("chess")), 10, within(Sensitivity.RESTRICTED)
        )
        assert {m.inputs.id for m in everything} == {mine.id, secret.id}
        ceiling = recall(uow, OWNER, NOW, 10, query="chess", ceiling=Sensitivity.SENSITIVE)
        assert [b.id for b in ceiling.beliefs] == [mine.id]
        assert [i.id for i in uow.beliefs.ranking_page(OWNER, None, 10, within(Sensitivity.SENSITIVE))] == [
            mine.id
        ]


def test_evidence_spans_and_event_facts_make_the_provenance(uow_factory: UnitOfWorkFactory) -> None:
    session = uuid4()
    said = event(session_id=session, seq=3, text="I'm building a personal AI agent these days.")
    record = belief(
        source_event_ids=(EventRef(session_id=session, seq=3), EventRef(session_id=session, seq=9)),
        evidence_spans=(SourceSpan(session_id=session, seq=3, text="building a personal AI agent"),),
    )
    _store(uow_factory, record)
    with uow_factory() as uow:
        uow.events.append([said])
        uow.commit()
    with uow_factory() as uow:
        assert uow.beliefs.get(OWNER, record.id) == record
        facts = uow.events.facts(OWNER, record.source_event_ids)
        assert [(f.seq, f.kind) for f in facts] == [(3, SourceEventKind.USER_MESSAGE)]
        assert uow.events.facts(OTHER_PRINCIPAL, record.source_event_ids) == []
        [view] = explain(uow, OWNER, [record], NOW)
    assert view["provenance"] == [
        {
            "session_id": str(session),
            "seq": 3,
            "kind": "user_message",
            "occurred_at": said.occurred_at.isoformat(),
            "evidence_span": "building a personal AI agent",
        },
        {"session_id": str(session), "seq": 9, "kind": None, "occurred_at": None, "evidence_span": None},
    ]
    assert {"derivation", "longevity", "confidence", "last_evidence_at", "last_used_at"} <= view.keys()


def test_the_pool_is_highest_coverage_then_freshest_evidence(uow_factory: UnitOfWorkFactory) -> None:
    both = belief(subject="food:ramen", statement="User cooks ramen on Sundays.", last_evidence_at=T0)
    fresh = belief(subject="food:soup", statement="User cooks soup.", last_evidence_at=NOW)
    stale = belief(subject="food:stew", statement="User cooks stew.", last_evidence_at=T0 - timedelta(days=9))
    _store(uow_factory, stale, fresh, both)
    with uow_factory() as uow:
        # "do" is a stop word: it finds nothing and counts toward nobody's coverage
        pool = uow.beliefs.matching(
            OWNER,
            (SearchedTerm(("do",)), SearchedTerm(("cooks",)), SearchedTerm(("ramen",))),
            2,
            within(Sensitivity.RESTRICTED),
        )
    assert [(m.inputs.id, m.coverage) for m in pool] == [(both.id, 2), (fresh.id, 1)]


def test_a_query_word_finds_its_family_and_a_family_counts_once(uow_factory: UnitOfWorkFactory) -> None:
    herb = belief(subject="food:dislike", statement="User dislikes coriander.")
    mother = belief(subject="person:mother", statement="User's mother, their mum, lives in Braga.")
    son = belief(subject="person:son", statement="User's son plays football.")
    daughter = belief(subject="person:daughter", statement="User's daughter started school.")
    _store(uow_factory, herb, mother, son, daughter)
    with uow_factory() as uow:
        assert recall(uow, OWNER, NOW, 10, query="Which herb do I hate?").returned_ids == [herb.id]
        kids = recall(uow, OWNER, NOW, 10, query="my kids")
        assert set(kids.returned_ids) == {son.id, daughter.id}
        # narrower words are found from the broader one only: a daughter is not a son
        assert recall(uow, OWNER, NOW, 10, query="my daughter").returned_ids == [daughter.id]
        [found] = uow.beliefs.matching(
            OWNER, searched_terms(query_terms("mum or mother")), 10, within(Sensitivity.RESTRICTED)
        )
    assert (found.inputs.id, found.coverage) == (mother.id, 1)


def test_among_equal_coverage_the_rarer_term_ranks_first(uow_factory: UnitOfWorkFactory) -> None:
    camera = belief(
        subject="hobby:photography",
        statement="User shoots film photography with an old Pentax.",
        last_evidence_at=T0 - timedelta(days=30),
    )
    tools = [
        belief(subject=f"work:tool-{name}", statement=f"User uses {name} at work.", last_evidence_at=NOW)
        for name in ("Jira", "Slack", "Notion")
    ]
    _store(uow_factory, camera, *tools)
    with uow_factory() as uow:
        found = recall(uow, OWNER, NOW, 2, query="Which camera do I use?")
        # "camera" is held by one match of four, "use" by three: the one holding "camera" tells more
        assert found.returned_ids[0] == camera.id
        pool = uow.beliefs.matching(
            OWNER, searched_terms(query_terms("camera use")), 10, within(Sensitivity.RESTRICTED)
        )
    assert [m.coverage for m in pool] == [1, 1, 1, 1]
    assert pool[0].inputs.id == camera.id
    assert pool[0].weight > pool[1].weight == pool[2].weight == pool[3].weight


def test_a_misspelt_query_word_finds_the_word_it_misspells(uow_factory: UnitOfWorkFactory) -> None:
    allergic = belief(subject="health:penicillin", statement="User is allergic to penicillin.")
    allergy = belief(subject="health:peanuts", statement="User has a peanut allergy.")
    birthday = belief(subject="person:birthday", statement="User's birthday is on the 3rd of May.")
    camera = belief(subject="hobby:photography", statement="User shoots with a Pentax.")
    _store(uow_factory, allergic, allergy, birthday, camera)
    with uow_factory() as uow:
        assert set(recall(uow, OWNER, NOW, 10, query="what are my alergies?").returned_ids) == {
            allergic.id,
            allergy.id,
        }
        assert recall(uow, OWNER, NOW, 10, query="when is my brithday").returned_ids == [birthday.id]
        # a correct word the dictionary lacks still finds itself
        assert recall(uow, OWNER, NOW, 10, query="pentax").returned_ids == [camera.id]


def test_stop_words_match_nothing_in_either_store(uow_factory: UnitOfWorkFactory) -> None:
    piano = belief(subject="hobby:piano", statement="User plays piano and guitar.")
    violin = belief(subject="hobby:violin", statement="User plays violin.")
    yoga = belief(subject="habit:yoga", statement="User does yoga.")
    _store(uow_factory, piano, violin, yoga)
    with uow_factory() as uow:
        assert recall(uow, OWNER, NOW, 10, query="violin and cello").returned_ids == [violin.id]
        # "done" is searched; "does" in the statement is a stop word, indexed by neither store
        assert uow.beliefs.matching(OWNER, (SearchedTerm(("done",)),), 10, within(Sensitivity.RESTRICTED)) == []
        pool = uow.beliefs.matching(
            OWNER, (SearchedTerm(("and",)), SearchedTerm(("violin",))), 10, within(Sensitivity.RESTRICTED)
        )
    assert [(m.inputs.id, m.coverage) for m in pool] == [(violin.id, 1)]


def test_semantic_fields_kinds_and_idioms_find_the_same_beliefs_in_either_store(
    uow_factory: UnitOfWorkFactory,
) -> None:
    shellfish = belief(subject="health:allergy", statement="User is allergic to shellfish.")
    prawns = belief(subject="food:seafood", statement="User orders prawns whenever they can.")
    job = belief(subject="work:occupation", statement="User teaches chemistry at a secondary school.")
    home = belief(subject="home:residence", statement="User lives in Leeds.")
    swim = belief(subject="hobby:swimming", statement="User swims outdoors in July and August.")
    band = belief(subject="music:band", statement="User's favourite band is Elbow.")
    _store(uow_factory, shellfish, prawns, job, home, swim, band)
    with uow_factory() as uow:
        # a member of a kind finds the kind; the kind finds its members
        assert set(recall(uow, OWNER, NOW, 10, query="can I eat prawns?").returned_ids) == {
            shellfish.id,
            prawns.id,
        }
        assert set(recall(uow, OWNER, NOW, 10, query="shellfish").returned_ids) == {shellfish.id, prawns.id}
        # "for a living" asks about a job, not about where the user lives
        assert recall(uow, OWNER, NOW, 10, query="what do I do for a living").returned_ids == [job.id]
        assert recall(uow, OWNER, NOW, 10, query="what do I do in the summer").returned_ids == [swim.id]
        assert recall(uow, OWNER, NOW, 10, query="which band do I love").returned_ids == [band.id]
        assert recall(uow, OWNER, NOW, 10, query="which band won't I miss").returned_ids == [band.id]


def test_a_wordnet_relative_finds_a_belief_below_one_holding_the_word_itself(
    uow_factory: UnitOfWorkFactory,
) -> None:
    calls = belief(
        subject="family:sister",
        statement="User's sister Fiona calls every Sunday night.",
        last_evidence_at=NOW,
    )
    phone = belief(subject="tech:device", statement="User's phone is a Pixel 7.")
    music = belief(subject="hobby:listening", statement="User listens to music while cooking.")
    _store(uow_factory, calls, phone, music)
    with uow_factory() as uow:
        # "phone" reads as "call" too (WordNet's call.v.03), but the fresher belief holding only "calls" ranks
        # below the one holding "phone" itself
        assert recall(uow, OWNER, NOW, 10, query="my phone").returned_ids == [phone.id, calls.id]
        # a belief sharing no word with the question: "musician" is derived from "music"
        assert recall(uow, OWNER, NOW, 10, query="which musician").returned_ids == [music.id]


def test_among_equal_matches_the_rarer_word_of_a_family_ranks_first(uow_factory: UnitOfWorkFactory) -> None:
    job = belief(
        subject="work:occupation",
        statement="User teaches chemistry at a secondary school.",
        last_evidence_at=T0 - timedelta(days=30),
    )
    meetings = [
        belief(subject="work:meeting", statement=f"User has a meeting with {name}.", last_evidence_at=NOW)
        for name in ("Ann", "Bo", "Cy")
    ]
    _store(uow_factory, job, *meetings)
    with uow_factory() as uow:
        found = recall(uow, OWNER, NOW, 1, query="What do I do for a living?")
    # all four hold the job family ("work"); only one holds its rarer "occupation"
    assert found.returned_ids == [job.id]


def test_a_question_about_work_or_a_commute_finds_the_occupation_or_the_means(
    uow_factory: UnitOfWorkFactory,
) -> None:
    carpenter = belief(subject="person:husband", statement="User's husband Owen is a carpenter.")
    dinner = belief(subject="social:plan", statement="User is having dinner with Owen on Friday.")
    bike = belief(subject="commute:bike", statement="User cycles to the office on an e-bike.")
    walk = belief(subject="habit:walk", statement="User walks in the park after lunch.")
    _store(uow_factory, carpenter, dinner, bike, walk)
    with uow_factory() as uow:
        # Owen's job first; then what holds "Owen" itself, before what holds only a WordNet relative of "work"
        assert recall(uow, OWNER, NOW, 10, query="What does Owen do for work?").returned_ids == [
            carpenter.id,
            dinner.id,
            bike.id,
        ]
        assert recall(uow, OWNER, NOW, 10, query="how do I get to the office").returned_ids == [bike.id]


def test_a_compound_of_two_query_words_finds_the_word_written_as_one(uow_factory: UnitOfWorkFactory) -> None:
    haircut = belief(
        subject="routine:haircut",
        statement="User gets a haircut every six weeks.",
        last_evidence_at=T0 - timedelta(days=9),
    )
    cuts = [
        belief(subject=subject, statement=statement, last_evidence_at=NOW)
        for subject, statement in (
            ("diet:sugar", "User is trying to cut down on sugar."),
            ("home:garden", "User cut the lawn on Sunday."),
        )
    ]
    _store(uow_factory, haircut, *cuts)
    with uow_factory() as uow:
        found = recall(uow, OWNER, NOW, 10, query="How often do I have my hair cut?")
    # "cut" is held by two fresher matches, "haircut" by one: the rarer term ranks first
    assert found.returned_ids[0] == haircut.id
    assert set(found.returned_ids) == {haircut.id, *(c.id for c in cuts)}


def test_among_equal_matches_the_one_whose_subject_names_the_term_ranks_first(
    uow_factory: UnitOfWorkFactory,
) -> None:
    about = belief(
        subject="hobby:curling",
        statement="User plays at the Leaside club on Wednesday nights.",
        last_evidence_at=T0 - timedelta(days=30),
    )
    mentions = belief(
        subject="social:plan",
        statement="User is watching the curling final with Gus.",
        last_evidence_at=NOW,
    )
    _store(uow_factory, about, mentions)
    with uow_factory() as uow:
        found = recall(uow, OWNER, NOW, 2, query="curling")
    # both hold "curling" once; the older one is about it (its subject's topic names it)
    assert found.returned_ids == [about.id, mentions.id]


def test_among_equal_matches_each_subject_comes_once_before_any_comes_twice(
    uow_factory: UnitOfWorkFactory,
) -> None:
    visits = [
        belief(subject="family:visit", statement=f"User had {name} over for dinner.", last_evidence_at=NOW)
        for name in ("Ann", "Bo", "Cy")
    ]
    roast = belief(
        subject="food:favourite",
        statement="User's favourite dinner is a roast.",
        last_evidence_at=T0 - timedelta(days=30),
    )
    _store(uow_factory, *visits, roast)
    with uow_factory() as uow:
        found = recall(uow, OWNER, NOW, 2, query="dinner")
    # four equal matches of "dinner", three of them one subject: the other subject comes second
    assert found.returned_ids[1] == roast.id
    assert found.returned_ids[0] in {v.id for v in visits}


def test_each_term_reads_a_bounded_number_of_its_holders_and_every_holder_of_a_rarer_one(
    uow_factory: UnitOfWorkFactory,
) -> None:
    common = [
        belief(subject="diet:coffee", statement=f"User drinks coffee number {i}.")
        for i in range(MATCHES_PER_TERM + 10)
    ]
    rare = [belief(subject="travel:city", statement=f"User visited Lisbon in year {i}.") for i in range(2)]
    both = belief(subject="diet:cafe", statement="User drinks coffee in Lisbon.")
    _store(uow_factory, *common, *rare, both)
    with uow_factory() as uow:
        pool = uow.beliefs.matching(
            OWNER,
            searched_terms(query_terms("coffee in Lisbon")),
            2 * MATCHES_PER_TERM,
            within(Sensitivity.RESTRICTED),
        )
    ids = [m.inputs.id for m in pool]
    # "coffee" reads 1,000 of its 1,011 holders; "lisbon" all three of its own, whichever "coffee" read
    assert MATCHES_PER_TERM + 2 <= len(ids) <= MATCHES_PER_TERM + 3
    assert {b.id for b in (*rare, both)} <= set(ids)
    assert (ids[0], pool[0].coverage) == (both.id, 2)


def _coffee_past_the_bound_and_lisbon(
    uow_factory: UnitOfWorkFactory,
) -> tuple[list[MemoryRecord], MemoryRecord, MemoryRecord]:
    """More holders of "coffee" than the bound, one holder of "lisbon", one holder of both."""
    common = [
        belief(subject="diet:coffee", statement=f"User drinks coffee number {i}.")
        for i in range(MATCHES_PER_TERM + 10)
    ]
    rare = belief(subject="travel:city", statement="User visited Lisbon last year.")
    both = belief(subject="diet:cafe", statement="User drinks coffee in Lisbon.")
    _store(uow_factory, *common, rare, both)
    return common, rare, both


def test_a_bounded_read_flags_matches_read_only_through_cut_terms_and_an_unbounded_one_reads_every_holder(
    uow_factory: UnitOfWorkFactory,
) -> None:
    common, rare, both = _coffee_past_the_bound_and_lisbon(uow_factory)
    terms = searched_terms(query_terms("coffee in Lisbon"))
    with uow_factory() as uow:
        bounded = uow.beliefs.matching(OWNER, terms, 2 * MATCHES_PER_TERM, within(Sensitivity.RESTRICTED))
        unbounded = uow.beliefs.matching(
            OWNER, terms, 2 * MATCHES_PER_TERM, within(Sensitivity.RESTRICTED), bounded=False
        )
    flagged = {m.inputs.id for m in bounded if m.by_bound}
    # "coffee" is cut (1,011 holders): the holders read through it alone are flagged, no holder of "lisbon"
    assert flagged == {m.inputs.id for m in bounded} - {rare.id, both.id}
    assert len(flagged) >= MATCHES_PER_TERM - 1
    assert {m.inputs.id for m in unbounded} == {b.id for b in (*common, rare, both)}
    assert not any(m.by_bound for m in unbounded)


def _stale_coffee_then_fresh(uow_factory: UnitOfWorkFactory) -> MemoryRecord:
    """More holders of "coffee" than the bound, the freshest stored last with the highest id: past the bound
    in both stores."""
    stale = [
        belief(
            id=UUID(int=i + 1),
            subject=f"diet:coffee-{i}",
            statement=f"User drinks coffee number {i}.",
            last_evidence_at=T0 - timedelta(days=20),
        )
        for i in range(MATCHES_PER_TERM + 10)
    ]
    fresh = belief(
        id=UUID(int=2**128 - 1),
        subject="diet:coffee",
        statement="User drinks coffee every morning.",
        last_evidence_at=NOW,
    )
    _store(uow_factory, *stale)
    _store(uow_factory, fresh)
    return fresh


def test_recall_reads_every_holder_when_a_bounded_read_decided_its_top(
    uow_factory: UnitOfWorkFactory,
) -> None:
    fresh = _stale_coffee_then_fresh(uow_factory)
    rare = belief(subject="travel:city", statement="User visited Lisbon last year.", last_evidence_at=T0)
    _store(uow_factory, rare)
    with uow_factory() as uow:
        bounded = uow.beliefs.matching(
            OWNER,
            searched_terms(query_terms("coffee in Lisbon")),
            MATCHES_PER_TERM,
            within(Sensitivity.RESTRICTED),
        )
        assert fresh.id not in {m.inputs.id for m in bounded}
        # the second place is decided among the holders of "coffee", the cut term
        assert recall(uow, OWNER, NOW, 2, query="coffee in Lisbon?").returned_ids == [rare.id, fresh.id]


def test_a_bounded_read_whose_every_term_is_cut_reads_every_holder(uow_factory: UnitOfWorkFactory) -> None:
    fresh = _stale_coffee_then_fresh(uow_factory)
    terms = searched_terms(query_terms("coffee"))
    with uow_factory() as uow:
        bounded = uow.beliefs.matching(OWNER, terms, 20, within(Sensitivity.RESTRICTED))
        unbounded = uow.beliefs.matching(OWNER, terms, 20, within(Sensitivity.RESTRICTED), bounded=False)
    assert bounded == unbounded
    assert bounded[0].inputs.id == fresh.id
    assert not any(m.by_bound for m in bounded)
    assert len(bounded) == 20


class _ReadsCounted:
    """The store's beliefs repository, recording each matching read's bound (the store does the reading)."""

    def __init__(self, beliefs: BeliefRepository) -> None:
        self._beliefs = beliefs
        self.bounds: list[bool] = []

    def matching(self, *args: Any, bounded: bool = True) -> list[Match]:
        self.bounds.append(bounded)
        return self._beliefs.matching(*args, bounded=bounded)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._beliefs, name)


def test_recall_reads_once_unless_a_match_in_its_top_was_read_through_some_cut_terms_alone(
    uow_factory: UnitOfWorkFactory,
) -> None:
    _, rare, both = _coffee_past_the_bound_and_lisbon(uow_factory)
    with uow_factory() as uow:
        counted = _ReadsCounted(uow.beliefs)
        uow.beliefs = counted  # type: ignore[misc]  # read-only in the protocol, not in the stores
        assert recall(uow, OWNER, NOW, 2, query="coffee in Lisbon").returned_ids == [both.id, rare.id]
        assert counted.bounds == [True]
        # the third is a holder of "coffee" alone, a cut term: read again unbounded
        recall(uow, OWNER, NOW, 3, query="coffee in Lisbon")
        assert counted.bounds == [True, True, False]
        # every term cut: the first read reads every holder
        recall(uow, OWNER, NOW, 2, query="coffee")
        assert counted.bounds == [True, True, False, True]
        # "sailing" is held by nothing, so every match read is held through the cut "coffee" alone: the
        # first read reads every holder too
        recall(uow, OWNER, NOW, 2, query="coffee or sailing")
        assert counted.bounds == [True, True, False, True, True]


def test_both_stores_match_words_postgresql_stems_alike(uow_factory: UnitOfWorkFactory) -> None:
    lives = belief(subject="family:daughter", statement="User's daughter Leanne lives in Vancouver.")
    manages = belief(subject="work:role", statement="User line-manages six teachers.")
    _store(uow_factory, lives, manages)
    with uow_factory() as uow:
        assert recall(uow, OWNER, NOW, 5, query="living").returned_ids == [lives.id]
        assert recall(uow, OWNER, NOW, 5, query="Am I anyone's boss?").returned_ids == [manages.id]


def test_a_belief_holding_the_query_word_itself_is_pooled_before_newer_ones_holding_only_a_relative(
    uow_factory: UnitOfWorkFactory,
) -> None:
    calls = [
        belief(
            subject=f"family:call-{i}", statement=f"User's cousin {i} calls on Sundays.", last_evidence_at=NOW
        )
        for i in range(RELEVANCE_POOL + 1)
    ]
    phone = belief(subject="tech:device", statement="User's phone is a Pixel 7.", last_evidence_at=T0)
    _store(uow_factory, *calls, phone)
    with uow_factory() as uow:
        # every match holds "phone"'s term once, the newer ones only through its WordNet relative "call"
        pool = uow.beliefs.matching(
            OWNER, searched_terms(query_terms("my phone")), RELEVANCE_POOL, within(Sensitivity.RESTRICTED)
        )
        assert (pool[0].inputs.id, pool[0].coverage, pool[0].direct) == (phone.id, 1, 1)
        assert [m.direct for m in pool[1:3]] == [0, 0]
        assert recall(uow, OWNER, NOW, 1, query="my phone").returned_ids == [phone.id]


def test_a_term_samples_the_holders_of_its_own_words_apart_from_those_of_its_relatives(
    uow_factory: UnitOfWorkFactory,
) -> None:
    # more newer holders of a relative ("calls") than the bound, stored first with the lowest ids, and the one
    # holder of "phone" itself stored last with the highest id: past the bound of one sample in both stores
    calls = [
        belief(
            id=UUID(int=i + 1),
            subject=f"family:call-{i}",
            statement=f"User's cousin {i} calls on Sundays.",
            last_evidence_at=NOW,
        )
        for i in range(MATCHES_PER_TERM + 10)
    ]
    # a rarer term held only through its relative ("guitar": "ukulele") outweighs "phone"'s term
    ukulele = belief(subject="hobby:music", statement="User took up the ukulele.", last_evidence_at=NOW)
    phone = belief(
        id=UUID(int=2**128 - 1),
        subject="tech:device",
        statement="User's phone is a Pixel 7.",
        last_evidence_at=T0,
    )
    _store(uow_factory, *calls, ukulele)
    _store(uow_factory, phone)
    with uow_factory() as uow:
        pool = uow.beliefs.matching(
            OWNER, searched_terms(query_terms("phone guitar")), RELEVANCE_POOL, within(Sensitivity.RESTRICTED)
        )
        assert (pool[0].inputs.id, pool[0].direct, pool[0].by_bound) == (phone.id, 1, False)
        assert recall(uow, OWNER, NOW, 1, query="phone guitar").returned_ids == [phone.id]
