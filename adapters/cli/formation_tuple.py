"""`agent memory formation-tuple set|clear|show`: one owner's alternative memory tuple (ADR-0119).

set accepts only a tuple a bundled or bound operator formation@9 artifact evaluated exactly on this tree, and
says why it refuses anything else; workers read the choice at each call and fall back to the configured tuple
once it is cleared or no longer evidenced. Nothing printed holds user content.
"""

from datetime import UTC, datetime
from typing import Annotated

import typer

from adapters.cli.db import database_composition
from adapters.cli.memory import memory_app
from adapters.cli.options import Embedded, Principal, Tenant
from domain.owner import Owner
from domain.policy.alternatives import (
    PROVIDER_DEFAULT,
    FormationChoice,
    TupleReason,
    choose_formation_tuple,
)

formation_tuple_app = typer.Typer(help="An owner's alternative formation tuple.", no_args_is_help=True)
memory_app.add_typer(formation_tuple_app, name="formation-tuple")


@formation_tuple_app.command("set")
def set_tuple(
    tenant: Tenant,
    principal: Principal,
    profile: Annotated[str, typer.Option("--profile", help="Memory model profile (memory-model.yaml).")],
    effort: Annotated[
        str | None, typer.Option("--effort", help="Reasoning effort; omit for the provider default.")
    ] = None,
    embedded: Embedded = False,
) -> None:
    """Move the owner's formation to an evidenced alternative tuple."""
    choice = FormationChoice(
        tenant_id=tenant,
        principal_id=principal,
        model_policy=profile,
        reasoning_effort=effort,
        chosen_at=datetime.now(UTC),
    )
    composition = database_composition(embedded)
    try:
        decision = choose_formation_tuple(choice, composition.alternatives.evidence)
        if decision.reason is not TupleReason.EVIDENCED:
            typer.echo(f"refused: {decision.reason.value}", err=True)
            raise typer.Exit(1)
        with composition.unit_of_work_factory() as uow:
            uow.formation_choices.put(choice)
            uow.commit()
    finally:
        composition.close()
    typer.echo(f"formation moves to {decision.formed_on()} (artifact {decision.artifact})")


@formation_tuple_app.command("clear")
def clear_tuple(tenant: Tenant, principal: Principal, embedded: Embedded = False) -> None:
    """Withdraw the owner's choice: formation returns to the configured tuple."""
    composition = database_composition(embedded)
    try:
        with composition.unit_of_work_factory() as uow:
            cleared = uow.formation_choices.clear(Owner(tenant_id=tenant, principal_id=principal))
            uow.commit()
    finally:
        composition.close()
    typer.echo("cleared" if cleared else "no choice was set")


@formation_tuple_app.command("show")
def show_tuple(tenant: Tenant, principal: Principal, embedded: Embedded = False) -> None:
    """The owner's choice and the tuple a call would run on now, with the reason."""
    composition = database_composition(embedded)
    try:
        with composition.unit_of_work_factory() as uow:
            choice = uow.formation_choices.get(Owner(tenant_id=tenant, principal_id=principal))
        decision = choose_formation_tuple(choice, composition.alternatives.evidence)
    finally:
        composition.close()
    chosen = (
        "none" if choice is None else f"{choice.model_policy}@{choice.reasoning_effort or PROVIDER_DEFAULT}"
    )
    runs = f"{decision.model_policy}@{decision.reasoning_effort or PROVIDER_DEFAULT}"
    typer.echo(f"chosen {chosen}; runs {runs} ({decision.reason.value})")
