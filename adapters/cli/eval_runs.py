"""`agent eval memory-distillation` and `agent eval memory-formation`: the evaluations of the reference.

Without RUN_LIVE_MODEL_TESTS=1 (or with --offline) no provider is asked anything and nothing is published:
memory-distillation scores the offline arms, formation@7 and formation@9's deterministic fallback, on the
development set and the holdout; memory-formation scores the deterministic fallback the evaluated policy
merges with, through the extract activity, on the formation corpus. A live run checks --output and
--build-ref first; the frozen controls (formation@8, and formation@10 in memory-formation) send the
provider's default effort (ADR-0119). --recorded-answers replays stored stage answers instead of calling a
provider. Output is per-policy numbers and gate verdicts, never a case's text; a rich progress bar on
stderr shows cases done and the arm and set being run.
"""

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Final, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from adapters.cli.options import Embedded
from domain.formation.extraction import SanityCeilingExceeded, require_sane_cost
from domain.policy.evidence import EvidenceTuple
from domain.policy.model_policy import MemoryModel
from domain.policy.versions import EXTRACTOR_BY_FORMATION, FORMATION_8, FORMATION_9, FORMATION_10
from domain.providers import Provider
from evals.arms import Arm, Formation7Arm, PipelineArm
from evals.build_ref import BuildRefRefused, resolve_build_ref
from evals.evaluation import (
    LIVE_FLAG,
    SINGLE_POLICY,
    Outcome,
    Publication,
    evaluate,
    evaluation_sets,
    formation_set,
    live_enabled,
)
from evals.publication import OutputExists
from evals.recorded import RecordedAnswers
from evals.report import run_summary
from evals.runner import EvalSet
from evals.stores import StoreProvider, memory_store, postgres_stores

EXIT_GATES_FAILED: Final = 1
EXIT_REFUSED: Final = 3


class StoreChoice(StrEnum):
    MEMORY = "memory"
    POSTGRES = "postgres"


class FormationControl(StrEnum):
    FORMATION_8 = "formation@8"
    FORMATION_10 = "formation@10"


# The options both evaluations take, spelled once.
ModelPolicyOption = Annotated[str, typer.Option("--model-policy", help="Memory model profile evaluated.")]
PolicyProfileOption = Annotated[str, typer.Option("--policy-profile", help="Policy profile recorded.")]
BuildRefOption = Annotated[
    str | None, typer.Option("--build-ref", help="Full commit sha of HEAD (default: CI or git HEAD).")
]
RepeatsOption = Annotated[int, typer.Option("--repeats", min=1, max=10, help="Runs pooled by the gates.")]
ConcurrencyOption = Annotated[int, typer.Option("--concurrency", min=1, max=32, help="Cases run at once.")]
OutputOption = Annotated[
    Path | None, typer.Option("--output", help="Artifact path; must not exist. Written only on a pass.")
]
StoreOption = Annotated[StoreChoice, typer.Option("--store", help="Where each case consolidates.")]
RecordedAnswersOption = Annotated[
    Path | None,
    typer.Option("--recorded-answers", exists=True, dir_okay=False, help="Replay recorded stage answers."),
]


def _stores(choice: StoreChoice, concurrency: int, embedded: bool) -> StoreProvider:
    if choice is StoreChoice.MEMORY:
        return memory_store
    if concurrency > 1:
        _refuse("--store postgres runs one case at a time: every case speaks for the one corpus owner")
    from adapters.cli.db import database_composition

    return postgres_stores(database_composition(embedded).unit_of_work_factory)


def _refuse(line: str) -> NoReturn:
    typer.echo(f"refused: {line}", err=True)
    raise typer.Exit(EXIT_REFUSED)


@contextmanager
def _progress(sets: list[EvalSet], arms: int, repeats: int) -> Iterator[Callable[[str, str], None]]:
    total = sum(len(s.corpus.cases) for s in sets) * arms * repeats
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("cases", total=total)

        def advance(policy: str, set_name: str) -> None:
            bar.update(task, advance=1, description=f"{policy} on {set_name}")

        yield advance


def _run(sets: list[EvalSet], arms: list[Arm], repeats: int, concurrency: int, **options: Any) -> Outcome:
    with _progress(sets, len(arms), repeats) as progress:
        return evaluate(sets, arms, repeats=repeats, concurrency=concurrency, progress=progress, **options)


def _live_model(build_ref: str | None, model_policy: str) -> tuple[str, MemoryModel]:
    """The build reference and the memory model of a live run, or a refusal before any call."""
    from adapters.providers.policy_documents import load_memory_model

    try:
        return resolve_build_ref(build_ref), load_memory_model(model_policy)
    except (BuildRefRefused, ValueError) as refused:
        _refuse(str(refused))


