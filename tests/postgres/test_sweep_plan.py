"""The retirement sweep's page reads the expiry index and probes beliefs by primary key, never a whole scan."""

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import Engine, text

from adapters.postgres.repositories.retirement import explain_sweep_page
from domain.beliefs.lifecycle import SWEEP_LANES, sweep_lanes
from tests.postgres.plans import plan_nodes, seeded_engine

pytestmark = pytest.mark.postgres

NOW = datetime(2026, 11, 30, tzinfo=UTC)
ROWS = 40_000

# Hypotheses spread over 200 days of evidence: about 85% are past the 30-day horizon, the rest live.
_SEED = text(
    """
    INSERT INTO beliefs (id, tenant_id, principal_id, belief_type, statement, subject, confidence, source_events,
                         valid_from, formation_version, claim_kind, derivation, longevity, last_evidence_at,
                         evidence_count, lifecycle_policy_version)
    SELECT md5('plan' || g)::uuid, 't', 'p' || mod(g, 100), 'skill', 'statement ' || g, 'subject', 0.35,
           '[]'::jsonb, :now - make_interval(days => 201), 'formation@9', 'skill', 'hypothesis', 'tentative',
           :now - make_interval(days => mod(g, 200), secs => g), 1, 'lifecycle@2'
      FROM generate_series(1, :rows) AS g
    """
)


@pytest.fixture(scope="module")
def seeded(create_database: Callable[[], str]) -> Iterator[Engine]:
    engine = seeded_engine(create_database(), _SEED, {"now": NOW, "rows": ROWS})
    yield engine
    engine.dispose()


@pytest.mark.parametrize("lane", [*sweep_lanes(1), *sweep_lanes(SWEEP_LANES)], ids=str)
def test_sweep_page_plan_reads_the_expiry_index_and_probes_by_primary_key(seeded: Engine, lane: Any) -> None:
    with seeded.connect() as connection:
        (document,) = explain_sweep_page(connection, NOW, lane)
        connection.rollback()
    nodes = list(plan_nodes(document[0]["Plan"]))
    reads = [n for n in nodes if n.get("Relation Name") == "beliefs" and n["Node Type"] != "ModifyTable"]
    assert {n.get("Index Name") for n in reads} == {"beliefs_expires_live", "beliefs_pkey"}
    assert all(n["Node Type"] in {"Index Scan", "Index Only Scan"} for n in reads)
    assert not any(n["Node Type"] in {"Hash Join", "Merge Join", "Seq Scan"} for n in nodes)
