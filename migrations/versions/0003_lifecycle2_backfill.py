"""Data revision: give every lifecycle@1 belief conservative lifecycle@2 values, in bounded id pages.

Revision ID: 0003_lifecycle2_backfill
Revises: 0002_lifecycle2_structure
Create Date: 2026-11-30

Per old belief (one whose lifecycle_policy_version is still NULL):
  last_evidence_at <- valid_from; evidence_count <- length of the source-event list (at least 1);
  last_used_at <- NULL; derivation <- 'direct'; claim_kind and longevity <- the conservative mapping of
  belief_type (table in adapters/postgres/legacy.py); updated_at <- the latest of its own timestamps;
  lifecycle_policy_version <- 'lifecycle@1-backfill'.
Never touched: statement, subject, source_events (provenance), authority, confidence, formation_version.

The evidence-expiry index is dropped for the duration and rebuilt CONCURRENTLY at the end: with it in
place no update can be HOT and every row pays an insert into every index (measured: under half the rate).
The sweep stays correct meanwhile, only slower. The revision leaves the schema exactly as it found it.

Pages walk the primary key (keyset, PAGE_SIZE ids a page) and each page commits on its own, so the table is
never loaded into Python, locks are held for one page, and an interrupted run resumes where it stopped.
Rows a lifecycle@2 process already wrote (lifecycle_policy_version set) are skipped. Page transactions commit
with synchronous_commit off (a crash loses at most the last pages, which the next run redoes).

Where the time goes (EXPLAIN (ANALYZE, BUFFERS, WAL), pg_stat_wal/io/checkpointer, 1M rows): the rows grow
(NULL columns filled) and a vacuumed heap has no free space, so an update is HOT only once on-access pruning
has freed an earlier page's dead version on the same heap page; about 69% are HOT, the rest insert into every
remaining index. Random ids help here: a heap clustered by id updates a whole heap page in one statement,
nothing can be pruned, and 99.9% of updates go non-HOT (measured 2.5x slower). The rest is server sizing: with
128 MB shared_buffers every page visit evicts a dirty buffer (1.1M backend writes and reads for 1M rows) and
max_wal_size 1 GB forces checkpoints that restart full-page images; see benchmarks/backfill_benchmark.py.

Downgrade is LOSSY FOR DERIVED FIELDS ONLY: it nulls the fields above on rows still marked
'lifecycle@1-backfill'; the next upgrade derives the same values again. Rows lifecycle@2 has since updated
keep their values.
"""

from collections.abc import Callable, Sequence
from uuid import UUID

import sqlalchemy as sa
from alembic import context, op

from adapters.postgres.legacy import (
    BACKFILL_LIFECYCLE_VERSION,
    BACKFILL_PROGRESS,
    LEGACY_DERIVATION,
    claim_kind_case_sql,
    longevity_case_sql,
)

revision: str = "0003_lifecycle2_backfill"
down_revision: str | Sequence[str] | None = "0002_lifecycle2_structure"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PAGE_SIZE = 5_000

_FILL = f"""
    claim_kind = {claim_kind_case_sql()},
    longevity = {longevity_case_sql()},
    derivation = '{LEGACY_DERIVATION.value}',
    last_evidence_at = valid_from,
    evidence_count = CASE WHEN jsonb_typeof(source_events) = 'array'
                          THEN greatest(1, jsonb_array_length(source_events)) ELSE 1 END,
    last_used_at = NULL,
    updated_at = greatest(valid_from, last_reinforced_at, valid_to),
    lifecycle_policy_version = '{BACKFILL_LIFECYCLE_VERSION}'
"""
_FILL_WHERE = "lifecycle_policy_version IS NULL"

_EXPIRY_INDEX = "beliefs_evidence_expiry_live"
_DROP_EXPIRY_INDEX = f"DROP INDEX IF EXISTS {_EXPIRY_INDEX}"
# IF NOT EXISTS would keep an INVALID index left by an interrupted build, so it is dropped first instead.
_CREATE_EXPIRY_INDEX = (
    f"CREATE INDEX CONCURRENTLY {_EXPIRY_INDEX} ON beliefs (last_evidence_at) WHERE valid_to IS NULL"
)

_CLEAR = """
    claim_kind = NULL, longevity = NULL, derivation = NULL, last_evidence_at = NULL,
    evidence_count = NULL, updated_at = NULL, lifecycle_policy_version = NULL
"""
_CLEAR_WHERE = f"lifecycle_policy_version = '{BACKFILL_LIFECYCLE_VERSION}'"


def _paged_update(assignments: str, where: str) -> None:
    if context.is_offline_mode():
        op.execute(f"UPDATE beliefs SET {assignments} WHERE {where}")
        return
    with op.get_context().autocommit_block():
        bind = op.get_bind()
        bind.exec_driver_sql(_DROP_EXPIRY_INDEX)
        _pages(bind, assignments, where)
        bind.exec_driver_sql(_DROP_EXPIRY_INDEX)
        bind.exec_driver_sql(_CREATE_EXPIRY_INDEX)


def _pages(bind: sa.Connection, assignments: str, where: str) -> None:
    # `agent db upgrade` passes a callback (rows to do, then rows done a page at a time) for its progress bar.
    progress: Callable[[int, int], None] | None = context.config.attributes.get(BACKFILL_PROGRESS)
    total = bind.execute(sa.text(f"SELECT count(*) FROM beliefs WHERE {where}")).scalar_one() if progress else 0
    done = 0
    after: UUID | None = None
    while True:
        lower = "" if after is None else "id > :after AND "
        upper = bind.execute(
            sa.text(f"SELECT id FROM beliefs WHERE {lower}TRUE ORDER BY id OFFSET :skip LIMIT 1"),
            {"after": after, "skip": PAGE_SIZE - 1},
        ).scalar()
        bound = "" if upper is None else "id <= :upper AND "
        # One transaction per page. Its commit need not wait for the WAL flush: a crash can lose only the
        # last pages' commits, and those rows still match `where`, so the next run redoes them.
        bind.exec_driver_sql("BEGIN")
        bind.exec_driver_sql("SET LOCAL synchronous_commit = off")
        updated = bind.execute(
            sa.text(f"UPDATE beliefs SET {assignments} WHERE {lower}{bound}{where}"),
            {"after": after, "upper": upper},
        ).rowcount
        bind.exec_driver_sql("COMMIT")
        if progress:
            done += updated
            progress(total, done)
        if upper is None:
            return
        after = upper


def upgrade() -> None:
    _paged_update(_FILL, _FILL_WHERE)


def downgrade() -> None:
    _paged_update(_CLEAR, _CLEAR_WHERE)
