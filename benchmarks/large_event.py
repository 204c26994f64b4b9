"""Large-event benchmark: time to consolidate ONE event of 1k / 10k / 100k clauses (capped at the 1 MB event
limit), through the real activities (load_batch, the three stages on the deterministic fallback, commit,
advance_watermark), round after round until the watermark passes the event.

    .venv/bin/python -m benchmarks.large_event                         # in-memory store
    .venv/bin/python -m benchmarks.large_event --clauses 1000 10000    # a subset
    .venv/bin/python -m benchmarks.large_event --postgres              # embedded PostgreSQL (or DATABASE_URL)

The event is a user message of short first-person sentences (one in ten states a preference the
deterministic former keeps, the rest are chatter), the largest cut to fit 1 MB. An event past a segment's
bounds is planned as clause-range pieces of at most 90 clauses; each piece is its own segment (three stage
calls, one commit). Reported: clauses, bytes, segments, rounds, seconds, and microseconds per clause (flat
when the work is linear). Goal: linear; 1 MB in under a minute.
"""

import argparse
import json
import os
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any
from uuid import uuid4

from activities.batch import BatchActivities
from activities.commit import CommitActivities
from activities.contracts import AdvanceWatermarkInput, CommitInput, LoadBatchInput, SessionKey, StageInput
from activities.stages import StageActivities
from adapters.memory.store import InMemoryStore
from domain.events import MAX_EVENT_TEXT_BYTES
from domain.formation.clauses import split_clauses
from domain.policy.versions import FORMATION_9
from domain.ports import UnitOfWorkFactory
from tests.builders import OWNER, T0, event

RESULTS_DIR = Path(__file__).parent / "results"
FOODS = ["sushi", "ramen", "falafel", "paella", "curry", "tacos", "pho", "dal", "kimchi", "gnocchi"]
CHATTER = ["Ok.", "Sure thing.", "Hm, right.", "Got it.", "Yes.", "No way!", "Fine.", "Cool.", "Ha.", "Hmm."]
MAX_ROUNDS = 100


def message(clauses: int) -> str:
    """clauses short sentences, cut to the whole sentences that fit the event limit."""
    parts: list[str] = []
    size = 0
    for i in range(clauses):
        sentence = f"I like {FOODS[i // 10 % len(FOODS)]}." if i % 10 == 0 else CHATTER[i % len(CHATTER)]
        grown = len(sentence.encode("utf-8")) + (1 if parts else 0)
        if size + grown > MAX_EVENT_TEXT_BYTES:
            break
        parts.append(sentence)
        size += grown
    return " ".join(parts)


def consolidate(store: UnitOfWorkFactory, clauses: int) -> dict[str, Any]:
    session = uuid4()
    text = message(clauses)
    with store() as uow:
        uow.events.append([event(1, text, session_id=session)])
        uow.commit()
    key = SessionKey(tenant_id=OWNER.tenant_id, principal_id=OWNER.principal_id, session_id=session)
    now = T0 + timedelta(days=1)
    batch = BatchActivities(store, lambda: now)
    stages = StageActivities(store, None, lambda: now)
    commit = CommitActivities(store, lambda: now)
    segments = rounds = 0
    resume = None
    started = time.perf_counter()
    for rounds in range(1, MAX_ROUNDS + 1):  # noqa: B007 (reported after the loop)
        plan = batch.load_batch(LoadBatchInput(session=key, formation_policy=FORMATION_9, resume=resume))
        resume = plan.resume
        run_id = uuid4()
        for ref in plan.segments:
            stage_input = StageInput(ref=ref, run_id=run_id)
            for stage in (stages.integrate_episodes, stages.anticipate, stages.distill):
                stage(stage_input)
            commit.commit_segment(CommitInput(ref=ref, run_id=run_id))
        segments += len(plan.segments)
        advance = batch.advance_watermark(
            AdvanceWatermarkInput(session=key, expected=plan.watermark, new=plan.last_seq)
        )
        if advance.current >= 1:
            break
    elapsed = time.perf_counter() - started
    counted = len(split_clauses(1, text))
    return {
        "clauses_asked": clauses,
        "clauses": counted,
        "bytes": len(text.encode("utf-8")),
        "segments": segments,
        "rounds": rounds,
        "seconds": round(elapsed, 2),
        "us_per_clause": round(1e6 * elapsed / counted, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clauses", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL (DATABASE_URL or embedded)")
    args = parser.parse_args()
    if args.postgres:
        from sqlalchemy import create_engine

        from adapters.postgres import schema
        from adapters.postgres.engine import sqlalchemy_url
        from adapters.postgres.uow import PostgresStore
        from benchmarks.scratch_database import scratch_database

        configured = os.environ.get("DATABASE_URL")
        if configured:
            server_url = sqlalchemy_url(configured)
        else:
            from adapters.embedded.postgres import start_embedded_postgres

            server_url = start_embedded_postgres(Path(tempfile.mkdtemp(prefix="large-event-pg-")))
        with scratch_database(server_url, "large_event") as url:
            engine = create_engine(url)
            try:
                schema.upgrade(engine, "head")
                rows = [consolidate(PostgresStore(engine), n) for n in args.clauses]
            finally:
                engine.dispose()
    else:
        rows = [consolidate(InMemoryStore(), n) for n in args.clauses]
    result = {"store": "postgres" if args.postgres else "memory", "runs": rows}
    print(json.dumps(result, indent=2))
    RESULTS_DIR.mkdir(exist_ok=True)
    (RESULTS_DIR / f"large_event_{result['store']}.json").write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
