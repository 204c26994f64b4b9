"""Structural: recall's words index takes new entries into its tree at once, not into a pending list.

Revision ID: 0017_search_index_no_pending
Revises: 0016_episode_source_chars
Create Date: 2026-12-05

- beliefs_owner_search_live (revision 0011) with fastupdate off. With it on (PostgreSQL's default), a GIN
  index appends new entries to an unsorted pending list, merged into the tree only when the list passes
  gin_pending_list_limit (4 MB) or a vacuum runs; every scan reads the whole list. In a 1M-belief store,
  where autovacuum waits for 200,000 inserted rows, the list held up to 16,000 entries (485 pages) and each of
  a recall's index scans (one per query term, and one per term's relatives) read all of them: 30 to 45 ms
  a scan. Off, a belief's entries go into the tree as it is written.
- the entries already pending are merged now (gin_clean_pending_list): both statements take only a
  SHARE UPDATE EXCLUSIVE lock, so reads and writes go on meanwhile; the merge costs what the next vacuum
  would have.

Downgrade turns fastupdate on again (the index's default); nothing else changes.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0017_search_index_no_pending"
down_revision: str | Sequence[str] | None = "0016_episode_source_chars"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("ALTER INDEX beliefs_owner_search_live SET (fastupdate = off)")
    op.execute("SELECT gin_clean_pending_list('beliefs_owner_search_live')")


def downgrade() -> None:
    op.execute("ALTER INDEX beliefs_owner_search_live RESET (fastupdate)")
