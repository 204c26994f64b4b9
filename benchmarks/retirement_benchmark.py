"""Retirement benchmark: a store of N beliefs of mixed kinds, 10% past their lifecycle@2 horizon.

    .venv/bin/python -m benchmarks.retirement_benchmark                        # 1,000,000 beliefs, both settings
    .venv/bin/python -m benchmarks.retirement_benchmark --rows 100000          # one smaller size
    .venv/bin/python -m benchmarks.retirement_benchmark --settings production --lanes 2
    DATABASE_URL=postgresql://... .venv/bin/python -m benchmarks.retirement_benchmark   # that server, as it is

A fresh database is migrated to head and seeded server side (generate_series). One principal holds 10,000
live beliefs; the rest spread over 1,000 principals. Every tenth belief is past its horizon (hypotheses,
ongoing and durable of every claim kind); explicit-remember beliefs are old but never expire; fresh durable
beliefs are up to 80 days old, so the index range holds live rows the sweep must step over.

Three sweeps, each on its own copy of that database (CREATE DATABASE ... TEMPLATE) after a CHECKPOINT, so each
pays the same full-page images a sweep pays in production (the first change to a page after a checkpoint):
  raw     the floor: one UPDATE per 10,000-row page of the expiry index, no re-check of the row's facts, no
          audit; what a hand-written SQL sweep does;
  lanes=1 the product's page (domain.beliefs.lifecycle.sweep_page over the PostgreSQL store: re-checks each row's
          facts, writes one memory.retired audit per retirement), one page at a time;
  lanes=N the same pages, N lanes side by side on disjoint id slices, as RetirementSweepWorkflow runs them
          (one thread per lane here, one activity per lane there).
Reported per sweep: rows retired/s, WAL bytes and full-page images; the ratios of the three within one run
(the machine is shared and noisy); the page query's EXPLAIN (ANALYZE, BUFFERS); recall latency
(domain.beliefs.retrieval.recall) for the big principal; RSS before and after. Server settings: default and/or
production (benchmarks/server_settings.py); a DATABASE_URL server is measured as configured.
Goal: >= 30,000 retirements/s, the expiry index in the plan, memory flat in store size.
"""

import argparse
import json
import os
import resource
import statistics
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, make_url, text

from adapters.postgres import schema
from adapters.postgres.engine import create_store_engine, sqlalchemy_url
from adapters.postgres.repositories.retirement import SWEEP_PAGE_CTE, explain_sweep_page
from adapters.postgres.uow import PostgresStore
from benchmarks.scratch_database import scratch_database
from benchmarks.server_settings import SETTINGS_BY_NAME
from domain.beliefs.lifecycle import SWEEP_LANES, SWEEP_PAGE_SIZE, WHOLE_ID_SPACE, SweepLane, sweep_lanes
from domain.beliefs.recall import recall
from domain.beliefs.sweep import sweep_page
from domain.owner import Owner

RESULTS_DIR = Path(__file__).parent / "results"
BIG_PRINCIPAL = Owner(tenant_id="bench", principal_id="p-big")
BIG_PRINCIPAL_ROWS = 10_000

