"""An owner's nearest beliefs, one statement: an exact scan of the owner's rows for an owner holding at most
EXACT_NEAREST_UP_TO live beliefs, the HNSW index (with pgvector's iterative scan) for a larger one, and only
that branch runs (and the exact scan after a walk that finds fewer than k); k rows whenever k exist, in the
exact order for a small owner, most of the true nearest for a large one."""

import numpy as np
import pytest
from sqlalchemy import Engine, text

from adapters.embeddings.wordllama_embedder import MODEL
from adapters.postgres.repositories import beliefs as belief_repository
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
QUERIES = 5


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


def _params(owner: Owner, query: list[float], k: int) -> dict[str, object]:
    return {
        "tenant_id": owner.tenant_id,
        "principal_id": owner.principal_id,
        "sensitivities": sorted(s.value for s in EVERY),
        "model": MODEL,
        "vector": "[" + ",".join(f"{x:.7g}" for x in query) + "]",
        "limit": k,
        "ef_search": "100",
    }


def _executed_plan(engine: Engine, owner: Owner, exact_up_to: int, k: int) -> str:
    [query] = _unit(np.random.default_rng(3), 1).tolist()
    with engine.begin() as connection:
        return "\n".join(
            row[0]
            for row in connection.execute(
                text("EXPLAIN (ANALYZE, COSTS OFF) " + str(nearest_statement((MODEL, 256)))),
                _params(owner, query, k) | {"exact_up_to": exact_up_to},
            )
        )


def _ran(plan: str) -> tuple[bool, bool]:
    """Whether the walk (its scan, the index's or a sort of the table: the planner's choice in a small one)
    and the exact scan of the owner's rows each read any row."""
    walked = plan[plan.index("CTE walked") : plan.index("CTE near")]
    walk_scan = next(
        line for line in walked.splitlines() if "Scan on beliefs" in line or "Scan using" in line
    )
    exact_scan = next(line for line in plan.splitlines() if "on beliefs beliefs_2" in line)
    return "never executed" not in walk_scan, "never executed" not in exact_scan


@pytest.mark.parametrize(
    ("owner", "exact_up_to", "k", "ran"),
    [
        (OWNER, MINE, 10, (False, True)),
        (LARGE, LARGE_ROWS, 10, (False, True)),
        (LARGE, LARGE_ROWS - 1, 10, (True, False)),
        # the walk finds fewer than k: the exact scan runs after it
        (LARGE, LARGE_ROWS - 1, LARGE_ROWS + 1, (True, True)),
    ],
)
def test_one_statement_runs_the_exact_scan_or_the_index_walk(
    store: PostgresStore,
    clean_postgres: Engine,
    owner: Owner,
    exact_up_to: int,
    k: int,
    ran: tuple[bool, bool],
) -> None:
    assert _ran(_executed_plan(clean_postgres, owner, exact_up_to, k)) == ran


@pytest.mark.parametrize(
    ("owner", "k", "exact_up_to"),
    [
        (OWNER, 1, belief_repository.EXACT_NEAREST_UP_TO),
        (OWNER, 10, belief_repository.EXACT_NEAREST_UP_TO),
        (OWNER, MINE, belief_repository.EXACT_NEAREST_UP_TO),
        (LARGE, 10, belief_repository.EXACT_NEAREST_UP_TO),
        (LARGE, 100, belief_repository.EXACT_NEAREST_UP_TO),
        (LARGE, 10, LARGE_ROWS - 1),
        (LARGE, 100, LARGE_ROWS - 1),
    ],
)
def test_k_rows_come_back_whenever_k_live_beliefs_exist(
    store: PostgresStore, monkeypatch: pytest.MonkeyPatch, owner: Owner, k: int, exact_up_to: int
) -> None:
    monkeypatch.setattr(belief_repository, "EXACT_NEAREST_UP_TO", exact_up_to)
    walked = owner == LARGE and exact_up_to < LARGE_ROWS
    shared = 0
    for seed in range(QUERIES):
        [query] = _unit(np.random.default_rng(11 + seed), 1).tolist()
        with store() as uow:
            near = uow.beliefs.nearest(owner, MODEL, query, k, EVERY)
        with store() as uow:
            exact = uow.beliefs._plain_rows(nearest_statement(None), _params(owner, query, k))  # type: ignore[attr-defined]
        assert len(near) == k
        found = [n.inputs.id for n in near]
        if not walked:  # the exact scan: the exact order
            assert found == [row[0] for row in exact]
        assert len(set(found)) == k
        assert [n.similarity for n in near] == sorted((n.similarity for n in near), reverse=True)
        shared += len(set(found) & {row[0] for row in exact})
    # the index is approximate (random vectors are its hardest case): most of the true nearest
    assert shared >= 0.7 * k * QUERIES
