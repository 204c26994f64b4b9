"""Conflicting sessions: 30 sessions of one principal, each saying "My favourite food is X" (a different X,
dated 7 minutes apart), consolidated concurrently through the real activities on PostgreSQL, 5 times from
clean. Reported: how many distinct live-belief sets the runs left (goal: 1) and whether the latest-dated
statement is the one live.

    .venv/bin/python -m benchmarks.conflicting_sessions                   # embedded PostgreSQL
    .venv/bin/python -m benchmarks.conflicting_sessions --runs 5 --threads 8
    DATABASE_URL=postgresql://... .venv/bin/python -m benchmarks.conflicting_sessions

Each run uses a fresh principal (from clean: no memory before it); sessions run on a thread pool, so which
commits first varies from run to run (commits of one principal serialize in the store, in arrival order).
"""

import argparse
import json
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from uuid import uuid4

from activities.contracts import SessionKey
from adapters.postgres.uow import PostgresStore
from benchmarks.scratch_database import migrated_scratch
from domain.owner import Owner
from domain.policy.versions import FORMATION_9
from evals.consolidation import consolidate_session
from tests.builders import FAVOURITE_FOODS as FOODS
from tests.builders import T0, event

RESULTS_DIR = Path(__file__).parent / "results"


def run_once(store: PostgresStore, threads: int) -> tuple[str, ...]:
    owner = Owner(tenant_id="bench", principal_id=f"conflict-{uuid4().hex[:8]}")
    sessions = [uuid4() for _ in FOODS]
    with store() as uow:
        for minutes, (session, food) in enumerate(zip(sessions, FOODS, strict=True)):
            said = event(1, f"My favourite food is {food}.", owner=owner, session_id=session)
            uow.events.append([said.model_copy(update={"occurred_at": T0 + timedelta(minutes=7 * minutes)})])
        uow.commit()

    def consolidate(session: object) -> None:
        key = SessionKey(tenant_id=owner.tenant_id, principal_id=owner.principal_id, session_id=session)
        consolidate_session(store, None, key, FORMATION_9, T0 + timedelta(days=1))

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(consolidate, sessions))
    with store() as uow:
        return tuple(sorted(b.statement for b in uow.beliefs.page(owner, None, 1_000)))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    with migrated_scratch("conflicting_sessions", pool_size=args.threads) as engine:
        store = PostgresStore(engine)
        live_sets = [run_once(store, args.threads) for _ in range(args.runs)]
    latest = (f"User's favourite food is {FOODS[-1]}.",)
    result = {
        "runs": args.runs,
        "sessions": len(FOODS),
        "distinct_live_sets": len(set(live_sets)),
        "latest_dated_live_in_every_run": all(s == latest for s in live_sets),
        "live_sets": [list(s) for s in live_sets],
    }
    print(json.dumps(result, indent=2))
    RESULTS_DIR.mkdir(exist_ok=True)
    (RESULTS_DIR / "conflicting_sessions.json").write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