def _control(model: MemoryModel) -> MemoryModel:
    """A frozen control's model: the provider's default effort (ADR-0119)."""
    return model.model_copy(update={"reasoning_effort": None})


def _provider_of(replay: RecordedAnswers | None, model: MemoryModel) -> Callable[[str], Provider]:
    """Each case's provider: its recorded answers replayed, or the model's live provider."""
    from adapters.providers.factory import provider_for

    def provider_of(case_id: str) -> Provider:
        return replay.replay(case_id, model) if replay else provider_for(model)

    return provider_of


def _evaluated(policy: str, model_policy: str, model: MemoryModel, policy_profile: str) -> EvidenceTuple:
    from adapters.providers.policy_documents import shipped_policy_version

    return EvidenceTuple(
        extractor_version=EXTRACTOR_BY_FORMATION[policy],
        formation_policy_version=policy,
        model_policy=model_policy,
        provider=model.provider,
        model=model.model,
        policy_profile=policy_profile,
        compiled_policy_version=shipped_policy_version(),
        reasoning_effort=model.reasoning_effort,
    )


def _finish(outcome: Outcome, as_json: bool, gates_title: str) -> None:
    _print(outcome, as_json, gates_title)
    if not outcome.passed:
        typer.echo("gates failed: nothing published", err=True)
        raise typer.Exit(EXIT_GATES_FAILED)
    if outcome.published:
        typer.echo(f"published {outcome.published}", err=True)


def _print(outcome: Outcome, as_json: bool, gates_title: str = "") -> None:
    summary = run_summary(outcome.runs, outcome.gates)
    summary["published"] = str(outcome.published) if outcome.published else None
    if as_json:
        sys.stdout.write(json.dumps(summary) + "\n")
        return
    console = Console()
    for set_name, policies in summary["sets"].items():
        console.print(_policy_table(set_name, policies))
        console.print(_kind_table(set_name, policies))
    if outcome.gates:
        gates = Table(title=f"publication gates ({gates_title}, pooled)")
        for column in ("set", "gate", "verdict", "measured"):
            gates.add_column(column)
        for gate in summary["gates"]:
            gates.add_row(gate["set"], gate["gate"], "pass" if gate["passed"] else "FAIL", gate["measured"])
        console.print(gates)


def _policy_table(set_name: str, policies: dict[str, dict[str, Any]]) -> Table:
    table = Table(title=f"{set_name}: per policy")
    rows = {
        "direct must_form recall": "direct_must_form_recall",
        "hypothesis must_form recall": "hypothesis_must_form_recall",
        "useful recall": "useful_recall",
        "precision": "precision",
        "formed": "formed",
        "evidence clauses formed/represented": "evidence_disposition_share",
        "boundary failures": "boundary_failures",
        "failed lifecycle checks": "failed_lifecycle_checks",
        "claim kinds formed": "claim_kinds_formed",
        "corrections per 100": "corrections_per_hundred",
        "consolidations / segments / calls": "",
    }
    table.add_column("metric")
    for policy in policies:
        table.add_column(policy, justify="right")
    for label, key in rows.items():
        if key:
            table.add_row(label, *(str(p[key]) for p in policies.values()))
        else:
            table.add_row(
                label,
                *(
                    f"{p['consolidations']} / {p['segments']} / {p['provider_calls']}"
                    for p in policies.values()
                ),
            )
    for derivation in ("direct", "hypothesis"):
        table.add_row(
            f"recall {derivation}",
            *(_fraction(p["recall_by_derivation"], derivation) for p in policies.values()),
        )
    for disposition in next(iter(policies.values()))["disposition_shares"]:
        table.add_row(
            f"disposition {disposition}",
            *(str(p["disposition_shares"][disposition]) for p in policies.values()),
        )
    return table


def _kind_table(set_name: str, policies: dict[str, dict[str, Any]]) -> Table:
    table = Table(title=f"{set_name}: positive recall by gold claim kind")
    table.add_column("claim kind")
    for policy in policies:
        table.add_column(policy, justify="right")
    kinds = sorted({kind for p in policies.values() for kind in p["recall_by_kind"]})
    for kind in kinds:
        table.add_row(kind, *(_fraction(p["recall_by_kind"], kind) for p in policies.values()))
    return table


def _fraction(ratios: dict[str, dict[str, int]], key: str) -> str:
    ratio = ratios.get(key)
    return f"{ratio['formed']}/{ratio['expected']}" if ratio else "-"


