"""`agent memory list|show|recall|cite` and `agent schedule install`: the governed human read surfaces.

Every read is scoped by tenant and principal. Confidence appears only as a band; statements and evidence
spans are printed for the person who owns them and never logged. `show` and the `--json` of `list` and
`recall` carry each belief's provenance (domain.beliefs.provenance).
"""

import asyncio
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any
from uuid import UUID

import typer
from rich.console import Console
from rich.markup import escape

from adapters.cli.db import database_composition
from adapters.cli.memory import memory_app
from adapters.cli.options import Embedded, Principal, Tenant
from domain.beliefs.lifecycle import MAX_SWEEP_LANES, SWEEP_LANES, is_expired
from domain.beliefs.provenance import explain
from domain.beliefs.recall import belief_by_reference, recall
from domain.beliefs.records import MemoryRecord
from domain.beliefs.retrieval import (
    DEFAULT_RECALL_LIMIT,
    RECALL_PAGE,
    project,
    rank,
    render_belief,
    render_context,
)
from domain.beliefs.usage import complete_run
from domain.errors import AmbiguousReference
from domain.owner import Owner
from domain.ports import UnitOfWorkFactory

schedule_app = typer.Typer(help="Temporal Schedules of the service.", no_args_is_help=True)


def now_utc() -> datetime:
    return datetime.now(UTC)


@contextmanager
def _store(embedded: bool) -> Iterator[UnitOfWorkFactory]:
    composition = database_composition(embedded)
    try:
        yield composition.unit_of_work_factory
    finally:
        composition.close()


def _all_beliefs(store: UnitOfWorkFactory, owner: Owner, *, live_only: bool) -> Iterator[MemoryRecord]:
    after: UUID | None = None
    while True:
        with store() as uow:
            page = uow.beliefs.page(owner, after, RECALL_PAGE, live_only=live_only)
        if not page:
            return
        yield from page
        after = page[-1].id


def _parse_ids(raw: list[str], option: str) -> list[UUID]:
    ids: list[UUID] = []
    for chunk in raw:
        for part in filter(None, (p.strip() for p in chunk.split(","))):
            try:
                ids.append(UUID(part))
            except ValueError:
                raise typer.BadParameter(f"not a belief id: {part!r}", param_hint=option) from None
    return ids


@memory_app.command("list")
def list_memories(
    tenant: Tenant,
    principal: Principal,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per belief.")] = False,
    embedded: Embedded = False,
) -> None:
    """Live beliefs in recall order, with derivation, longevity and confidence band."""
    owner = Owner(tenant_id=tenant, principal_id=principal)
    now = now_utc()
    with _store(embedded) as store:
        live = [r for r in _all_beliefs(store, owner, live_only=True) if not is_expired(r, now)]
        records = rank(live, now, len(live))
        if as_json:
            with store() as uow:
                _print_json_lines(explain(uow, owner, records, now))
            return
    ranked = [project(r, now) for r in records]
    # One line per field whatever the terminal's width: piped output stays greppable.
    console = Console(highlight=False, soft_wrap=True)
    for belief in ranked:
        console.print(escape(render_belief(belief)))
        used = belief.last_used_at.isoformat() if belief.last_used_at else "never"
        console.print(f"  evidence {belief.last_evidence_at.isoformat()}, used {used}")
    Console(stderr=True).print(f"{len(ranked)} live belief(s)", highlight=False)


@memory_app.command("show")
def show_memory(
    belief: Annotated[str, typer.Argument(help="A belief id, or its m:xxxxxxxx reference.")],
    tenant: Tenant,
    principal: Principal,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON projection.")] = False,
    embedded: Embedded = False,
) -> None:
    """One belief (live or closed) with its clocks, band and lifecycle state."""
    owner = Owner(tenant_id=tenant, principal_id=principal)
    now = now_utc()
    with _store(embedded) as store:
        record = _find(store, owner, belief)
        if record is None:
            Console(stderr=True).print("no such belief for this tenant and principal", highlight=False)
            raise typer.Exit(code=1)
        with store() as uow:
            [view] = explain(uow, owner, [record], now)
    if as_json:
        _print_json_lines([view])
        return
    console = Console(highlight=False, soft_wrap=True)
    console.print(escape(render_belief(project(record, now))))
    for key in ("claim_kind", "last_evidence_at", "last_used_at", "expires_at", "valid_to", "closed_reason"):
        console.print(f"  {key}: {view[key] if view[key] is not None else '-'}")
    for source in view["provenance"]:
        heard = json.dumps(source["evidence_span"], ensure_ascii=False) if source["evidence_span"] else "-"
        console.print(
            escape(
                f"  source {source['session_id']}#{source['seq']} {source['kind'] or '?'}"
                f" {source['occurred_at'] or '?'}: {heard}"
            )
        )


