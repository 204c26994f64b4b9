"""Additive: integrated_episodes.source_chars, the piece of its one source event an episode covers.

Revision ID: 0016_episode_source_chars
Revises: 0015_belief_embeddings
Create Date: 2026-12-04

- source_chars: a JSON [start, end) pair of character offsets, set only on the episode of a piece of an
  event formed in pieces (an event past a segment's bounds). Its derivation key adds the piece, so every
  piece of one event keeps its own episode. NULL for every other episode, whose key is unchanged, so rows
  stored before this revision stay valid. A running process finds the column by its name; until then a
  piece's episode is not stored and is audited as a derivation conflict, as before this revision.

Downgrade drops the column and the episodes that need it (derived: a re-pass rebuilds them).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0016_episode_source_chars"
down_revision: str | Sequence[str] | None = "0015_belief_embeddings"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("integrated_episodes", sa.Column("source_chars", JSONB))


def downgrade() -> None:
    # Without the column their keys could not be recomputed.
    op.execute("DELETE FROM integrated_episodes WHERE source_chars IS NOT NULL")
    op.drop_column("integrated_episodes", "source_chars")
