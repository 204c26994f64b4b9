"""`agent memory embed`: give live beliefs a vector of the configured embedding model, paged by primary key."""

import time
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)

from adapters.cli.db import database_composition
from adapters.cli.memory import memory_app
from adapters.cli.options import Embedded
from adapters.embeddings.factory import embedder_for
from domain.beliefs.embedding import EMBED_PAGE, embed_pending
from domain.owner import Owner


@memory_app.command("embed")
def embed(
    backfill: Annotated[
        bool,
        typer.Option("--backfill", help="Every owner's beliefs (otherwise give --tenant and --principal)."),
    ] = False,
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            help="The endpoint's model (EMBEDDING_PROVIDER=openai); unset: EMBEDDING_MODEL. Beliefs carrying "
            "another model's vector are embedded again.",
        ),
    ] = None,
    tenant: Annotated[str | None, typer.Option("--tenant", help="Only this tenant's principal ...")] = None,
    principal: Annotated[
        str | None, typer.Option("--principal", help="... this principal's beliefs.")
    ] = None,
    embedded: Embedded = False,
    page: Annotated[
        int, typer.Option("--page", min=1, max=2048, help="Beliefs per model call and write.")
    ] = EMBED_PAGE,
) -> None:
    """Embed the live beliefs that lack a vector of the configured model (none yet, or another model's).

    Paged by primary key, each page read, embedded with no transaction open and written in its own short
    transaction: stopping it loses at most one page, and running it again resumes where it stopped."""
    if backfill == (tenant is not None and principal is not None) or (tenant is None) != (principal is None):
        raise typer.BadParameter("give --backfill, or --tenant and --principal (one owner)")
    owner = None if backfill else Owner(tenant_id=str(tenant), principal_id=str(principal))
    composition = database_composition(embedded)
    console = Console(stderr=True)
    try:
        embedder = embedder_for(composition.settings, model)
        store = composition.unit_of_work_factory
        started = time.perf_counter()
        columns = (
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
        )
        with Progress(*columns, console=console, transient=True, disable=not console.is_terminal) as progress:
            task = progress.add_task(f"embedding with {embedder.model}", total=None)
            stored = embed_pending(
                store, embedder, owner, page=page, progress=lambda read: progress.advance(task, read)
            )
        seconds = time.perf_counter() - started
    finally:
        composition.close()
    console.print(f"embedded {stored} beliefs with {embedder.model} in {seconds:.1f} s")
