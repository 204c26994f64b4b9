"""Structural: one index that bounds the anticipation and distillation cue pool.

Revision ID: 0008_belief_recent_index
Revises: 0007_sweep_and_verb_indexes
Create Date: 2026-12-03

- beliefs_owner_recent_live (tenant_id, principal_id, updated_at DESC, id DESC) of live rows: the cue pool
  (the owner's five hundred most recently updated live beliefs at or below internal sensitivity,
  BeliefRepository.most_recent) is read from the newest index entry down and stops at its limit, instead of
  paging every live belief of the owner by id and sorting them in the process.

Downgrade drops the index (an index only, no data).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_belief_recent_index"
down_revision: str | Sequence[str] | None = "0007_sweep_and_verb_indexes"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "beliefs_owner_recent_live",
        "beliefs",
        ["tenant_id", "principal_id", sa.text("updated_at DESC"), sa.text("id DESC")],
        postgresql_where=sa.text("valid_to IS NULL"),
    )


def downgrade() -> None:
    op.drop_index("beliefs_owner_recent_live", table_name="beliefs")
