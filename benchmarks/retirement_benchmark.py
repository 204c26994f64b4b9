"""Retirement benchmark: a store of N beliefs of mixed kinds, 10% past their lifecycle@2 horizon.

    .venv/bin/python -m benchmarks.retirement_benchmark                  # 1,000,000 beliefs, embedded server
    .venv/bin/python -m benchmarks.retirement_benchmark --rows 100000    # one smaller size
    DATABASE_URL=postgresql://... .venv/bin/python -m benchmarks.retirement_benchmark

A fresh database is migrated to head and seeded server side (generate_series). One principal holds 10,000
live beliefs; the rest spread over 1,000 principals. Every tenth belief is past its horizon (hypotheses,
ongoing and durable of every claim kind); explicit-remember beliefs are old but never expire; fresh durable
beliefs are up to 80 days old, so the index range holds live rows the sweep must step over.

Reported: the sweep through the same code path as the activity (domain.lifecycle.sweep_page over the
PostgreSQL store, SWEEP_PAGE_SIZE (10,000-row) pages, one transaction each, memory.retired audits included) in rows retired/s;
the page query's EXPLAIN (ANALYZE, BUFFERS); recall latency (domain.retrieval.recall) for the big principal.
Goal: >= 30,000 retirements/s, the expiry index in the plan, memory flat in store size.
"""

import argparse
import json
import os
import resource
import statistics
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text

from adapters.postgres import schema
from adapters.postgres.engine import create_store_engine, sqlalchemy_url, with_database
from adapters.postgres.uow import PostgresStore
from domain.lifecycle import SWEEP_PAGE_SIZE, cutoffs, sweep_page
from domain.owner import Owner
from domain.retrieval import recall

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
      FROM generate_series(:first, :last) AS g
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


def _fresh_database(server_url: str) -> tuple[str, str]:
    name = f"retirement_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    admin.dispose()
    return name, with_database(server_url, name)


def _drop(server_url: str, name: str) -> None:
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.dispose()


def _seed(engine: Engine, rows: int, now: datetime) -> float:
    started = time.perf_counter()
    for first in range(1, rows + 1, SEED_CHUNK):
        last = min(rows, first + SEED_CHUNK - 1)
        with engine.begin() as connection:
            connection.execute(_SEED, {"first": first, "last": last, "big": BIG_PRINCIPAL_ROWS, "now": now})
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.exec_driver_sql("VACUUM ANALYZE beliefs")
    return time.perf_counter() - started


def _explain_page_query(engine: Engine, store: PostgresStore, now: datetime) -> list[str]:
    captured: list[tuple[str, Any]] = []

    def capture(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool) -> None:
        if "retirement sweep page" in statement or (
            "FROM beliefs" in statement and "ORDER BY beliefs.last_evidence_at" in statement
        ):
            captured.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", capture)
    try:
        # The sweep's own page statement (rolled back), or expiry_candidates' before the expires_at revision.
        with store() as uow:
            sweep_page(uow, now, None, SWEEP_PAGE_SIZE)
    finally:
        event.remove(engine, "before_cursor_execute", capture)
    statement, parameters = captured[0]
    with engine.connect() as connection:
        raw = connection.connection.dbapi_connection
        assert raw is not None
        cursor = raw.cursor()
        try:
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + statement, parameters)
            plan = [row[0] for row in cursor.fetchall()]
        finally:
            cursor.close()
        connection.rollback()
    return plan


def measure(server_url: str, rows: int, keep: bool = False) -> dict[str, Any]:
    name, url = _fresh_database(server_url)
    engine = create_store_engine(url, pool_size=2)
    try:
        schema.upgrade(engine, "head")
        now = datetime.now(UTC).replace(microsecond=0)
        seed_s = _seed(engine, rows, now)
        store = PostgresStore(engine)
        plan = _explain_page_query(engine, store, now)

        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        retired = examined = pages = 0
        after = None
        started = time.perf_counter()
        page_times: list[float] = []
        while True:
            page_started = time.perf_counter()
            with store() as uow:
                page = sweep_page(uow, now, after, SWEEP_PAGE_SIZE)
                uow.commit()
            page_times.append(time.perf_counter() - page_started)
            pages += 1
            retired += page.retired
            examined += page.examined
            after = page.next_cursor
            if page.done:
                break
        sweep_s = time.perf_counter() - started
        rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

        with engine.connect() as connection:
            audits = connection.execute(
                text("SELECT count(*) FROM formation_audits WHERE kind = 'memory.retired'")
            ).scalar()
            closed = connection.execute(
                text("SELECT count(*) FROM beliefs WHERE closed_reason LIKE 'retired_%'")
            ).scalar()

        with store() as uow:
            still_expired = len(uow.beliefs.expiry_candidates(cutoffs(now), None, 10))

        latencies = []
        for _ in range(7):
            t = time.perf_counter()
            with store() as uow:
                result = recall(uow, BIG_PRINCIPAL, now)
            latencies.append(time.perf_counter() - t)
        assert result.trace.considered == BIG_PRINCIPAL_ROWS

        return {
            "rows": rows,
            "seed_seconds": round(seed_s, 1),
            "retired": retired,
            "retired_audits": audits,
            "closed_retired_rows": closed,
            "left_expired_after_sweep": still_expired,
            "examined": examined,
            "pages": pages,
            "sweep_seconds": round(sweep_s, 2),
            "retired_per_second": round(retired / sweep_s) if sweep_s else None,
            "page_seconds_p50": round(statistics.median(page_times), 3),
            "page_seconds_max": round(max(page_times), 3),
            "rss_kib_before_sweep": rss_before,
            "rss_kib_after_sweep": rss_after,
            "recall_ms_p50_10k_live": round(statistics.median(latencies) * 1000, 1),
            "recall_ms_max_10k_live": round(max(latencies) * 1000, 1),
            "page_query_plan": plan,
        }
    finally:
        engine.dispose()
        if not keep:
            _drop(server_url, name)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--rows", type=int, action="append", help="store size; repeatable (default 1,000,000)"
    )
    args = parser.parse_args()
    sizes = args.rows or [1_000_000]
    if configured := os.environ.get("DATABASE_URL"):
        server_url = sqlalchemy_url(configured)
    else:
        from adapters.embedded.postgres import start_embedded_postgres

        server_url = start_embedded_postgres(Path(tempfile.mkdtemp(prefix="retirement-bench-pg-")))
    RESULTS_DIR.mkdir(exist_ok=True)
    for rows in sizes:
        result = measure(server_url, rows)
        plan = result.pop("page_query_plan")
        print(json.dumps(result, indent=2))
        print("\n".join(plan))
        (RESULTS_DIR / f"retirement_{rows}.json").write_text(
            json.dumps({**result, "page_query_plan": plan}, indent=2)
        )


if __name__ == "__main__":
    main()
