"""Re-pass benchmark (issue 8, Measure): a provider failing a share of its calls (transient), many small
consolidations, on the Temporal dev server and embedded PostgreSQL.

Each consolidation is one fixture conversation (the personal-agent statement or the three-turn training
conversation, alternating; one segment each) under a principal of its own. Every provider call fails with
probability `share` (seeded, independently) with transient("http_503"). Re-passes run with a shortened
first wait (`repass_initial_backoff_s`, the operator setting; the coefficient and cap are the provider
control's), so an exhausted re-pass closes in about 341 x that wait.

References, from the same fixture conversations: what the provider forms with every call answered (the 0%
reference), and what the fallback forms with every call failing (its re-passes terminated at once).
Reports, per share, once every Repass workflow has closed (or the deadline passed):
  * beliefs lost: reference claims (domain.formation.equivalence.same_claim, per principal) with no live belief (goal 0);
    in brackets those of consolidations whose re-pass exhausted (an operator retry recovers them)
  * duplicates: pairs of live beliefs of one principal stating the same claim (goal 0)
  * provider-only contribution recovered: over the consolidations that fell back, the reference claims the
    fallback does not form, present at the end / all of them
  * re-passes by final state, and those left open (WorkflowType="Repass" AND ExecutionStatus="Running")

    .venv/bin/python -m benchmarks.repass_benchmark --consolidations 1000 --shares 0 0.1 0.5
"""

import argparse
import asyncio
import random
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from temporalio.client import Client, WorkflowExecutionStatus

from adapters.embedded.postgres import start_embedded_postgres
from adapters.embedded.temporal import start_dev_server
from adapters.postgres.engine import create_store_engine
from adapters.postgres.schema import upgrade
from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.temporal.client import DEFAULT_FORMATION_POLICY, connect, session_idle
from adapters.temporal.worker import WorkerPorts, build_worker
from domain.events import SourceEvent
from domain.formation.clauses import count_coverage_units
from domain.formation.equivalence import same_claim
from domain.formation.segments import EventFootprint, SegmentRef, plan_segments
from domain.owner import Owner
from domain.providers import ProviderFailure, ProviderRequest, transient
from tests import scripted_answers as answers
from tests.workflows.repass_worker import correct_answer
from workflows.repass import RepassResult, RepassWorkflow, repass_workflow_id

FIXTURES = ("personal_agent.jsonl", "training_conversation.jsonl")
OPEN_REPASSES = 'WorkflowType="Repass" AND ExecutionStatus="Running"'


class FailingShare:
    """Answers correctly, except a seeded-random share of calls fails transiently."""

    def __init__(self, share: float, seed: int) -> None:
        self._share = share
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self.calls = 0
        self.failed = 0

    def __call__(self, request: ProviderRequest) -> dict[str, Any] | ProviderFailure:
        with self._lock:
            self.calls += 1
            fail = self._rng.random() < self._share
            self.failed += fail
        return transient("http_503") if fail else correct_answer(request)


@dataclass
class Consolidation:
    owner: Owner
    fixture: str
    repass_refs: list[SegmentRef] = field(default_factory=list)


@dataclass
class ShareRun:
    share: float
    consolidations: list[Consolidation]
    states: dict[str, str]  # re-pass workflow id -> final state
    open_repasses: int
    calls: int
    failed_calls: int
    consolidate_s: float
    settle_s: float


def fixture_events(name: str, owner: Owner) -> list[SourceEvent]:
    update = {"tenant_id": owner.tenant_id, "principal_id": owner.principal_id, "session_id": uuid.uuid4()}
    return [e.model_copy(update=update) for e in answers.load(name)]


def planned(events: list[SourceEvent], owner: Owner) -> list[SegmentRef]:
    footprints = [
        EventFootprint(seq=e.seq, size_bytes=e.size_bytes, coverage_units=count_coverage_units(e.text))
        for e in events
    ]
    return plan_segments(owner, events[0].session_id, DEFAULT_FORMATION_POLICY, footprints)


def append(store: PostgresStore, events: list[SourceEvent]) -> None:
    with store() as uow:
        uow.events.append(events)
        uow.commit()


