"""Backfill benchmark: N lifecycle@1 beliefs through the data revision, run by `agent db upgrade` in a child.

    .venv/bin/python -m benchmarks.backfill_benchmark                 # 100k and 1M rows, embedded server
    .venv/bin/python -m benchmarks.backfill_benchmark --rows 100000   # one size
    .venv/bin/python -m benchmarks.backfill_benchmark --settings default production   # both server configs
    DATABASE_URL=postgresql://... .venv/bin/python -m benchmarks.backfill_benchmark   # that server, as it is

Server settings (embedded server only; a DATABASE_URL server is measured as configured): default or
production, as benchmarks/server_settings.py describes.

For each size: a fresh database is migrated to the baseline, seeded with generate_series (server side),
vacuumed, upgraded to the structural revision, and then a child process runs the data revision alone.
Reported: rows/s over the child's whole life (interpreter start included) and over the backfill alone (the
child's life less the same child's cost for a no-op upgrade), and the child's peak RSS from wait4.
Goal: >= 50,000 rows/s and a peak RSS that does not grow with the row count.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from sqlalchemy import Engine, text

from adapters.postgres import schema
from adapters.postgres.engine import create_store_engine, sqlalchemy_url
from benchmarks.scratch_database import scratch_database
from benchmarks.server_settings import SETTINGS_BY_NAME

RESULTS_DIR = Path(__file__).parent / "results"

_SEED = text(
    """
    INSERT INTO beliefs (id, tenant_id, principal_id, belief_type, statement, subject, confidence,
                         source_events, valid_from, last_reinforced_at, corroboration_count, formation_version)
    SELECT md5('belief' || g)::uuid,
           't' || mod(g, 13),
           'p' || mod(g, 997),
           (ARRAY['project', 'goal', 'skill', 'preference', 'relationship', 'role', 'fact', 'misc'])[1 + mod(g, 8)],
           'User statement number ' || g || '.',
           'subject:' || mod(g, 5000),
           0.5 + mod(g, 40) / 100.0,
           jsonb_build_array(
               jsonb_build_object('session_id', md5('session' || mod(g, 50000))::uuid, 'seq', 1 + mod(g, 90)),
               jsonb_build_object('session_id', md5('session' || mod(g, 50000))::uuid, 'seq', 2 + mod(g, 90))),
           timestamptz '2025-01-01' + make_interval(mins => g),
           CASE WHEN mod(g, 3) = 0 THEN timestamptz '2026-01-01' + make_interval(mins => g) END,
           1 + mod(g, 4),
           (ARRAY['formation@7', 'formation@8'])[1 + mod(g, 2)]
    FROM generate_series(CAST(:first AS int), CAST(:last AS int)) AS g
    """
)
SEED_CHUNK = 250_000


@dataclass
class Measurement:
    settings: str
    rows: int
    child_seconds: float
    noop_child_seconds: float
    backfill_seconds: float
    rows_per_second_child: float
    rows_per_second_backfill: float
    peak_rss_mb: float
    noop_peak_rss_mb: float
    unfilled_rows: int


def _agent_command(*args: str) -> list[str]:
    script = Path(sys.executable).parent / "agent"
    if script.exists():
        return [str(script), *args]
    return [sys.executable, "-c", "from adapters.cli.main import app; app()", *args]


def _run_child(url: str, *args: str) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one `agent` child process."""
    env = {**os.environ, "DATABASE_URL": url}
    started = time.perf_counter()
    child = subprocess.Popen(_agent_command(*args), env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"agent {' '.join(args)} exited with {child.returncode}")
    return elapsed, usage.ru_maxrss / 1024  # Linux reports kilobytes


def _seed(engine: Engine, rows: int) -> None:
    for first in range(1, rows + 1, SEED_CHUNK):
        with engine.begin() as connection:
            connection.execute(_SEED, {"first": first, "last": min(first + SEED_CHUNK - 1, rows)})
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        # A live table is vacuumed by autovacuum; the benchmark should not measure a cold, unvacuumed heap.
        connection.exec_driver_sql("VACUUM (ANALYZE) beliefs")


def measure(server_url: str, rows: int, settings: str = "server") -> Measurement:
    with scratch_database(server_url, "backfill_bench") as url:
        engine = create_store_engine(url, pool_size=1)
        try:
            schema.upgrade(engine, schema.BASELINE_REVISION)
            _seed(engine, rows)
            schema.upgrade(engine, schema.STRUCTURAL_REVISION)
            child_seconds, peak_mb = _run_child(url, "db", "upgrade", schema.BACKFILL_REVISION)
            # The same child with nothing to do: interpreter start, imports and Alembic's own work.
            noop_seconds, noop_peak_mb = _run_child(url, "db", "upgrade", schema.BACKFILL_REVISION)
            with engine.connect() as connection:
                unfilled = connection.execute(
                    text("SELECT count(*) FROM beliefs WHERE lifecycle_policy_version IS NULL")
                ).scalar_one()
        finally:
            engine.dispose()
    backfill_seconds = max(child_seconds - noop_seconds, 1e-9)
    return Measurement(
        settings=settings,
        rows=rows,
        child_seconds=round(child_seconds, 2),
        noop_child_seconds=round(noop_seconds, 2),
        backfill_seconds=round(backfill_seconds, 2),
        rows_per_second_child=round(rows / child_seconds),
        rows_per_second_backfill=round(rows / backfill_seconds),
        peak_rss_mb=round(peak_mb, 1),
        noop_peak_rss_mb=round(noop_peak_mb, 1),
        unfilled_rows=int(unfilled),
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--settings", nargs="+", choices=list(SETTINGS_BY_NAME), default=["production"])
    arguments = parser.parse_args()

    results: list[Measurement] = []
    if configured := os.environ.get("DATABASE_URL"):
        server_url = sqlalchemy_url(configured)
        results = [measure(server_url, rows) for rows in arguments.rows]
    else:
        from adapters.embedded.postgres import start_embedded_postgres, stop_embedded_postgres

        for settings in arguments.settings:
            with tempfile.TemporaryDirectory(prefix="backfill-bench-") as scratch:
                server_url = start_embedded_postgres(
                    Path(scratch) / "postgres",
                    server_settings=SETTINGS_BY_NAME[settings],
                )
                try:
                    results += [measure(server_url, rows, settings) for rows in arguments.rows]
                finally:
                    stop_embedded_postgres(Path(scratch) / "postgres")

    RESULTS_DIR.mkdir(exist_ok=True)
    (RESULTS_DIR / "backfill.json").write_text(json.dumps([asdict(r) for r in results], indent=2) + "\n")
    print(
        f"{'settings':>10} {'rows':>10} {'child s':>8} {'backfill s':>10} {'rows/s (child)':>15} {'rows/s (backfill)':>18} "
        f"{'peak RSS MB':>12}"
    )
    for r in results:
        print(
            f"{r.settings:>10} {r.rows:>10,} {r.child_seconds:>8.2f} {r.backfill_seconds:>10.2f} {r.rows_per_second_child:>15,} "
            f"{r.rows_per_second_backfill:>18,} {r.peak_rss_mb:>12.1f}"
        )
    if any(r.unfilled_rows for r in results):
        raise SystemExit("some rows were left without lifecycle@2 values")


if __name__ == "__main__":
    main()
