"""Additive: api_keys, bearer keys issued and revoked while processes run.

Revision ID: 0013_api_keys
Revises: 0012_formation_choices
Create Date: 2026-12-04

- api_keys: one row per issued key; the secret's sha256 (unique), never the secret. principal_id NULL is a
  service key (any principal of its tenant, named per call). revoked_at set is a revoked key, kept for the
  listing. A running process finds the table by its columns; until then no stored key authenticates.

Downgrade drops the table: every issued key stops working (a tokens file keeps working).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_api_keys"
down_revision: str | Sequence[str] | None = "0012_formation_choices"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "api_keys",
        sa.Column("key_id", sa.Uuid, nullable=False),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("tenant_id", sa.String(128), nullable=False),
        sa.Column("principal_id", sa.String(128)),
        sa.Column("ceiling", sa.String(32), nullable=False),
        sa.Column("secret_sha256", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("key_id", name="api_keys_pkey"),
        sa.UniqueConstraint("secret_sha256", name="api_keys_secret_sha256"),
    )


def downgrade() -> None:
    op.drop_table("api_keys")
