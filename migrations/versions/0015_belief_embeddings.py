"""Additive: recall by meaning, a vector beside each belief (pgvector) and the model that made it.

Revision ID: 0015_belief_embeddings
Revises: 0014_event_received_at
Create Date: 2026-12-04

- the vector extension (pgvector; the embedded server's wheel and the compose image ship it);
- beliefs.embedding, a vector of any dimension, and beliefs.embedding_model, the identity of the model that
  made it (domain.beliefs.embedding): NULL until a belief is embedded after its commit (`agent memory embed`
  fills existing rows), so the upgrade itself computes nothing;
- beliefs_embedding_wordllama_hnsw, an HNSW index (cosine) over the bundled model's 256-dimension vectors of
  live beliefs: an owner's nearest beliefs are read through it.
A running process finds the column by name; until then recall ranks by text and retrieval@3 alone.

Downgrade drops the index and both columns (the vectors are derived: `agent memory embed` recomputes them);
the extension is left installed, as other objects may use it.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from pgvector.sqlalchemy import Vector

revision: str = "0015_belief_embeddings"
down_revision: str | Sequence[str] | None = "0014_event_received_at"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("CREATE EXTENSION IF NOT EXISTS vector")
    op.add_column("beliefs", sa.Column("embedding", Vector()))
    op.add_column("beliefs", sa.Column("embedding_model", sa.String(128)))
    op.execute(
        "CREATE INDEX beliefs_embedding_wordllama_hnsw ON beliefs"
        " USING hnsw ((embedding::vector(256)) vector_cosine_ops)"
        " WHERE valid_to IS NULL AND embedding_model = 'wordllama/l2_supercat_256'"
    )


def downgrade() -> None:
    op.drop_index("beliefs_embedding_wordllama_hnsw", table_name="beliefs")
    op.drop_column("beliefs", "embedding_model")
    op.drop_column("beliefs", "embedding")
