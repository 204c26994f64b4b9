"""Migration 0006's expiry trigger computes the domain's horizons: one source of truth, held by this test.

domain.beliefs.lifecycle is where the lifecycle@2 horizons are decided. The trigger that fills
beliefs.expires_at for any writer (migration 0006) is a frozen migration and keeps its own copy as SQL; it
cannot be generated from the domain, or an old revision would change meaning when the policy does. This test
ties the two: a row written by raw SQL, as a writer that does not know the column would write it, must get
exactly the domain's expiry for every (authority, derivation, longevity, claim kind). A policy change that
lands without a data revision replacing the trigger function fails here.
"""

import uuid
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, text

from domain.beliefs.lifecycle import horizon_of
from domain.beliefs.records import Authority
from domain.candidates import ClaimKind, Derivation, Longevity

pytestmark = pytest.mark.postgres

EVIDENCE_AT = datetime(2026, 3, 28, 12, 0, tzinfo=UTC)  # the night before a DST change in Europe
SHAPES = [
    (authority, derivation, longevity, kind)
    for authority in Authority
    for derivation in Derivation
    for longevity in Longevity
    for kind in ClaimKind
]
_INSERT = text(
    """
    INSERT INTO beliefs (id, tenant_id, principal_id, belief_type, statement, subject, confidence, source_events,
                         valid_from, formation_version, claim_kind, derivation, longevity, last_evidence_at,
                         evidence_count, lifecycle_policy_version, authority)
    VALUES (:id, 't', 'p', :kind, 'statement', 'subject', 0.65, '[]'::jsonb, :at, 'formation@9', :kind,
            :derivation, :longevity, :at, 1, 'lifecycle@2', :authority)
    """
)


def test_gate_memory_ongoing_retirement_trigger_expiry_is_the_domain_horizon_for_every_shape(
    clean_postgres: Engine,
) -> None:
    """Catches: a horizon changed in domain.beliefs.lifecycle (30/90 days to 20/60, or a durable entry)
    without a migration that replaces beliefs_set_expires_at, and a trigger whose CASE disagrees with the
    domain for any shape, old rows' odd combinations included."""
    ids = {shape: uuid.uuid4() for shape in SHAPES}
    with clean_postgres.begin() as connection:
        connection.execute(
            _INSERT,
            [
                {
                    "id": ids[shape],
                    "authority": shape[0].value,
                    "derivation": shape[1].value,
                    "longevity": shape[2].value,
                    "kind": shape[3].value,
                    "at": EVIDENCE_AT,
                }
                for shape in SHAPES
            ],
        )
        rows = connection.execute(text("SELECT id, expires_at FROM beliefs")).all()
    stored: dict[uuid.UUID, datetime | None] = {row.id: row.expires_at for row in rows}
    for shape, belief_id in ids.items():
        found = horizon_of(*shape)
        assert stored[belief_id] == (None if found is None else EVIDENCE_AT + found.after), shape
