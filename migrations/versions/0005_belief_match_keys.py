"""Structural + data: belief match keys (main verb, content lemmas) and their bounded indexes.

Revision ID: 0005_belief_match_keys
Revises: 0004_run_stage_metrics
Create Date: 2026-11-30

commit_segment used to read every live belief of a principal to find what a candidate reinforces and what a
retraction ends. These columns let it ask for the few live beliefs sharing a candidate's main verb (and, for a
retraction, containing every lemma it negates) through an index, and for the user's tombstones by subject or
verb. Keys are derived by domain.formation.equivalence.match_keys, the same function the in-memory store applies.

The backfill walks the primary key in bounded pages and commits nothing but the two derived columns; rows the
new code already wrote (main_verb or terms set) are skipped. EXPECTED_REVISION moves here. Downgrade drops the
indexes and columns (derived data only; the next upgrade derives them again).
"""

import json
from collections.abc import Sequence
from uuid import UUID

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import ARRAY

from domain.formation.equivalence import match_keys

revision: str = "0005_belief_match_keys"
down_revision: str | Sequence[str] | None = "0004_run_stage_metrics"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PAGE_SIZE = 2_000
_USER_CLOSED = "closed_reason IN ('retracted', 'rejected', 'deleted', 'edited')"

# One set-based UPDATE per page: the keys computed in Python travel as one jsonb document and are joined
# back to the page's rows by id, instead of one statement (and one round trip) per row.
_SET_KEYS = sa.text(
    """
    UPDATE beliefs AS b
       SET main_verb = k.verb,
           terms = ARRAY(SELECT t FROM jsonb_array_elements_text(k.terms) WITH ORDINALITY AS e(t, n) ORDER BY n)
      FROM jsonb_to_recordset(CAST(:keys AS jsonb)) AS k(id uuid, verb text, terms jsonb)
     WHERE b.id = k.id
    """
)


def _backfill(connection: sa.Connection) -> None:
    """Walk the primary key in PAGE_SIZE pages; compute each page's keys in Python, write them in one UPDATE."""
    after: UUID | None = None
    while True:
        query = "SELECT id, statement FROM beliefs WHERE terms IS NULL"
        params: dict[str, object] = {"limit": PAGE_SIZE}
        if after is not None:
            query += " AND id > :after"
            params["after"] = after
        rows = connection.execute(sa.text(query + " ORDER BY id LIMIT :limit"), params).all()
        keys: list[dict[str, object]] = []
        for row in rows:
            verb, terms = match_keys(row.statement)
            keys.append({"id": str(row.id), "verb": verb[:64] if verb else None, "terms": list(terms)})
        if keys:
            connection.execute(_SET_KEYS, {"keys": json.dumps(keys)})
        if len(rows) < PAGE_SIZE:
            break
        after = rows[-1].id


def upgrade() -> None:
    op.add_column("beliefs", sa.Column("main_verb", sa.String(64)))
    op.add_column("beliefs", sa.Column("terms", ARRAY(sa.Text)))
    _backfill(op.get_bind())
    op.create_index(
        "beliefs_owner_verb_live",
        "beliefs",
        ["tenant_id", "principal_id", "main_verb"],
        postgresql_where=sa.text("valid_to IS NULL"),
    )
    op.create_index(
        "beliefs_owner_subject_user_closed",
        "beliefs",
        ["tenant_id", "principal_id", "subject"],
        postgresql_where=sa.text(_USER_CLOSED),
    )
    op.create_index(
        "beliefs_owner_verb_user_closed",
        "beliefs",
        ["tenant_id", "principal_id", "main_verb"],
        postgresql_where=sa.text(_USER_CLOSED),
    )


def downgrade() -> None:
    op.drop_index("beliefs_owner_verb_user_closed", table_name="beliefs")
    op.drop_index("beliefs_owner_subject_user_closed", table_name="beliefs")
    op.drop_index("beliefs_owner_verb_live", table_name="beliefs")
    op.drop_column("beliefs", "terms")
    op.drop_column("beliefs", "main_verb")
