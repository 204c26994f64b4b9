"""Structural: recall's words read through an index keyed by owner and word together.

Revision ID: 0017_belief_owner_words
Revises: 0016_episode_source_chars
Create Date: 2026-12-05

- belief_owner_search(tenant_id, principal_id, search), an immutable function: the belief's search lexemes,
  each prefixed with a short key of its owner (letters only: the first 12 hex digits of an md5 of tenant
  and principal, digits spelled as letters), so one lexeme of one owner is one index key.
- beliefs_owner_words_live, a GIN index over that expression for live rows, built concurrently (reads and
  writes go on; a 1M-belief store builds it in about 53 s with 64 MB of maintenance_work_mem, 26 MB). An
  owner's holders of a word are one posting list: beliefs_owner_search_live (revision 0011) intersected the
  principal's list (every live belief of the owner) with the word's (every owner's holders), which grew
  with the store and the owner. No pending list (fastupdate off): new entries go into the tree as a belief
  is written. A pending list is read whole by every scan: the default 4 MB one held up to 16,000 entries in
  a 1M-belief store, where autovacuum merges it only after 200,000 inserted rows, and cost 30 to 45 ms a
  scan; even 256 kB (18 pages) cost 3 to 5 ms on a scan of a term's 21 relatives. Without one, a commit's
  write of 50 beliefs takes about 40% longer (42 ms against 30 ms in a 1M-belief store). Another owner's
  rows sharing a key (a 48-bit prefix) would be read and then left out by the owner compared on the row.
- beliefs_owner_search_live stays for processes of the previous release; a later revision drops it.

A running process uses the new index once it is valid (PostgresStore looks it up until found); until then
it reads through beliefs_owner_search_live as before.

Downgrade drops the index and the function.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0017_belief_owner_words"
down_revision: str | Sequence[str] | None = "0016_episode_source_chars"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        """
        CREATE OR REPLACE FUNCTION belief_owner_search(tenant_id text, principal_id text, search tsvector)
        RETURNS tsvector LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
            SELECT array_to_tsvector(ARRAY(
                SELECT translate(left(md5(tenant_id || '/' || principal_id), 12), '0123456789', 'ghijklmnop')
                       || lexeme
                  FROM unnest(tsvector_to_array(search)) AS lexeme))
        $$
        """
    )
    with op.get_context().autocommit_block():
        # A concurrent build that failed leaves an invalid index of this name: built again from the start.
        op.execute("DROP INDEX CONCURRENTLY IF EXISTS beliefs_owner_words_live")
        op.execute(
            "CREATE INDEX CONCURRENTLY beliefs_owner_words_live ON beliefs"
            " USING gin (belief_owner_search(tenant_id, principal_id, search)) WITH (fastupdate = off)"
            " WHERE valid_to IS NULL"
        )


def downgrade() -> None:
    with op.get_context().autocommit_block():
        op.execute("DROP INDEX CONCURRENTLY IF EXISTS beliefs_owner_words_live")
    op.execute("DROP FUNCTION IF EXISTS belief_owner_search(text, text, tsvector)")