# shape by g mod 8: (derivation, longevity, claim_kind, authority, horizon days)
_SEED = text(
    """
    WITH shaped AS (
      SELECT g,
             (ARRAY['hypothesis','direct','direct','direct','direct','direct','direct','direct'])[1 + mod(g, 8)] AS derivation,
             (ARRAY['tentative','ongoing','durable','durable','durable','durable','ongoing','durable'])[1 + mod(g, 8)] AS longevity,
             (ARRAY['skill','ongoing_project','role','preference','habit','project_fact','goal','interest'])[1 + mod(g, 8)] AS claim_kind,
             CASE WHEN mod(g, 8) = 7 THEN 'explicit_remember' ELSE 'automatic' END AS authority,
             (ARRAY[30, 90, 730, 365, 180, 90, 90, 365])[1 + mod(g, 8)] AS horizon
      FROM generate_series(CAST(:first AS int), CAST(:last AS int)) AS g
    )
    INSERT INTO beliefs (id, tenant_id, principal_id, belief_type, statement, subject, confidence, source_events,
                         valid_from, corroboration_count, formation_version, claim_kind, derivation, longevity,
                         last_evidence_at, evidence_count, lifecycle_policy_version, sensitivity, authority,
                         utility, updated_at, version)
    SELECT md5('belief' || g)::uuid,
           'bench',
           CASE WHEN g <= :big THEN 'p-big' ELSE 'p' || mod(g, 1000) END,
           claim_kind,
           'User statement number ' || g || '.',
           'subject:' || mod(g, 5000),
           CASE derivation WHEN 'hypothesis' THEN 0.35 ELSE 0.65 END,
           jsonb_build_array(jsonb_build_object('session_id', md5('session' || mod(g, 50000))::uuid, 'seq', 1)),
           ev - interval '1 day',
           1,
           'formation@9',
           claim_kind, derivation, longevity,
           ev,
           1,
           'lifecycle@2',
           'internal',
           authority,
           0,
           ev,
           0
    FROM (
      SELECT s.*,
             CASE
               -- every tenth automatic belief (and none of the big principal's) is past its horizon
               WHEN mod(g, 10) = 3 AND g > :big AND authority = 'automatic'
                 THEN :now - make_interval(days => horizon + 1 + mod(g, 20), secs => mod(g, 86400))
               WHEN authority = 'explicit_remember'
                 THEN :now - make_interval(days => 400 + mod(g, 300))
               WHEN longevity = 'durable'
                 THEN :now - make_interval(days => mod(g, 80), secs => mod(g, 86400))
               ELSE :now - make_interval(days => mod(g, 29), secs => mod(g, 86400))
             END AS ev
      FROM shaped s
    ) seeded
    """
)
SEED_CHUNK = 200_000

# The floor a sweep cannot beat on this schema: the product's page read, then close each row, nothing else.
_RAW_PAGE = text(
    f"""
    WITH {SWEEP_PAGE_CTE}, retired AS (
      UPDATE beliefs AS b
         SET valid_to = page.expires_at, closed_reason = 'retired', updated_at = page.expires_at,
             version = b.version + 1
        FROM page
       WHERE b.id = page.id
      RETURNING b.id
    )
    SELECT (SELECT count(*) FROM retired) AS retired, count(*) AS examined,
           (array_agg(expires_at ORDER BY expires_at DESC, id DESC))[1] AS last_expires,
           (array_agg(id ORDER BY expires_at DESC, id DESC))[1] AS last_id
      FROM page
    """
)


def _seed(engine: Engine, rows: int, now: datetime) -> float:
    started = time.perf_counter()
    for first in range(1, rows + 1, SEED_CHUNK):
        last = min(rows, first + SEED_CHUNK - 1)
        with engine.begin() as connection:
            connection.execute(_SEED, {"first": first, "last": last, "big": BIG_PRINCIPAL_ROWS, "now": now})
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.exec_driver_sql("VACUUM ANALYZE beliefs")
    return time.perf_counter() - started


def _explain_page_query(engine: Engine, now: datetime, lane: SweepLane) -> list[str]:
    """The first page of ``lane`` as the sweep runs it, under EXPLAIN (ANALYZE, BUFFERS), rolled back."""
    with engine.connect() as connection:
        plan = explain_sweep_page(connection, now, lane, "ANALYZE, BUFFERS")
        connection.rollback()
    return [str(line) for line in plan]


def _wal(server_url: str, checkpoint: bool = False) -> tuple[int, int]:
    """The WAL position and the full-page images written so far (read after the sweep's backends have
    exited: a backend hands its WAL statistics over when it ends)."""
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        if checkpoint:
            connection.exec_driver_sql("CHECKPOINT")
        row = connection.exec_driver_sql(
            "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0'), wal_fpi FROM pg_stat_wal"
        ).one()
    admin.dispose()
    return int(row[0]), int(row[1])