def live_statements(store: PostgresStore, owner: Owner) -> list[str]:
    with store() as uow:
        return [b.statement for b in uow.beliefs.page(owner, None, 10_000)]


def missing(claims: Sequence[str], statements: Sequence[str]) -> list[str]:
    return [c for c in claims if not any(same_claim(c, s) for s in statements)]


def duplicate_pairs(statements: list[str]) -> int:
    return sum(1 for i, a in enumerate(statements) for b in statements[i + 1 :] if same_claim(a, b))


async def consolidate(
    client: Client,
    store: PostgresStore,
    task_queue: str,
    tag: str,
    n: int,
    backoff_s: float,
    concurrency: int,
) -> list[Consolidation]:
    gate = asyncio.Semaphore(concurrency)

    async def one(index: int) -> Consolidation:
        async with gate:
            owner = Owner(tenant_id="bench", principal_id=f"{tag}-{index}")
            name = FIXTURES[index % len(FIXTURES)]
            events = fixture_events(name, owner)
            await asyncio.to_thread(append, store, events)
            handle = await session_idle(
                client,
                owner.tenant_id,
                owner.principal_id,
                events[0].session_id,
                task_queue=task_queue,
                repass_initial_backoff_s=backoff_s,
            )
            summary = await handle.result()
            assert summary.last_round is not None
            chosen = [r for r in planned(events, owner) if r.index in summary.last_round.repass_segments]
            return Consolidation(owner, name, chosen)

    return list(await asyncio.gather(*(one(i) for i in range(n))))


async def open_repasses(client: Client) -> int:
    return (await client.count_workflows(OPEN_REPASSES)).count


async def settle(client: Client, consolidations: list[Consolidation], deadline_s: float) -> dict[str, str]:
    """Wait until no Repass workflow runs (or the deadline); the final state of each of this run's."""
    deadline = time.monotonic() + deadline_s
    await asyncio.sleep(2.0)  # visibility is eventually consistent
    while await open_repasses(client) and time.monotonic() < deadline:
        await asyncio.sleep(1.0)

    async def state(ref: SegmentRef) -> str:
        handle = client.get_workflow_handle_for(RepassWorkflow.run, repass_workflow_id(ref))
        description = await handle.describe()
        if description.status != WorkflowExecutionStatus.COMPLETED:
            return "open" if description.status == WorkflowExecutionStatus.RUNNING else "failed"
        result: RepassResult = await handle.result()
        return result.state.value

    ids = [repass_workflow_id(r) for c in consolidations for r in c.repass_refs]
    return dict(
        zip(
            ids, await asyncio.gather(*(state(r) for c in consolidations for r in c.repass_refs)), strict=True
        )
    )


async def run_share(
    client: Client,
    store: PostgresStore,
    share: float,
    n: int,
    args: argparse.Namespace,
    *,
    terminate_repasses: bool = False,
) -> ShareRun:
    provider_script = FailingShare(share, args.seed)
    task_queue = f"repass-bench-{uuid.uuid4().hex[:8]}"
    tag = f"{share:g}-{uuid.uuid4().hex[:6]}"
    with ThreadPoolExecutor(max_workers=args.threads) as executor:
        worker = build_worker(
            client,
            WorkerPorts(store, ScriptedProvider(provider_script)),
            executor,
            task_queue=task_queue,
            max_activities=args.threads,
            graceful_shutdown_s=5,
        )
        async with worker:
            started = time.monotonic()
            consolidations = await consolidate(
                client, store, task_queue, tag, n, args.repass_backoff, args.concurrency
            )
            consolidated = time.monotonic()
            if terminate_repasses:
                for c in consolidations:
                    for ref in c.repass_refs:
                        await client.get_workflow_handle(repass_workflow_id(ref)).terminate("reference")
            states = await settle(client, consolidations, args.deadline)
            left_open = await open_repasses(client)
            settled = time.monotonic()
    return ShareRun(
        share,
        consolidations,
        states,
        left_open,
        provider_script.calls,
        provider_script.failed,
        consolidated - started,
        settled - consolidated,
    )


