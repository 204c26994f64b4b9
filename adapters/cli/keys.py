"""`agent keys issue|list|revoke`: the API's bearer keys, stored hashed in PostgreSQL; issued and revoked
while the API runs (it reads the store on every call)."""

from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated
from uuid import UUID, uuid4

import typer
from rich.console import Console
from rich.table import Table

from adapters.cli.db import database_composition
from adapters.cli.options import Embedded, bounded_id
from domain.candidates import Sensitivity
from domain.errors import WrongSchemaRevision
from domain.keys import DEFAULT_CEILING, ApiKey

keys_app = typer.Typer(
    help="Issue, list and revoke the API's bearer keys (personal or service). Uses DATABASE_URL, or --embedded.",
    no_args_is_help=True,
)


def _optional_id(value: str | None) -> str | None:
    return None if value is None else bounded_id(value)


@keys_app.command("issue")
def issue(
    tenant: Annotated[str, typer.Option("--tenant", help="Tenant id.", callback=bounded_id)],
    principal: Annotated[
        str | None,
        typer.Option(
            "--principal", help="A personal key: acts for this principal only.", callback=_optional_id
        ),
    ] = None,
    service: Annotated[
        bool,
        typer.Option("--service", help="A service key: acts for any principal of the tenant named per call."),
    ] = False,
    name: Annotated[str | None, typer.Option("--name", help="A label shown by `agent keys list`.")] = None,
    ceiling: Annotated[
        Sensitivity, typer.Option("--ceiling", help="The most sensitive memory the key's recall renders.")
    ] = DEFAULT_CEILING,
    embedded: Embedded = False,
) -> None:
    """Issue a key and print its secret once (only its sha256 is stored: it cannot be shown again)."""
    from adapters.api.auth import issue_key

    if (principal is None) == (not service):
        typer.echo("give exactly one of --principal P (a personal key) and --service", err=True)
        raise typer.Exit(2)
    composition = database_composition(embedded)
    try:
        issued = issue_key(
            composition.key_store,
            tenant_id=tenant,
            principal_id=principal,
            name=name or (f"{tenant}/{principal}" if principal else f"{tenant} service"),
            ceiling=ceiling,
            now=datetime.now(UTC),
        )
    except WrongSchemaRevision as wrong:
        typer.echo(str(wrong), err=True)
        raise typer.Exit(2) from None
    finally:
        composition.close()
    typer.echo(f"key {issued.key.key_id} issued; its secret (shown once):", err=True)
    typer.echo(issued.secret)


@keys_app.command("import-tokens")
def import_tokens(
    file: Annotated[
        Path, typer.Argument(exists=True, dir_okay=False, readable=True, help="An API_TOKENS_FILE (JSON).")
    ],
    embedded: Embedded = False,
) -> None:
    """Store a tokens file's tokens as personal keys (by their digest: the tokens keep working unchanged), so
    the file can be retired; a token already stored is left as it is."""
    from adapters.api.auth import TokenRegistry

    entries = TokenRegistry.read_file(file)
    composition = database_composition(embedded)
    now = datetime.now(UTC)
    stored = 0
    try:
        for entry in entries:
            if composition.key_store.by_digest(entry.sha256) is not None:
                continue
            key = ApiKey(
                key_id=uuid4(),
                name=f"{entry.tenant_id}/{entry.principal_id} (from {file.name})",
                tenant_id=entry.tenant_id,
                principal_id=entry.principal_id,
                ceiling=entry.ceiling,
                created_at=now,
            )
            composition.key_store.add(key, entry.sha256)
            stored += 1
    except WrongSchemaRevision as wrong:
        typer.echo(str(wrong), err=True)
        raise typer.Exit(2) from None
    finally:
        composition.close()
    typer.echo(f"stored {stored} key(s), {len(entries) - stored} already stored")


@keys_app.command("list")
def list_keys(
    tenant: Annotated[
        str | None, typer.Option("--tenant", help="Only this tenant's keys.", callback=_optional_id)
    ] = None,
    embedded: Embedded = False,
) -> None:
    """Every issued key (never a secret): id, name, tenant, principal or service, ceiling, created, revoked."""
    composition = database_composition(embedded)
    try:
        keys = composition.key_store.listed(tenant)
    finally:
        composition.close()
    table = Table("key id", "name", "tenant", "acts for", "ceiling", "created", "revoked")
    for key in keys:
        table.add_row(
            str(key.key_id),
            key.name,
            key.tenant_id,
            key.principal_id or "service (user_id per call)",
            key.ceiling.value,
            key.created_at.isoformat(timespec="seconds"),
            key.revoked_at.isoformat(timespec="seconds") if key.revoked_at else "-",
        )
    Console(width=200).print(table)


@keys_app.command("revoke")
def revoke(
    key_id: Annotated[UUID, typer.Argument(help="The key id `agent keys list` shows.")],
    embedded: Embedded = False,
) -> None:
    """Revoke a key: refused from the next request on, by every running process."""
    composition = database_composition(embedded)
    try:
        revoked = composition.key_store.revoke(key_id, datetime.now(UTC))
    finally:
        composition.close()
    if revoked is None:
        typer.echo(f"no key {key_id}", err=True)
        raise typer.Exit(1)
    assert revoked.revoked_at is not None
    typer.echo(f"key {key_id} revoked at {revoked.revoked_at.isoformat(timespec='seconds')}")
