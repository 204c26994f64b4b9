"""An owner's nearest beliefs: through the HNSW index (with pgvector's iterative scan) for an owner holding
many of the indexed rows, by an exact scan of the owner's rows for one holding few (the planner's choice:
a plain HNSW scan filtered afterwards would return fewer than k); k rows whenever k exist, and the same rows
an exact scan finds."""

import numpy as np
import pytest
from sqlalchemy import Engine, text

from adapters.embeddings.wordllama_embedder import MODEL
from adapters.postgres.repositories.belief_statements import nearest_statement
from adapters.postgres.uow import PostgresStore
from domain.beliefs.embedding import PendingEmbedding
from domain.beliefs.relevance import within
from domain.candidates import Sensitivity
from domain.owner import Owner
from tests.builders import OWNER, belief

pytestmark = pytest.mark.postgres

EVERY = within(Sensitivity.RESTRICTED)
OTHERS = 10
PER_OTHER = 200
MINE = 12
LARGE = Owner(tenant_id="t-large", principal_id="p-large")
LARGE_ROWS = 2_000


def _unit(rng: np.random.Generator, count: int) -> np.ndarray:
    vectors = rng.normal(size=(count, 256))
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


@pytest.fixture
def store(clean_postgres: Engine) -> PostgresStore:
    rng = np.random.default_rng(7)
    owners = (
        [OWNER] * MINE
        + [LARGE] * LARGE_ROWS
        + [Owner(tenant_id="t-other", principal_id=f"p{i}") for i in range(OTHERS) for _ in range(PER_OTHER)]
    )
    records = [
        belief(owner=o, subject=f"topic:{i}", statement=f"User said {i}.") for i, o in enumerate(owners)
    ]
    vectors = _unit(rng, len(records))
    factory = PostgresStore(clean_postgres)
    with factory() as uow:
        uow.beliefs.upsert_many(records)
        work = [
            PendingEmbedding(
                r.id, Owner(tenant_id=r.tenant_id, principal_id=r.principal_id), r.subject, r.statement
            )
            for r in records
        ]
        assert uow.beliefs.store_embeddings(MODEL, list(zip(work, vectors.tolist(), strict=True))) == len(
            records
        )
        uow.commit()
    with clean_postgres.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text("ANALYZE beliefs"))
    return factory


def _plan(engine: Engine, owner: Owner) -> str:
    with engine.begin() as connection:
        return "\n".join(
            row[0]
            for row in connection.execute(
                text("EXPLAIN " + str(nearest_statement(256))),
                {
                    "tenant_id": owner.tenant_id,
                    "principal_id": owner.principal_id,
                    "sensitivities": sorted(s.value for s in EVERY),
                    "model": MODEL,
                    "vector": "[" + ",".join(["0.0625"] * 256) + "]",
                    "limit": 10,
                },
            )
        )


def test_the_planner_reads_the_index_for_a_large_owner_and_scans_a_small_one(
    store: PostgresStore, clean_postgres: Engine
) -> None:
    assert "beliefs_embedding_wordllama_hnsw" in _plan(clean_postgres, LARGE)
    assert "beliefs_embedding_wordllama_hnsw" not in _plan(clean_postgres, OWNER)


@pytest.mark.parametrize(("owner", "k"), [(OWNER, 1), (OWNER, 10), (OWNER, MINE), (LARGE, 10), (LARGE, 100)])
def test_k_rows_come_back_whenever_k_live_beliefs_exist(store: PostgresStore, owner: Owner, k: int) -> None:
    [query] = _unit(np.random.default_rng(11), 1).tolist()
    with store() as uow:
        near = uow.beliefs.nearest(owner, MODEL, query, k, EVERY)
    with store() as uow:
        exact = uow.beliefs._plain_rows(  # type: ignore[attr-defined]
            nearest_statement(None),
            {
                "tenant_id": owner.tenant_id,
                "principal_id": owner.principal_id,
                "sensitivities": sorted(s.value for s in EVERY),
                "model": MODEL,
                "vector": "[" + ",".join(f"{x:.7g}" for x in query) + "]",
                "limit": k,
            },
        )
    assert len(near) == k
    found = [n.inputs.id for n in near]
    if owner == OWNER:  # the exact scan
        assert found == [row[0] for row in exact]
    else:  # the index is approximate (random vectors are its hardest case): most of the true nearest
        assert len(set(found) & {row[0] for row in exact}) >= 0.7 * k
        assert len(set(found)) == k
        assert [n.similarity for n in near] == sorted((n.similarity for n in near), reverse=True)
