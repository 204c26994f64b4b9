"""`agent db`: the schema's Alembic revisions, against DATABASE_URL or the embedded dev server."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer
from sqlalchemy import Engine

from adapters.cli.failures import EXIT_USAGE, EXIT_WRONG_REVISION
from adapters.cli.options import Embedded
from adapters.composition import Composition
from adapters.settings import Settings
from domain.errors import WrongSchemaRevision

db_app = typer.Typer(
    help="Inspect and migrate the PostgreSQL schema (Alembic). Uses DATABASE_URL, or --embedded.",
    no_args_is_help=True,
)


@contextmanager
def alembic_refusals(engine: Engine) -> Iterator[None]:
    """Alembic's refusals as one line: a database at a revision this release does not ship (a release rolled
    back under a newer schema), or a target revision it does not know."""
    from alembic.util import CommandError

    from adapters.postgres import schema

    try:
        yield
    except CommandError as refused:
        current = schema.current_revision(engine)
        if current is not None and current not in schema.known_revisions():
            typer.echo(
                f"agent: the database is at revision {current}, which this release does not ship: run the "
                "release that wrote it, whose `agent db downgrade` can take the schema back to one this "
                "release knows",
                err=True,
            )
            raise typer.Exit(EXIT_WRONG_REVISION) from None
        typer.echo(f"agent: {(str(refused).strip().splitlines() or ['alembic refused'])[0]}", err=True)
        raise typer.Exit(EXIT_USAGE) from None


def database_composition(embedded: bool) -> Composition:
    """The composition of a command that needs a database: the embedded one when asked, else DATABASE_URL;
    neither is a one-line refusal (adapters.composition.database_url) before the command does anything."""
    composition = Composition(settings=Settings(), embedded=embedded)
    composition.database_url  # noqa: B018  resolved now, so a command fails before it starts serving
    return composition


@db_app.command()
def upgrade(
    revision: Annotated[
        str, typer.Argument(help="Target revision id, or 'head' (the default) for the latest.")
    ] = "head",
    embedded: Embedded = False,
) -> None:
    """Upgrade the schema to REVISION (default: head), running every revision in between."""
    from rich.console import Console
    from rich.progress import Progress

    from adapters.postgres import schema

    composition = database_composition(embedded)
    console = Console(stderr=True)
    try:
        before = schema.current_revision(composition.engine)
        # The lifecycle@2 backfill pages through every old belief: the bar shows its rows, nothing else,
        # on a terminal only (a pipe or a job's log gets the summary line alone).
        with Progress(console=console, transient=True, disable=not console.is_terminal) as progress:
            backfill = progress.add_task("backfilling lifecycle@2 values", total=None, visible=False)

            def on_page(total: int, done: int) -> None:
                progress.update(backfill, total=total, completed=done, visible=True)

            with alembic_refusals(composition.engine):
                schema.upgrade(composition.engine, revision, backfill_progress=on_page)
        typer.echo(f"upgraded {before or 'empty database'} -> {schema.current_revision(composition.engine)}")
    finally:
        composition.close()


@db_app.command()
def downgrade(
    revision: Annotated[
        str,
        typer.Argument(
            help="Explicit target revision id, or 'base' to drop the whole store. Required: a downgrade "
            "is never implied. The data revision's downgrade nulls derived lifecycle fields only; "
            "the structural revision's drops episodes and staged outputs."
        ),
    ],
    embedded: Embedded = False,
) -> None:
    """Downgrade the schema to the explicit REVISION."""
    from adapters.postgres import schema

    composition = database_composition(embedded)
    try:
        before = schema.current_revision(composition.engine)
        with alembic_refusals(composition.engine):
            schema.downgrade(composition.engine, revision)
        after = schema.current_revision(composition.engine)
        typer.echo(f"downgraded {before or 'empty database'} -> {after or 'base (empty)'}")
    finally:
        composition.close()


@db_app.command()
def current(embedded: Embedded = False) -> None:
    """Show the database's revision, the revision this release expects, and whether it may run."""
    from adapters.postgres import schema

    composition = database_composition(embedded)
    try:
        revision = schema.current_revision(composition.engine)
        typer.echo(f"current:  {revision or 'none (empty database)'}")
        typer.echo(f"expected: {schema.EXPECTED_REVISION} or a later revision of this release")
        typer.echo(f"head:     {schema.script_directory().get_current_head()}")
        try:
            schema.require_expected_revision(composition.engine)
            typer.echo("status:   ok")
        except WrongSchemaRevision as refused:
            typer.echo(f"status:   refused: {refused}")
            raise typer.Exit(1) from None
    finally:
        composition.close()