@memory_app.command("recall")
def recall_memories(
    tenant: Tenant,
    principal: Principal,
    query: Annotated[
        str | None, typer.Option("--query", help="What the memories should be relevant to; omit for recency.")
    ] = None,
    k: Annotated[
        int, typer.Option("--k", min=1, max=100, help="How many memories at most.")
    ] = DEFAULT_RECALL_LIMIT,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per belief, with provenance, in recall order.")
    ] = False,
    embedded: Embedded = False,
) -> None:
    """The memories an agent would be given for the query: embedding similarity, full-text relevance and
    retrieval@3 fused, printed as the <recalled-memories> block (or as JSON)."""
    owner = Owner(tenant_id=tenant, principal_id=principal)
    now = now_utc()
    composition = database_composition(embedded)
    try:
        embedder = composition.embedder if query else None
        with composition.unit_of_work_factory() as uow:
            recalled = recall(uow, owner, now, k, query=query, embedder=embedder)
            if as_json:
                records = uow.beliefs.get_many(owner, recalled.returned_ids)
                by_id = {r.id: r for r in records}
                _print_json_lines(explain(uow, owner, [by_id[i] for i in recalled.returned_ids], now))
                return
    finally:
        composition.close()
    sys.stdout.write(render_context(recalled.beliefs) + "\n")


def _print_json_lines(views: list[dict[str, Any]]) -> None:
    for view in views:
        sys.stdout.write(json.dumps(view, ensure_ascii=False) + "\n")


def _find(store: UnitOfWorkFactory, owner: Owner, wanted: str) -> MemoryRecord | None:
    try:
        with store() as uow:
            return belief_by_reference(uow, owner, wanted)
    except AmbiguousReference as ambiguous:
        raise typer.BadParameter(str(ambiguous)) from None
    except ValueError:
        raise typer.BadParameter(
            "give a belief's id or its reference: m: and at least 8 hex digits, as in m:6b6cd163",
            param_hint="'BELIEF'",
        ) from None


@memory_app.command("cite")
def cite(
    tenant: Tenant,
    principal: Principal,
    run: Annotated[str, typer.Option("--run", help="The agent run (response) id.")],
    returned: Annotated[
        list[str],
        typer.Option("--returned", help="Belief ids recalled for the run (repeat or comma-separate)."),
    ],
    cited: Annotated[
        list[str] | None, typer.Option("--cited", help="Belief ids the response faithfully cited.")
    ] = None,
    embedded: Embedded = False,
) -> None:
    """Complete a run: citations move last_used_at and utility, uncited returns move utility only."""
    try:
        run_id = UUID(run)
    except ValueError:
        raise typer.BadParameter("not a run id (UUID)", param_hint="--run") from None
    owner = Owner(tenant_id=tenant, principal_id=principal)
    returned_ids = _parse_ids(returned, "--returned")
    cited_ids = _parse_ids(cited or [], "--cited")
    with _store(embedded) as store, store() as uow:
        report = complete_run(uow, owner, run_id, returned_ids, cited_ids, now_utc())
        uow.commit()
    sys.stdout.write(json.dumps(report.model_dump(mode="json")) + "\n")


def _interval(raw: str) -> timedelta:
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    try:
        value = timedelta(seconds=float(raw[:-1]) * units[raw[-1]])
    except (KeyError, ValueError, IndexError):
        raise typer.BadParameter("use a number and a unit: 30m, 1h, 1d", param_hint="--interval") from None
    if value < timedelta(minutes=1):
        raise typer.BadParameter("at least 1m", param_hint="--interval")
    return value


@schedule_app.command("install")
def install(
    interval: Annotated[
        str, typer.Option("--interval", help="How often the sweep runs: 30m, 1h, 1d.")
    ] = "1h",
    lanes: Annotated[
        int,
        typer.Option(
            "--lanes",
            min=1,
            max=MAX_SWEEP_LANES,
            help="Pages the sweep runs side by side on disjoint ids; up to the database's cores.",
        ),
    ] = SWEEP_LANES,
) -> None:
    """Create or update the "memory-retirement-sweep" and "memory-embedding-backfill" schedules (idempotent)."""
    from adapters.settings import Settings
    from adapters.temporal.client import connect
    from adapters.temporal.connection import connect_config
    from adapters.temporal.schedules import (
        EMBEDDING_SCHEDULE_ID,
        SCHEDULE_ID,
        install_embedding_schedule,
        install_retirement_schedule,
    )

    every = _interval(interval)
    settings = Settings()

    async def go() -> tuple[str, str]:
        client = await connect(connect_config(settings))
        installed = await install_retirement_schedule(
            client, interval=every, task_queue=settings.temporal_task_queue, lanes=lanes
        )
        embedding = await install_embedding_schedule(client, task_queue=settings.temporal_task_queue)
        return installed.value, embedding.value

    outcome, embedding = asyncio.run(go())
    console = Console(highlight=False)
    console.print(f"schedule {SCHEDULE_ID} {outcome} (every {interval}, {lanes} lanes)")
    console.print(f"schedule {EMBEDDING_SCHEDULE_ID} {embedding} (every minute)")