def _raw_lane(engine: Engine, now: datetime) -> tuple[int, list[float]]:
    retired, after_id, after_expires, page_times = 0, None, None, []
    while True:
        started = time.perf_counter()
        with engine.begin() as connection:
            # As the product's page does (adapters.postgres.repositories.retirement.retire_expired_page):
            # probe by primary key, never hash a scan of the whole table.
            connection.exec_driver_sql(
                "SELECT set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)"
            )
            row = connection.execute(
                _RAW_PAGE,
                {
                    "now": now,
                    "limit": SWEEP_PAGE_SIZE,
                    "after_id": after_id,
                    "after_expires": after_expires,
                    "lane_first": WHOLE_ID_SPACE.first_id,
                    "lane_end": WHOLE_ID_SPACE.end_id,
                },
            ).one()
        page_times.append(time.perf_counter() - started)
        retired += row.retired
        if row.last_id is not None:
            after_id, after_expires = row.last_id, row.last_expires
        if row.examined < SWEEP_PAGE_SIZE:
            return retired, page_times


def _product_lane(store: PostgresStore, now: datetime, lane: SweepLane) -> tuple[int, list[float]]:
    retired, after, page_times = 0, None, []
    while True:
        started = time.perf_counter()
        with store() as uow:
            page = sweep_page(uow, now, after, SWEEP_PAGE_SIZE, lane)
            uow.commit()
        page_times.append(time.perf_counter() - started)
        retired += page.retired
        after = page.next_cursor
        if page.done:
            return retired, page_times


def _timed_sweep(
    server_url: str,
    template: str,
    now: datetime,
    lanes: int,
    run_lane: Callable[[Engine, SweepLane], tuple[int, list[float]]],
) -> dict[str, Any]:
    """One sweep on a fresh copy of the seeded database, its lanes in threads; the copy is dropped after."""
    with scratch_database(server_url, f"{template}_copy", template=template) as url:
        engine = create_store_engine(url, pool_size=lanes + 1)
        try:
            wal_before = _wal(server_url, checkpoint=True)
            started = time.perf_counter()
            with ThreadPoolExecutor(max_workers=lanes) as pool:
                outcomes = list(pool.map(lambda lane: run_lane(engine, lane), sweep_lanes(lanes)))
            seconds = time.perf_counter() - started
            with engine.connect() as connection:
                audits = connection.execute(
                    text("SELECT count(*) FROM formation_audits WHERE kind = 'memory.retired'")
                ).scalar_one()
                left = connection.execute(
                    text("SELECT count(*) FROM beliefs WHERE valid_to IS NULL AND expires_at <= :now"),
                    {"now": now},
                ).scalar_one()
        finally:
            engine.dispose()
        wal_after = _wal(server_url)
    retired = sum(count for count, _ in outcomes)
    page_times = [t for _, times in outcomes for t in times]
    return {
        "lanes": lanes,
        "retired": retired,
        "retired_audits": audits,
        "left_expired_after_sweep": left,
        "pages": len(page_times),
        "seconds": round(seconds, 2),
        "retired_per_second": round(retired / seconds),
        "page_seconds_p50": round(statistics.median(page_times), 3),
        "page_seconds_max": round(max(page_times), 3),
        "wal_mb": round((wal_after[0] - wal_before[0]) / 1e6),
        "full_page_images": wal_after[1] - wal_before[1],
    }


def measure(server_url: str, rows: int, lanes: int) -> dict[str, Any]:
    with scratch_database(server_url, "retirement_bench") as url:
        return _measure_on(server_url, url, rows, lanes)


