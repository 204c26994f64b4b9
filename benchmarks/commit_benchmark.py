"""Commit time for one 32-candidate segment against a principal holding 10, 1,000 and 100,000 live beliefs.

    .venv/bin/python -m benchmarks.commit_benchmark                  # embedded PostgreSQL
    DATABASE_URL=postgresql://... .venv/bin/python -m benchmarks.commit_benchmark

Seeds each principal with one multi-row INSERT per page (rows built like the repository builds them, match
keys included), then times commit_segment inside one unit of work, median of several fresh runs, each run on
a copy of the same staged segment rolled back afterwards so every run sees the same store. Prints the three
times, the statements (round trips) one commit sends, and the ratio largest/smallest (goal: at most 2, i.e.
no full scans)."""

import argparse
import json
import os
import statistics
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import Engine, event, insert

from adapters.postgres import schema
from adapters.postgres.engine import create_store_engine, sqlalchemy_url
from adapters.postgres.repositories.rows import belief_row
from adapters.postgres.tables import beliefs
from adapters.postgres.uow import PostgresStore
from benchmarks.scratch_database import scratch_database
from domain.beliefs.commit import commit_segment
from domain.beliefs.records import Authority, MemoryRecord
from domain.candidates import ClaimKind, Derivation, Longevity, Sensitivity
from domain.events import EventRef, SourceEvent, SourceEventKind
from domain.owner import Owner
from domain.staging import StagedKind, StagedOutput
from tests.commit_support import candidate, segment

T0 = datetime(2026, 9, 2, 10, tzinfo=UTC)
SIZES = (10, 1_000, 100_000)
SEED_PAGE = 5_000
VERBS = ["run", "swim", "build", "read", "cook", "play", "write", "drive", "visit", "learn"]


def _seed(engine: Engine, owner: Owner, count: int) -> None:
    session = uuid.uuid4()
    for start in range(0, count, SEED_PAGE):
        rows = []
        for i in range(start, min(count, start + SEED_PAGE)):
            verb = VERBS[i % len(VERBS)]
            record = MemoryRecord(
                id=uuid.uuid4(),
                tenant_id=owner.tenant_id,
                principal_id=owner.principal_id,
                subject=f"habit:seed{i}",
                statement=f"User regularly {verb}s topic{i} with friend{i % 97}.",
                belief_type="habit",
                claim_kind=ClaimKind.HABIT,
                derivation=Derivation.DIRECT,
                longevity=Longevity.ONGOING,
                confidence=0.65,
                sensitivity=Sensitivity.INTERNAL,
                authority=Authority.AUTOMATIC,
                source_event_ids=(EventRef(session_id=session, seq=1),),
                formation_version="formation@9",
                valid_from=T0,
                last_evidence_at=T0,
                evidence_count=1,
                corroboration_count=1,
                updated_at=T0,
            )
            rows.append(belief_row(record))
        with engine.begin() as connection:
            connection.execute(insert(beliefs), rows)
    with engine.begin() as connection:
        connection.exec_driver_sql("ANALYZE beliefs")


def _segment_inputs(owner: Owner) -> tuple[list[SourceEvent], list[dict[str, object]]]:
    session = uuid.uuid4()
    events, proposals = [], []
    for seq in range(1, 9):
        text = " ".join(f"I {VERBS[(seq + k) % 10]} thing{seq}x{k}." for k in range(4))
        events.append(
            SourceEvent(
                tenant_id=owner.tenant_id,
                principal_id=owner.principal_id,
                session_id=session,
                seq=seq,
                kind=SourceEventKind.USER_MESSAGE,
                text=text,
                occurred_at=T0 + timedelta(minutes=seq),
            )
        )
        for k in range(4):
            verb = VERBS[(seq + k) % 10]
            proposals.append(
                candidate(
                    seq,
                    f"I {verb} thing{seq}x{k}.",
                    f"User {verb}s thing{seq}x{k}.",
                    subject=f"habit:thing{seq}x{k}",
                    kind=ClaimKind.HABIT,
                ).model_dump(mode="json")
            )
    return events, proposals


class _RoundTrips:
    """Counts statements sent to the server (one cursor execute or executemany is one round trip)."""

    def __init__(self, engine: Engine) -> None:
        self.count = 0
        event.listen(engine, "before_cursor_execute", self._seen)

    def _seen(self, *_: object) -> None:
        self.count += 1


def _time_commit(store: PostgresStore, owner: Owner, repeats: int, trips: _RoundTrips) -> tuple[float, int]:
    times, counts = [], []
    for _ in range(repeats):
        events, proposals = _segment_inputs(owner)
        ref = segment(events[0].session_id, [e.seq for e in events], owner)
        with store() as uow:
            uow.events.append(events)
            for kind, document in (
                (StagedKind.INTEGRATION, {"episodes": []}),
                (StagedKind.ANTICIPATION, {"predictions": []}),
                (StagedKind.DISTILLATION, {"candidates": proposals, "rejections": {}, "coverage": {}}),
            ):
                uow.staged.put(
                    StagedOutput(
                        tenant_id=owner.tenant_id,
                        principal_id=owner.principal_id,
                        session_id=ref.session_id,
                        segment_key=ref.segment_key,
                        stage=kind,
                        document=document,
                    )
                )
            uow.commit()
            before = trips.count
            started = time.perf_counter()
            report = commit_segment(uow, ref, uuid.uuid4(), now=T0 + timedelta(days=1))
            elapsed = time.perf_counter() - started
            counts.append(trips.count - before)
            assert report.admitted == 32, report
            uow.rollback()
        times.append(elapsed)
    return statistics.median(times), max(counts)


def run(server_url: str, repeats: int) -> dict[str, object]:
    with scratch_database(server_url, "commit_bench") as url:
        engine = create_store_engine(url)
        try:
            schema.upgrade(engine, "head")
            store = PostgresStore(engine)
            trips = _RoundTrips(engine)
            results: dict[str, float] = {}
            round_trips: dict[str, int] = {}
            for size in SIZES:
                owner = Owner(tenant_id="bench", principal_id=f"p{size}")
                _seed(engine, owner, size)
                _time_commit(store, owner, 1, trips)  # warm caches and plans
                elapsed, statements = _time_commit(store, owner, repeats, trips)
                results[str(size)] = round(elapsed * 1000, 2)
                round_trips[str(size)] = statements
            ratio = max(results.values()) / min(results.values())
            return {
                "commit_ms_median": results,
                "round_trips_per_commit": round_trips,
                "ratio_largest_smallest": round(ratio, 2),
                "repeats": repeats,
            }
        finally:
            engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    if configured := os.environ.get("DATABASE_URL"):
        print(json.dumps(run(sqlalchemy_url(configured), args.repeats)))
        return
    from adapters.embedded.postgres import start_embedded_postgres

    with tempfile.TemporaryDirectory() as scratch:
        print(json.dumps(run(start_embedded_postgres(Path(scratch) / "postgres"), args.repeats)))


if __name__ == "__main__":
    main()
