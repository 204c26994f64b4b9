"""Additive: what query-relevant recall and "why do you think that" read.

Revision ID: 0009_belief_recall_search
Revises: 0008_belief_recent_index
Create Date: 2026-12-10

- beliefs.evidence_spans (JSONB, nullable): the exact cited text of each supporting source event, as
  [{"session_id", "seq", "text"}], written by commits from this revision on; NULL for rows formed before it
  (their provenance still names every source event, without the span).
- beliefs.search: a generated tsvector of subject and statement (the 'english' configuration), and
  beliefs_search_live, a GIN index over it for live rows: recall with a query finds an owner's matching
  beliefs through the index instead of reading every belief of the owner.

Downgrade drops the index and both columns (the spans are lost; provenance by event id stays).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB, TSVECTOR

revision: str = "0009_belief_recall_search"
down_revision: str | Sequence[str] | None = "0008_belief_recent_index"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SEARCH_EXPRESSION = "to_tsvector('english'::regconfig, (subject::text || ' '::text) || statement)"


def upgrade() -> None:
    op.add_column("beliefs", sa.Column("evidence_spans", JSONB))
    op.add_column("beliefs", sa.Column("search", TSVECTOR, sa.Computed(SEARCH_EXPRESSION, persisted=True)))
    op.create_index(
        "beliefs_search_live",
        "beliefs",
        ["search"],
        postgresql_using="gin",
        postgresql_where=sa.text("valid_to IS NULL"),
    )


def downgrade() -> None:
    op.drop_index("beliefs_search_live", table_name="beliefs")
    op.drop_column("beliefs", "search")
    op.drop_column("beliefs", "evidence_spans")
