"""Recall's words read scans beliefs_owner_words_live by the owner's words' posting lists alone (each key an
owner's lexeme), the owner compared on each row read; before that index is built, beliefs_owner_search_live
by the principal's and the words' posting lists only: the tenant's list (every principal's rows of the
tenant, the longest of all) is left out of the index scan, and the tenant is compared on each row read
instead."""

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, text

from adapters.postgres.repositories.belief_statements import matching_statement
from domain.beliefs.relevance import within
from domain.candidates import Sensitivity
from tests.postgres.plans import plan_nodes, seeded_engine

pytestmark = pytest.mark.postgres

ROWS = 20_000

_SEED = text(
    """
    INSERT INTO beliefs (id, tenant_id, principal_id, belief_type, statement, subject, confidence, source_events,
                         valid_from, formation_version, claim_kind, derivation, longevity, last_evidence_at,
                         evidence_count, lifecycle_policy_version, sensitivity, authority, utility)
    SELECT md5('words' || g)::uuid, 't', 'p' || mod(g, 20), 'interest',
           'User ' || (ARRAY['paints', 'rides', 'bakes', 'grows'])[1 + mod(g, 4)] || ' item' || mod(g, 500) || '.',
           'topic:item' || mod(g, 500), 0.65, '[]'::jsonb, now(), 'formation@9', 'interest', 'direct', 'durable',
           now(), 1, 'lifecycle@2', 'internal', 'automatic', 0
      FROM generate_series(1, :rows) AS g
    """
)


@pytest.fixture(scope="module")
def seeded(create_database: Callable[[], str]) -> Iterator[Engine]:
    engine = seeded_engine(create_database(), _SEED, {"rows": ROWS})
    yield engine
    engine.dispose()


def _plan(seeded: Engine, bounded: bool, by_owner_words: bool) -> dict[str, Any]:
    params = {
        "tenant_id": "t",
        "principal_id": "p3",
        "limit": 200,
        "sensitivities": sorted(s.value for s in within(Sensitivity.RESTRICTED)),
        "words": ["paint", "item7"],
        "relatives": ["painting", ""],
    }
    with seeded.connect() as connection:
        connection.execute(text("SET LOCAL enable_seqscan = off"))
        [document] = connection.execute(
            text("EXPLAIN (FORMAT JSON) " + str(matching_statement((True, False), bounded, by_owner_words))),
            params,
        ).scalar_one()
        connection.rollback()
    return dict(document if isinstance(document, dict) else json.loads(document)[0])


@pytest.mark.parametrize("bounded", [True, False], ids=["bounded", "unbounded"])
def test_words_read_scans_the_owner_words_index_by_the_owners_words_alone(
    seeded: Engine, bounded: bool
) -> None:
    plan = _plan(seeded, bounded, by_owner_words=True)
    scans = [n for n in plan_nodes(plan["Plan"]) if n.get("Node Type") == "Bitmap Index Scan"]
    assert scans and all(n["Index Name"] == "beliefs_owner_words_live" for n in scans)
    for scan in scans:
        assert "belief_owner_search" in scan["Index Cond"]
    rechecks = [n for n in plan_nodes(plan["Plan"]) if n.get("Node Type") == "Bitmap Heap Scan"]
    assert rechecks and all(
        "tenant_id" in n.get("Filter", "") and "principal_id" in n.get("Filter", "") for n in rechecks
    )


@pytest.mark.parametrize("bounded", [True, False], ids=["bounded", "unbounded"])
def test_words_read_scans_the_search_index_without_the_tenant_key(seeded: Engine, bounded: bool) -> None:
    plan = _plan(seeded, bounded, by_owner_words=False)
    scans = [n for n in plan_nodes(plan["Plan"]) if n.get("Index Name") == "beliefs_owner_search_live"]
    assert scans, "the words are read through beliefs_owner_search_live"
    for scan in scans:
        assert "principal_id" in scan["Index Cond"]
        assert "search" in scan["Index Cond"]
        assert "tenant_id" not in scan["Index Cond"]
    rechecks = [n for n in plan_nodes(plan["Plan"]) if n.get("Node Type") == "Bitmap Heap Scan"]
    assert rechecks and all("tenant_id" in n.get("Filter", "") for n in rechecks)
