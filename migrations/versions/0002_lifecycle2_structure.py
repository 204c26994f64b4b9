"""Structural revision of formation@9 / lifecycle@2: episodes, new belief and audit columns, staged outputs.

Revision ID: 0002_lifecycle2_structure
Revises: 0001_lifecycle1_baseline
Create Date: 2026-11-30

This is EXPECTED_REVISION (adapters/postgres/schema.py): the code of this release needs these tables and
columns. Belief columns the data revision fills are nullable here so this revision is quick on a large table
and a process may run while the backfill pages through old rows.

Downgrade is lossy by nature: it drops the integrated episodes, staged outputs and the lifecycle@2 columns.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0002_lifecycle2_structure"
down_revision: str | Sequence[str] | None = "0001_lifecycle1_baseline"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_BELIEF_COLUMNS = (
    "claim_kind",
    "derivation",
    "longevity",
    "last_evidence_at",
    "last_used_at",
    "evidence_count",
    "lifecycle_policy_version",
    "sensitivity",
    "authority",
    "utility",
    "channel",
    "updated_at",
    "version",
)
_RUN_COUNTERS = (
    "segment_count",
    "episode_count",
    "provider_call_count",
    "direct_proposed",
    "direct_committed",
    "hypothesis_proposed",
    "hypothesis_committed",
    "attributed_redundancies",
    "rejected_provider_candidates",
)


def upgrade() -> None:
    op.create_table(
        "integrated_episodes",
        sa.Column("id", sa.Uuid, primary_key=True),
        sa.Column("tenant_id", sa.String(128), nullable=False),
        sa.Column("principal_id", sa.String(128), nullable=False),
        sa.Column("session_id", sa.Uuid, nullable=False),
        sa.Column("source_event_ids", JSONB, nullable=False),
        sa.Column("source_started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source_ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("narrative", sa.Text, nullable=False),
        sa.Column("subjects", JSONB, nullable=False),
        sa.Column("integration_policy_version", sa.String(64), nullable=False),
        sa.Column("derivation_key", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint(
            "tenant_id", "principal_id", "derivation_key", name="integrated_episodes_owner_derivation_key"
        ),
    )
    # Episode ownership: session reads, session deletion and erasure go through this index.
    op.create_index(
        "integrated_episodes_owner_session",
        "integrated_episodes",
        ["tenant_id", "principal_id", "session_id"],
    )
    op.create_table(
        "staged_outputs",
        sa.Column("tenant_id", sa.String(128), nullable=False),
        sa.Column("principal_id", sa.String(128), nullable=False),
        sa.Column("segment_key", sa.String(64), nullable=False),
        sa.Column("stage", sa.String(32), nullable=False),
        sa.Column("session_id", sa.Uuid, nullable=False),
        sa.Column("document", JSONB, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.text("now()")),
        sa.PrimaryKeyConstraint(
            "tenant_id", "principal_id", "segment_key", "stage", name="staged_outputs_pkey"
        ),
    )

    with op.batch_alter_table("beliefs") as beliefs:
        beliefs.add_column(sa.Column("claim_kind", sa.String(64)))
        beliefs.add_column(sa.Column("derivation", sa.String(32)))
        beliefs.add_column(sa.Column("longevity", sa.String(32)))
        beliefs.add_column(sa.Column("last_evidence_at", sa.DateTime(timezone=True)))
        beliefs.add_column(sa.Column("last_used_at", sa.DateTime(timezone=True)))
        beliefs.add_column(sa.Column("evidence_count", sa.Integer))
        beliefs.add_column(sa.Column("lifecycle_policy_version", sa.String(64)))
        # Constant defaults: PostgreSQL adds these without rewriting the table.
        beliefs.add_column(
            sa.Column("sensitivity", sa.String(32), nullable=False, server_default=sa.text("'internal'"))
        )
        # The lifecycle@1 store formed beliefs automatically only; explicit authority arrives with lifecycle@2.
        beliefs.add_column(
            sa.Column("authority", sa.String(32), nullable=False, server_default=sa.text("'automatic'"))
        )
        beliefs.add_column(sa.Column("utility", sa.Float, nullable=False, server_default=sa.text("0")))
        beliefs.add_column(sa.Column("channel", sa.String(64)))
        beliefs.add_column(sa.Column("updated_at", sa.DateTime(timezone=True)))
        beliefs.add_column(sa.Column("version", sa.Integer, nullable=False, server_default=sa.text("0")))
    # Evidence expiry: the retirement sweep pages live beliefs by last_evidence_at through this index.
    op.create_index(
        "beliefs_evidence_expiry_live",
        "beliefs",
        ["last_evidence_at"],
        postgresql_where=sa.text("valid_to IS NULL"),
    )

    op.add_column("formation_audits", sa.Column("session_id", sa.Uuid))

    for counter in _RUN_COUNTERS:
        op.add_column(
            "consolidation_runs",
            sa.Column(counter, sa.Integer, nullable=False, server_default=sa.text("0")),
        )
    op.add_column(
        "consolidation_runs",
        sa.Column("fallback_stages", JSONB, nullable=False, server_default=sa.text("'[]'::jsonb")),
    )
    op.add_column(
        "consolidation_runs",
        sa.Column("coverage", JSONB, nullable=False, server_default=sa.text("'{}'::jsonb")),
    )


def downgrade() -> None:
    for column in ("coverage", "fallback_stages", *_RUN_COUNTERS):
        op.drop_column("consolidation_runs", column)
    op.drop_column("formation_audits", "session_id")
    op.drop_index("beliefs_evidence_expiry_live", table_name="beliefs")
    for column in _BELIEF_COLUMNS:
        op.drop_column("beliefs", column)
    op.drop_table("staged_outputs")
    op.drop_index("integrated_episodes_owner_session", table_name="integrated_episodes")
    op.drop_table("integrated_episodes")
