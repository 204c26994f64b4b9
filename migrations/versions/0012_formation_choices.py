"""Additive: formation_choices, one owner's chosen alternative memory tuple (ADR-0119).

Revision ID: 0012_formation_choices
Revises: 0011_belief_owner_search_index
Create Date: 2026-12-01

- formation_choices, keyed by owner: the memory model profile and reasoning effort the owner moved formation
  to. A running process finds the table by its columns; until then no choice is read or set.

Downgrade drops the table: every owner's formation returns to the configured tuple.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_formation_choices"
down_revision: str | Sequence[str] | None = "0011_belief_owner_search_index"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "formation_choices",
        sa.Column("tenant_id", sa.String(128), nullable=False),
        sa.Column("principal_id", sa.String(128), nullable=False),
        sa.Column("model_policy", sa.String(128), nullable=False),
        sa.Column("reasoning_effort", sa.String(128)),
        sa.Column("chosen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "principal_id", name="formation_choices_pkey"),
    )


def downgrade() -> None:
    op.drop_table("formation_choices")
