"""Structural: recall with a query searches one owner's live beliefs, not the whole store's.

Revision ID: 0011_belief_owner_search_index
Revises: 0010_late_events
Create Date: 2026-12-12

- beliefs_owner_search_live, a GIN index over (tenant_id, principal_id, search) of live rows (the btree_gin
  extension indexes the two text columns): the index answers "this owner's live beliefs holding any of these
  words" by itself. It replaces beliefs_search_live (revision 0009), over search alone, which found every
  live belief in the store holding a common word (about 42,000 in a 1M-belief store for a word one belief in
  24 holds) and intersected them with the owner's rows: recall slowed as the store grew, whoever owned it.
- btree_gin is a trusted extension shipped with PostgreSQL (contrib); the database owner may create it.

Downgrade restores beliefs_search_live and drops the owner index (indexes only, no data); the extension is
left installed, as other objects may use it.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_belief_owner_search_index"
down_revision: str | Sequence[str] | None = "0010_late_events"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("CREATE EXTENSION IF NOT EXISTS btree_gin")
    op.create_index(
        "beliefs_owner_search_live",
        "beliefs",
        ["tenant_id", "principal_id", "search"],
        postgresql_using="gin",
        postgresql_where=sa.text("valid_to IS NULL"),
    )
    op.drop_index("beliefs_search_live", table_name="beliefs")


def downgrade() -> None:
    op.create_index(
        "beliefs_search_live",
        "beliefs",
        ["search"],
        postgresql_using="gin",
        postgresql_where=sa.text("valid_to IS NULL"),
    )
    op.drop_index("beliefs_owner_search_live", table_name="beliefs")
