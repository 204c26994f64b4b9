"""Additive: the content-free per-stage metrics document on consolidation runs.

Revision ID: 0004_run_stage_metrics
Revises: 0003_lifecycle2_backfill
Create Date: 2026-11-30

Additive only, so it does not move EXPECTED_REVISION: code of this release records runs without stage
metrics until it is applied. Downgrade drops the metrics (telemetry only).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0004_run_stage_metrics"
down_revision: str | Sequence[str] | None = "0003_lifecycle2_backfill"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "consolidation_runs",
        sa.Column("stage_metrics", JSONB, nullable=False, server_default=sa.text("'[]'::jsonb")),
    )


def downgrade() -> None:
    op.drop_column("consolidation_runs", "stage_metrics")
