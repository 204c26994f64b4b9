"""Structural: cheaper writes for the retirement sweep and the commit path, one verb index that bounds reads.

Revision ID: 0007_sweep_and_verb_indexes
Revises: 0006_belief_expires_at
Create Date: 2026-12-02

- beliefs_evidence_expiry_live (last_evidence_at of live rows) is dropped: since 0006 the sweep pages through
  beliefs_expires_live, and the reference expiry read (expiry_candidates) narrows itself by expires_at at
  this revision, so nothing reads it and every belief insert paid for it.
- formation_audits_owner_kind (tenant_id, principal_id, kind) is dropped: every owner-scoped read of audits
  (get by dedupe key, for_owner with or without a kind, erasure) is served by the unique
  (tenant_id, principal_id, dedupe_key) index's owner prefix, and each sweep page inserts up to 10,000
  memory.retired audits into every index of the table.
- beliefs_owner_verb_id_live (tenant_id, principal_id, main_verb, id) of live rows replaces
  beliefs_owner_verb_live (its prefix): a commit's per-verb lookup (ORDER BY id LIMIT n) reads n index
  entries in order whatever the verb's frequency, instead of every live row with that verb or a walk of the
  owner's id index.

Downgrade restores the three indexes and drops the new one (indexes only, no data).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_sweep_and_verb_indexes"
down_revision: str | Sequence[str] | None = "0006_belief_expires_at"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "beliefs_owner_verb_id_live",
        "beliefs",
        ["tenant_id", "principal_id", "main_verb", "id"],
        postgresql_where=sa.text("valid_to IS NULL"),
    )
    op.drop_index("beliefs_owner_verb_live", table_name="beliefs")
    op.drop_index("beliefs_evidence_expiry_live", table_name="beliefs")
    op.drop_index("formation_audits_owner_kind", table_name="formation_audits")


def downgrade() -> None:
    op.create_index("formation_audits_owner_kind", "formation_audits", ["tenant_id", "principal_id", "kind"])
    op.create_index(
        "beliefs_evidence_expiry_live",
        "beliefs",
        ["last_evidence_at"],
        postgresql_where=sa.text("valid_to IS NULL"),
    )
    op.create_index(
        "beliefs_owner_verb_live",
        "beliefs",
        ["tenant_id", "principal_id", "main_verb"],
        postgresql_where=sa.text("valid_to IS NULL"),
    )
    op.drop_index("beliefs_owner_verb_id_live", table_name="beliefs")
