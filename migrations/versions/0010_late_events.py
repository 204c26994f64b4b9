"""Additive: a late event, appended below its session's watermark, waits for the next round.

Revision ID: 0010_late_events
Revises: 0009_belief_recall_search
Create Date: 2026-12-17

- source_events.late_pending (boolean, default false): the event arrived below the session's watermark,
  after consolidation had passed its sequence gap, and is not consolidated yet. The next round plans it on
  its own and its segment's commit clears the flag; every existing row is an ordinary event (false).
- source_events_late_pending, a partial index over the flagged rows' key: a round finds its session's late
  events without reading the session's consolidated ones.

Downgrade drops the index and the column (a late event not yet consolidated then stays unconsolidated).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_late_events"
down_revision: str | Sequence[str] | None = "0009_belief_recall_search"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "source_events",
        sa.Column("late_pending", sa.Boolean, nullable=False, server_default=sa.text("false")),
    )
    op.create_index(
        "source_events_late_pending",
        "source_events",
        ["tenant_id", "principal_id", "session_id", "seq"],
        postgresql_where=sa.text("late_pending"),
    )


def downgrade() -> None:
    op.drop_index("source_events_late_pending", table_name="source_events")
    op.drop_column("source_events", "late_pending")
