"""Additive: source_events.received_at, when the server stored each event (its own clock).

Revision ID: 0014_event_received_at
Revises: 0013_api_keys
Create Date: 2026-12-04

- received_at: set by the database on insert. A sequence gap's grace is measured from when the event after
  it arrived, never from the client's occurred_at (a client clock years ahead held a session for as long).
  Rows stored before this revision take the time it was applied. A running process finds the column by its
  name; until then the grace falls back to occurred_at.

Downgrade drops the column.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_event_received_at"
down_revision: str | Sequence[str] | None = "0013_api_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "source_events",
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )


def downgrade() -> None:
    op.drop_column("source_events", "received_at")
