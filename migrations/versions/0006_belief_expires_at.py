"""Structural + data: beliefs.expires_at, the lifecycle@2 horizon computed on write, and its sweep index.

Revision ID: 0006_belief_expires_at
Revises: 0005_belief_match_keys
Create Date: 2026-12-01

The retirement sweep used to walk the live rows of beliefs_evidence_expiry_live up to the widest cutoff and
filter there, stepping over every explicitly remembered row and every durable row whose horizon is longer
than the hypothesis horizon. expires_at holds ``last_evidence_at + horizon`` (domain.beliefs.lifecycle.expires_at;
NULL for explicit_remember, which never decays), written by the repository with every upsert, so the sweep
reads exactly the expired live rows as one range of beliefs_expires_live. The sweep still checks the
deciding facts themselves before it retires a row, so a wrong or missing expires_at can only delay a
retirement, never bring one forward.

The backfill walks the primary key in bounded pages, one set-based UPDATE per page (horizons in seconds, so
the session time zone cannot move a boundary by a DST hour). Downgrade drops the index and the column
(derived data only).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_belief_expires_at"
down_revision: str | Sequence[str] | None = "0005_belief_match_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PAGE_SIZE = 20_000

# lifecycle@2 as of this revision (frozen: a later policy ships its own data revision).
_HORIZON_SECONDS = """
    CASE
      WHEN authority = 'explicit_remember' THEN NULL
      WHEN derivation = 'hypothesis' OR longevity = 'tentative' THEN 30 * 86400
      WHEN longevity = 'ongoing' THEN 90 * 86400
      WHEN longevity = 'durable' THEN 86400 * CASE claim_kind
        WHEN 'role' THEN 730 WHEN 'relationship' THEN 730 WHEN 'skill' THEN 730
        WHEN 'constraint' THEN 365 WHEN 'preference' THEN 365 WHEN 'interest' THEN 365 WHEN 'goal' THEN 365
        WHEN 'habit' THEN 180 WHEN 'recurring_state' THEN 180 WHEN 'ongoing_project' THEN 180
        WHEN 'resource' THEN 180 WHEN 'project_fact' THEN 90 END
    END
"""

# One page of the primary key; returns the page's last id (NULL once past the end).
_SET_PAGE = sa.text(
    f"""
    WITH page AS (
      SELECT id FROM beliefs WHERE (CAST(:after AS uuid) IS NULL OR id > CAST(:after AS uuid))
       ORDER BY id LIMIT :limit
    ), updated AS (
      UPDATE beliefs AS b
         SET expires_at = b.last_evidence_at + make_interval(secs => ({_HORIZON_SECONDS}))
        FROM page
       WHERE b.id = page.id AND b.expires_at IS NULL AND b.valid_to IS NULL
         AND b.last_evidence_at IS NOT NULL AND b.derivation IS NOT NULL AND b.longevity IS NOT NULL
         AND b.claim_kind IS NOT NULL
    )
    SELECT (array_agg(id ORDER BY id DESC))[1] AS last, count(*) AS n FROM page
    """
)


def _backfill(connection: sa.Connection) -> None:
    after = None
    while True:
        row = connection.execute(_SET_PAGE, {"after": after, "limit": PAGE_SIZE}).one()
        if row.n < PAGE_SIZE:
            break
        after = row.last


# Every writer gets expires_at, including one that does not know the column (a process of the previous
# release during a rolling upgrade, a raw SQL load): without it such a row would never be swept.
_TRIGGER_FUNCTION = f"""
CREATE FUNCTION beliefs_set_expires_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.expires_at := (SELECT b.last_evidence_at + make_interval(secs => (
                       {_HORIZON_SECONDS.replace("authority", "b.authority").replace("derivation", "b.derivation").replace("longevity", "b.longevity").replace("claim_kind", "b.claim_kind")}))
                       FROM (SELECT NEW.*) AS b);
  RETURN NEW;
END
$$
"""
_TRIGGER = """
CREATE TRIGGER beliefs_expires_at BEFORE INSERT OR UPDATE OF last_evidence_at, authority, derivation, longevity,
  claim_kind, expires_at ON beliefs FOR EACH ROW EXECUTE FUNCTION beliefs_set_expires_at()
"""


def upgrade() -> None:
    op.add_column("beliefs", sa.Column("expires_at", sa.DateTime(timezone=True)))
    op.execute(_TRIGGER_FUNCTION)
    op.execute(_TRIGGER)
    _backfill(op.get_bind())
    op.create_index(
        "beliefs_expires_live",
        "beliefs",
        ["expires_at", "id"],
        postgresql_where=sa.text("valid_to IS NULL AND expires_at IS NOT NULL"),
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER beliefs_expires_at ON beliefs")
    op.execute("DROP FUNCTION beliefs_set_expires_at()")
    op.drop_index("beliefs_expires_live", table_name="beliefs")
    op.drop_column("beliefs", "expires_at")
