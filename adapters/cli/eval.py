"""`agent eval`: the evaluations of the reference design. `agent eval score` runs distillation-scorer@7;
`memory-distillation` and `memory-formation` are in adapters.cli.eval_runs.

`agent eval score FILE.jsonl --json` reads one {"gold": ..., "belief": ...} object a line and prints one
{"match": true|false, "reason": "<code>"} line a pair, in input order. A bad line prints
{"line": N, "field": "<field>", "error": "<code>"} in its place, so the n-th output still answers the n-th
pair, is reported on stderr the same way, and makes the command exit 1; a line is never echoed, since gold
and belief statements are a user's memories.
"""

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Final

import typer
from pydantic import ValidationError

from adapters.cli.eval_runs import memory_distillation, memory_formation
from domain.event_intake import Refusal
from domain.policy.versions import DISTILLATION_SCORER
from evals.scorer import ScoredPair, ScoreResult, score, score_statement

eval_app = typer.Typer(help="Evaluate formation and score formed beliefs.", no_args_is_help=True)
eval_app.command("memory-distillation")(memory_distillation)
eval_app.command("memory-formation")(memory_formation)

# Names a refusal of the whole line rather than one of its fields.
WHOLE_LINE: Final = "-"


def _pair(raw: bytes) -> ScoredPair | tuple[str, str]:
    """The pair one line states, or the (field, reason code) of the first thing that refuses it."""
    try:
        data = json.loads(raw.decode("utf-8").removeprefix("\ufeff"))
    except UnicodeDecodeError:
        return WHOLE_LINE, "not_utf8"
    except (ValueError, RecursionError):
        # Malformed JSON, an integer longer than Python converts, or nesting deeper than the parser follows.
        return WHOLE_LINE, "invalid_json"
    try:
        return ScoredPair.model_validate(data)
    except ValidationError as invalid:
        # loc and type only: pydantic's message and input would quote a statement.
        first = invalid.errors(include_input=False, include_url=False, include_context=False)[0]
        return ".".join(str(part) for part in first["loc"]) or WHOLE_LINE, first["type"]


def read_pairs(lines: Iterable[bytes]) -> Iterator[ScoredPair | Refusal]:
    """Each non-blank line as a pair, or its refusal; lines are bytes so one bad byte costs its own line."""
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        parsed = _pair(raw)
        yield parsed if isinstance(parsed, ScoredPair) else Refusal(number, *parsed)


@eval_app.command("score")
def score_command(
    file: Annotated[
        Path,
        typer.Argument(
            exists=True, dir_okay=False, readable=True, help='JSON Lines: {"gold": {...}, "belief": {...}}.'
        ),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help='One {"match", "reason"} object a line, in input order.')
    ] = False,
    statement_only: Annotated[
        bool,
        typer.Option(
            "--statement-only", help="Score statements alone, as for the controls formation@7 and @8."
        ),
    ] = False,
) -> None:
    """Score each (gold, belief) pair with distillation-scorer@7. Exits 1 if a line was refused."""
    scorer = score_statement if statement_only else score
    matched = scored = refused = 0
    with file.open("rb") as lines:
        for item in read_pairs(lines):
            if isinstance(item, Refusal):
                refused += 1
                typer.echo(f"refused {item}", err=True)
                if as_json:
                    typer.echo(json.dumps({"line": item.line, "field": item.field, "error": item.reason}))
                continue
            result: ScoreResult = scorer(item.gold, item.belief)
            scored += 1
            matched += result.match
            if as_json:
                typer.echo(json.dumps({"match": result.match, "reason": result.reason.value}))
            else:
                typer.echo(f"{'match' if result.match else 'no match':8}  {result.reason.value}")
    mode = " (statement only)" if statement_only else ""
    typer.echo(f"{DISTILLATION_SCORER}{mode}: {matched} of {scored} matched, {refused} refused", err=True)
    if refused:
        raise typer.Exit(1)
