"""`agent memory policy`: the running tuple, the artifacts found, and which formation policy would run
and why. Reads the tree and the environment only: no database, no Temporal, no provider call."""

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from adapters.cli.memory import memory_app
from adapters.composition import Composition
from adapters.settings import Settings
from domain.policy.activation import FormationMode
from domain.policy.evidence import TUPLE_FIELDS


@memory_app.command("policy")
def policy(
    formation_mode: Annotated[
        FormationMode | None, typer.Option(help="Judge as this mode; default MEMORY_FORMATION_MODE.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object: the selection audit.")] = False,
) -> None:
    """Show the formation policy a worker started now would run, and why."""
    settings = Settings()
    if formation_mode is not None:
        settings = settings.model_copy(update={"memory_formation_mode": formation_mode})
    composition = Composition(settings=settings)
    decision = composition.activation
    skipped = composition.skipped_artifacts
    if as_json:
        document = {
            **decision.audit_details(),
            "summary": decision.summary(),
            "verdicts": [v.model_dump(mode="json") for v in decision.verdicts],
            "skipped": [
                {"name": s.name, "source": s.source.value, "reason": s.reason.value, "fields": list(s.fields)}
                for s in skipped
            ],
        }
        typer.echo(json.dumps(document, sort_keys=True))
        raise typer.Exit(1 if decision.refused else 0)
    console = Console(highlight=False)
    tuple_table = Table(
        "field", "running", title=f"running tuple ({decision.running.formation_policy_version})"
    )
    for name in TUPLE_FIELDS:
        value = getattr(decision.running, name)
        tuple_table.add_row(name, escape("null" if value is None else str(value)))
    console.print(tuple_table)
    artifacts = Table("artifact", "source", "policy", "verdict", title="artifacts found")
    for verdict in decision.verdicts:
        outcome = "matches" if verdict.refusal is None else verdict.refusal.value
        if verdict.fields:
            outcome += f" ({', '.join(verdict.fields)})"
        if verdict.build_ref_unverified:
            outcome += " (build ref unverified outside production)"
        artifacts.add_row(escape(verdict.name), verdict.source.value, verdict.policy, escape(outcome))
    for skip in skipped:
        fields = f" ({', '.join(skip.fields)})" if skip.fields else ""
        artifacts.add_row(
            escape(skip.name), skip.source.value, "-", escape(f"skipped: {skip.reason.value}{fields}")
        )
    if not decision.verdicts and not skipped:
        artifacts.add_row("none", "", "", "")
    console.print(artifacts)
    pin = settings.formation_policy_pin or "none"
    console.print(escape(decision.summary()))
    console.print(f"details: mode {decision.mode.value}, pin {pin}: {escape(decision.explanation())}")
    raise typer.Exit(1 if decision.refused else 0)