def references(
    store: PostgresStore, run: ShareRun
) -> dict[str, list[str]]:  # fixture -> live statements of its first consolidation
    by_fixture: dict[str, list[str]] = {}
    for c in run.consolidations:
        by_fixture.setdefault(c.fixture, live_statements(store, c.owner))
    return by_fixture


def score(
    store: PostgresStore,
    run: ShareRun,
    reference: dict[str, list[str]],
    provider_only: dict[str, list[str]],
) -> dict[str, int]:
    lost = lost_exhausted = duplicates = affected = wanted = recovered = 0
    for c in run.consolidations:
        statements = live_statements(store, c.owner)
        gone = len(missing(reference[c.fixture], statements))
        lost += gone
        if any(run.states[repass_workflow_id(r)] == "exhausted" for r in c.repass_refs):
            lost_exhausted += gone
        duplicates += duplicate_pairs(statements)
        if c.repass_refs:
            affected += 1
            wanted += len(provider_only[c.fixture])
            recovered += len(provider_only[c.fixture]) - len(missing(provider_only[c.fixture], statements))
    return {
        "lost": lost,
        "lost_exhausted": lost_exhausted,
        "duplicates": duplicates,
        "affected": affected,
        "wanted": wanted,
        "recovered": recovered,
    }


async def main(args: argparse.Namespace) -> None:
    root = Path(tempfile.mkdtemp(prefix="repass-bench-"))
    engine = create_store_engine(start_embedded_postgres(root / "postgres"), pool_size=args.pool)
    upgrade(engine, "head")
    store = PostgresStore(engine)
    server = start_dev_server(root / "temporal", port=args.port, ui_port=args.port + 1000, headless=True)
    try:
        client = await connect(server.address)
        reference = references(store, await run_share(client, store, 0.0, len(FIXTURES), args))
        fallback = references(
            store, await run_share(client, store, 1.0, len(FIXTURES), args, terminate_repasses=True)
        )
        provider_only = {f: missing(reference[f], fallback[f]) for f in FIXTURES}
        for f in FIXTURES:
            print(
                f"reference {f}: {len(reference[f])} claims, fallback forms "
                f"{len(reference[f]) - len(provider_only[f])} of them, provider-only {len(provider_only[f])}"
            )
        print(
            f"{args.consolidations} consolidations per share, {args.concurrency} at once, re-pass first wait "
            f"{args.repass_backoff:g} s (x4 per attempt, 5 attempts), seed {args.seed}\n"
        )
        print(
            "| share | provider calls failed | fell back | re-pass succeeded/abandoned/exhausted/open "
            "| beliefs lost (of which re-pass exhausted) | duplicates | provider-only recovered | Repass left open | consolidate s | settle s |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|")
        for share in args.shares:
            run = await run_share(client, store, share, args.consolidations, args)
            s = await asyncio.to_thread(score, store, run, reference, provider_only)
            recovered = (
                f"{s['recovered']}/{s['wanted']} ({100 * s['recovered'] / s['wanted']:.1f}%)"
                if s["wanted"]
                else "- (nothing to recover)"
            )
            st = Counter(run.states.values())
            print(
                f"| {share:.0%} | {run.failed_calls}/{run.calls} | {s['affected']} | "
                f"{st['succeeded']}/{st['abandoned']}/{st['exhausted']}/{st['open']} | {s['lost']} ({s['lost_exhausted']}) | "
                f"{s['duplicates']} | {recovered} | {run.open_repasses} | {run.consolidate_s:.0f} | "
                f"{run.settle_s:.0f} |",
                flush=True,
            )
    finally:
        server.stop()
        engine.dispose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--consolidations", type=int, default=1000)
    parser.add_argument("--shares", type=float, nargs="+", default=[0.0, 0.1, 0.5])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repass-backoff", type=float, default=0.2, help="re-pass first wait, seconds")
    parser.add_argument("--concurrency", type=int, default=50, help="consolidations in flight")
    parser.add_argument("--deadline", type=float, default=600, help="seconds to wait for re-passes to close")
    parser.add_argument("--threads", type=int, default=64, help="worker activity threads")
    parser.add_argument("--pool", type=int, default=20, help="PostgreSQL connection pool size")
    parser.add_argument("--port", type=int, default=27433)
    asyncio.run(main(parser.parse_args()))
