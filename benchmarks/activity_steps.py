"""CPU and SQL statements of each activity step of one consolidation, in process, without Temporal.

The consolidation benchmark measures a worker's CPU per consolidation as a whole; this one splits the part
spent in activity bodies (store and domain code) by step, so a cut can be aimed and checked. It runs a
one-segment consolidation's steps in the order the workflows do (load_batch, the three stages, the commit,
advance_watermark: evals.consolidation.consolidate_session, each step timed) on the embedded PostgreSQL with
the consolidation benchmark's sessions and scripted answers (no latency), and reports per consolidation each
step's CPU (this process only) and its SQL statements and units of work. The first --warmup sessions are not counted.

    .venv/bin/python -m benchmarks.activity_steps --sessions 300

Last reading (2 cores, 150 sessions), ms of CPU / statements / units of work: load_batch 1.4 / 3 / 1,
integrate_episodes 1.4 / 2 / 2, anticipate 1.5 / 4 / 2, distill 2.5 / 4 / 2, commit_segment 5.2 / 8 / 1,
advance_watermark 1.7 / 3 / 1; 14 ms and 24 statements in all (the stages' units of work are autocommit: no
BEGIN or COMMIT around their statements).
"""

import argparse
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from sqlalchemy import Engine, event

from activities.contracts import SessionKey
from adapters.embedded.postgres import start_embedded_postgres
from adapters.postgres.engine import create_store_engine
from adapters.postgres.schema import upgrade
from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.temporal.client import DEFAULT_FORMATION_POLICY
from benchmarks.consolidation_benchmark import answer, seed_sessions
from evals.consolidation import consolidate_session

In = TypeVar("In")
Out = TypeVar("Out")


class Steps:
    """Per step name: CPU seconds, statements and units of work (connections taken from the pool)."""

    def __init__(self) -> None:
        self.cpu: defaultdict[str, float] = defaultdict(float)
        self.statements: Counter[str] = Counter()
        self.units: Counter[str] = Counter()
        self._current = ""

    def watch(self, engine: Engine) -> None:
        event.listen(engine, "before_cursor_execute", lambda *_: self.statements.update([self._current]))
        event.listen(engine, "engine_connect", lambda *_: self.units.update([self._current]))

    def run(self, name: str, step: Callable[[In], Out], arg: In, /) -> Out:
        self._current = name
        started = time.process_time()
        try:
            return step(arg)
        finally:
            self.cpu[name] += time.process_time() - started

    def clear(self) -> None:
        for counter in (self.cpu, self.statements, self.units):
            counter.clear()


def main(args: argparse.Namespace) -> None:
    root = Path(tempfile.mkdtemp(prefix="activity-steps-"))
    engine = create_store_engine(start_embedded_postgres(root / "postgres"), pool_size=4)
    upgrade(engine, "head")
    store = PostgresStore(engine)
    provider = ScriptedProvider(answer)
    steps = Steps()
    steps.watch(engine)
    try:
        for index, session in enumerate(seed_sessions(store, args.warmup + args.sessions, "steps")):
            if index == args.warmup:
                steps.clear()
            key = SessionKey(tenant_id="steps", principal_id=f"p-{session.hex[:8]}", session_id=session)
            consolidate_session(
                store, provider, key, DEFAULT_FORMATION_POLICY, datetime.now(UTC), run_step=steps.run
            )
    finally:
        engine.dispose()
    per = 1 / args.sessions
    for name in steps.cpu:
        print(
            f"{name:20} {1000 * steps.cpu[name] * per:6.2f} ms CPU  {steps.statements[name] * per:5.1f} statements"
            f"  {steps.units[name] * per:4.1f} units of work"
        )
    print(
        f"{'all':20} {1000 * sum(steps.cpu.values()) * per:6.2f} ms CPU  "
        f"{sum(steps.statements.values()) * per:5.1f} statements  {sum(steps.units.values()) * per:4.1f} units of work"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sessions", type=int, default=300, help="consolidations counted")
    parser.add_argument("--warmup", type=int, default=20, help="consolidations run first and not counted")
    main(parser.parse_args())
