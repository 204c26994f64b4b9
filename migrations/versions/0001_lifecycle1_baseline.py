"""Baseline: the store as it was before formation@9 (lifecycle@1 beliefs, events, watermarks, runs, audits).

Revision ID: 0001_lifecycle1_baseline
Revises:
Create Date: 2026-11-30

A database created by the earlier service is stamped at this revision (`alembic stamp`); a new one is built
from it. Downgrading below it drops the whole store and is refused unless done on purpose.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0001_lifecycle1_baseline"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _owner() -> list[sa.Column[str]]:
    return [
        sa.Column("tenant_id", sa.String(128), nullable=False),
        sa.Column("principal_id", sa.String(128), nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        "source_events",
        *_owner(),
        sa.Column("session_id", sa.Uuid, nullable=False),
        sa.Column("seq", sa.BigInteger, nullable=False),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("occurred_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "principal_id", "session_id", "seq", name="source_events_pkey"),
    )
    op.create_table(
        "beliefs",
        sa.Column("id", sa.Uuid, primary_key=True),
        *_owner(),
        sa.Column("belief_type", sa.String(64), nullable=False),
        sa.Column("statement", sa.Text, nullable=False),
        sa.Column("subject", sa.String(120), nullable=False),
        sa.Column("confidence", sa.Float, nullable=False),
        sa.Column("source_events", JSONB, nullable=False),
        sa.Column("valid_from", sa.DateTime(timezone=True), nullable=False),
        sa.Column("valid_to", sa.DateTime(timezone=True)),
        sa.Column("closed_reason", sa.String(64)),
        sa.Column("last_reinforced_at", sa.DateTime(timezone=True)),
        sa.Column("corroboration_count", sa.Integer, nullable=False, server_default=sa.text("1")),
        sa.Column("formation_version", sa.String(64), nullable=False),
    )
    op.create_index(
        "beliefs_owner_subject_live",
        "beliefs",
        ["tenant_id", "principal_id", "subject"],
        postgresql_where=sa.text("valid_to IS NULL"),
    )
    op.create_index("beliefs_owner_id", "beliefs", ["tenant_id", "principal_id", "id"])
    op.create_table(
        "watermarks",
        *_owner(),
        sa.Column("session_id", sa.Uuid, nullable=False),
        sa.Column("seq", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "principal_id", "session_id", name="watermarks_pkey"),
    )
    op.create_table(
        "consolidation_runs",
        sa.Column("id", sa.Uuid, primary_key=True),
        *_owner(),
        sa.Column("session_id", sa.Uuid, nullable=False),
        sa.Column("formation_policy", sa.String(64), nullable=False),
        sa.Column("from_seq", sa.BigInteger, nullable=False),
        sa.Column("to_seq", sa.BigInteger, nullable=False),
        sa.Column("outcome", sa.String(64), nullable=False),
        sa.Column("categories", JSONB, nullable=False, server_default=sa.text("'{}'::jsonb")),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "consolidation_runs_owner_session", "consolidation_runs", ["tenant_id", "principal_id", "session_id"]
    )
    op.create_table(
        "formation_audits",
        sa.Column("id", sa.Uuid, primary_key=True),
        *_owner(),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("dedupe_key", sa.String(256), nullable=False),
        sa.Column("details", JSONB, nullable=False, server_default=sa.text("'{}'::jsonb")),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint(
            "tenant_id", "principal_id", "dedupe_key", name="formation_audits_owner_dedupe_key"
        ),
    )
    op.create_index("formation_audits_owner_kind", "formation_audits", ["tenant_id", "principal_id", "kind"])


def downgrade() -> None:
    """Drops the whole store: only ever run on purpose (`agent db downgrade base`)."""
    for table in ("formation_audits", "consolidation_runs", "watermarks", "beliefs", "source_events"):
        op.drop_table(table)