def memory_distillation(
    model_policy: ModelPolicyOption = "balanced",
    policy_profile: PolicyProfileOption = "default",
    build_ref: BuildRefOption = None,
    repeats: RepeatsOption = 1,
    development_only: Annotated[
        bool, typer.Option("--development-only", help="Development set alone: no holdout, no artifact.")
    ] = False,
    reasoning_effort: Annotated[
        str | None, typer.Option("--reasoning-effort", help="Effort of the formation@9 arm only.")
    ] = None,
    concurrency: ConcurrencyOption = 1,
    output: OutputOption = None,
    offline: Annotated[bool, typer.Option("--offline", help="Score the arms that need no model.")] = False,
    store: StoreOption = StoreChoice.MEMORY,
    embedded: Embedded = False,
    recorded_answers: RecordedAnswersOption = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object: per-policy numbers and gates.")
    ] = False,
) -> None:
    """Compare formation@7, formation@8 and formation@9 on corpus v3 and publish evidence on a pass."""
    stores = _stores(store, concurrency, embedded)
    if offline or not live_enabled():
        if not offline:
            typer.echo(f"skip: {LIVE_FLAG}=1 is not set; no provider call, nothing published", err=True)
        sets = evaluation_sets(development_only=development_only)
        arms: list[Arm] = [Formation7Arm(), PipelineArm(stores=stores)]
        _print(_run(sets, arms, repeats, concurrency, publication=None), as_json)
        return
    if output is None and not development_only:
        _refuse("a live run that may publish needs --output PATH_THAT_DOES_NOT_EXIST.json")
    ref, model = _live_model(build_ref, model_policy)
    candidate = model.model_copy(update={"reasoning_effort": reasoning_effort or model.reasoning_effort})
    control = _control(model)
    try:
        candidate.validate_effort()
    except ValueError as refused:
        _refuse(str(refused))
    replay = RecordedAnswers.load(recorded_answers) if recorded_answers else None
    arms = [
        Formation7Arm(),
        PipelineArm(_provider_of(replay, control), stores, policy=FORMATION_8, model=control),
        PipelineArm(_provider_of(replay, candidate), stores, model=candidate),
    ]
    publication = None
    if output is not None and not development_only:
        publication = Publication(
            output=output,
            evaluated=_evaluated(FORMATION_9, model_policy, candidate, policy_profile),
            build_ref=ref,
            created_at=datetime.now(UTC),
        )
    sets = evaluation_sets(development_only=development_only)
    try:
        outcome = _run(sets, arms, repeats, concurrency, publication=publication, gated=True)
    except OutputExists as exists:
        _refuse(str(exists))
    _finish(outcome, as_json, FORMATION_9)


def memory_formation(
    formation_policy: Annotated[
        FormationControl, typer.Option("--formation-policy", help="The single-call policy evaluated.")
    ],
    model_policy: ModelPolicyOption = "balanced",
    policy_profile: PolicyProfileOption = "default",
    build_ref: BuildRefOption = None,
    repeats: RepeatsOption = 1,
    concurrency: ConcurrencyOption = 1,
    output: OutputOption = None,
    offline: Annotated[
        bool, typer.Option("--offline", help="Score the deterministic fallback the policy merges with.")
    ] = False,
    store: StoreOption = StoreChoice.MEMORY,
    embedded: Embedded = False,
    recorded_answers: RecordedAnswersOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object: the numbers and gates.")] = False,
) -> None:
    """Evaluate formation@8 or formation@10 on the 25-case seeded formation corpus; publish on a pass."""
    policy = formation_policy.value
    stores = _stores(store, concurrency, embedded)
    if offline or not live_enabled():
        if not offline:
            typer.echo(f"skip: {LIVE_FLAG}=1 is not set; no provider call, nothing published", err=True)
        fallback = PipelineArm(stores=stores, policy=policy)
        # The gates are shown, never acted on: what the fallback alone would pass.
        outcome = _run(
            [formation_set()],
            [fallback],
            repeats,
            concurrency,
            publication=None,
            rules=SINGLE_POLICY,
            gated=True,
        )
        _print(outcome, as_json, f"{policy} fallback alone")
        return
    if output is None:
        _refuse("a live run that may publish needs --output PATH_THAT_DOES_NOT_EXIST.json")
    ref, model = _live_model(build_ref, model_policy)
    control = _control(model)
    try:
        if policy == FORMATION_10:
            require_sane_cost(control)
    except SanityCeilingExceeded as refused:
        _refuse(str(refused))
    replay = RecordedAnswers.load(recorded_answers) if recorded_answers else None
    arm = PipelineArm(_provider_of(replay, control), stores, policy=policy, model=control)
    publication = Publication(
        output=output,
        evaluated=_evaluated(policy, model_policy, control, policy_profile),
        build_ref=ref,
        created_at=datetime.now(UTC),
    )
    try:
        outcome = _run(
            [formation_set()], [arm], repeats, concurrency, publication=publication, rules=SINGLE_POLICY
        )
    except OutputExists as exists:
        _refuse(str(exists))
    _finish(outcome, as_json, policy)