def _measure_on(server_url: str, url: str, rows: int, lanes: int) -> dict[str, Any]:
    name = make_url(url).database
    assert name is not None
    engine = create_store_engine(url, pool_size=2)
    try:
        schema.upgrade(engine, "head")
        now = datetime.now(UTC).replace(microsecond=0)
        seed_s = _seed(engine, rows, now)
        engine.dispose()  # a template must have no connections

        def product(e: Engine, lane: SweepLane) -> tuple[int, list[float]]:
            return _product_lane(PostgresStore(e), now, lane)

        def raw_sweep() -> dict[str, Any]:
            return _timed_sweep(server_url, name, now, 1, lambda e, _: _raw_lane(e, now))

        # The floor is the faster of a raw sweep run first and one run last: the first copy after seeding
        # is sometimes slowed by the seed's own aftermath (writeback, autovacuum), which must not flatter
        # the product's ratio.
        raw_first = raw_sweep()
        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        one = _timed_sweep(server_url, name, now, 1, product)
        many = _timed_sweep(server_url, name, now, lanes, product)
        rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        raw_last = raw_sweep()
        raw = max(raw_first, raw_last, key=lambda sweep: sweep["retired_per_second"])

        store = PostgresStore(engine)
        plan = _explain_page_query(engine, now, sweep_lanes(lanes)[0])
        latencies = []
        for _ in range(7):
            t = time.perf_counter()
            with store() as uow:
                result = recall(uow, BIG_PRINCIPAL, now)
            latencies.append(time.perf_counter() - t)
        assert result.trace.considered == BIG_PRINCIPAL_ROWS
        with engine.connect() as connection:
            expired = connection.execute(
                text("SELECT count(*) FROM beliefs WHERE valid_to IS NULL AND expires_at <= :now"),
                {"now": now},
            ).scalar_one()

        return {
            "rows": rows,
            "expired_rows": expired,
            "seed_seconds": round(seed_s, 1),
            "raw_sql": raw,
            "raw_sql_first_and_last_per_second": [
                raw_first["retired_per_second"],
                raw_last["retired_per_second"],
            ],
            "sweep_one_lane": one,
            f"sweep_{lanes}_lanes": many,
            "ratio_one_lane_to_raw": round(one["retired_per_second"] / raw["retired_per_second"], 2),
            f"ratio_{lanes}_lanes_to_raw": round(many["retired_per_second"] / raw["retired_per_second"], 2),
            f"ratio_{lanes}_lanes_to_one_lane": round(
                many["retired_per_second"] / one["retired_per_second"], 2
            ),
            "rss_kib_before_sweeps": rss_before,
            "rss_kib_after_sweeps": rss_after,
            "recall_ms_p50_10k_live": round(statistics.median(latencies) * 1000, 1),
            "recall_ms_max_10k_live": round(max(latencies) * 1000, 1),
            "page_query_plan": plan,
        }
    finally:
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--rows", type=int, action="append", help="store size; repeatable (default 1,000,000)"
    )
    parser.add_argument(
        "--lanes", type=int, default=SWEEP_LANES, help=f"lanes side by side (default {SWEEP_LANES})"
    )
    parser.add_argument(
        "--settings", nargs="+", choices=list(SETTINGS_BY_NAME), default=list(SETTINGS_BY_NAME)
    )
    args = parser.parse_args()
    sizes = args.rows or [1_000_000]
    configured = os.environ.get("DATABASE_URL")
    data_dir = Path(tempfile.mkdtemp(prefix="retirement-bench-pg-"))
    RESULTS_DIR.mkdir(exist_ok=True)
    for settings in ["as configured"] if configured else args.settings:
        if configured:
            server_url = sqlalchemy_url(configured)
        else:
            from adapters.embedded.postgres import start_embedded_postgres

            # One data directory: the server restarts with each settings name's values before it is measured.
            server_url = start_embedded_postgres(data_dir, server_settings=SETTINGS_BY_NAME[settings])
        for rows in sizes:
            result = {"settings": settings, **measure(server_url, rows, args.lanes)}
            plan = result.pop("page_query_plan")
            print(json.dumps(result, indent=2))
            print("\n".join(plan))
            slug = settings.replace(" ", "_")
            (RESULTS_DIR / f"retirement_{rows}_{slug}.json").write_text(
                json.dumps({**result, "page_query_plan": plan}, indent=2)
            )


if __name__ == "__main__":
    main()
