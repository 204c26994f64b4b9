"""Precision and recall of the deterministic former on casual two-person conversations.

Run: .venv/bin/python -m evals.precision.precision [--part dev|dev2|dev3|heldout|heldout2|heldout3] [--unlabelled] [--json]

Six frozen parts sit beside this module, each an events file in the wire format of `agent events import`
(the person remembered speaks as `user_message`, the friend they talk to as `assistant_message`) and a gold
file (one line a conversation: its `session_id`, the durable claims a person would expect to be remembered,
`expect`, and statements that would be junk, `junk`), both checked against the part's sha256 record before
they are read. `dev`, `dev2` and `dev3` are development parts (`dev3` written
and frozen after the rules written from the other two); `heldout`, `heldout2` and `heldout3` are held out, read
for their totals only (`heldout2` written and frozen after the rules written from `dev` and `dev2`, `heldout3`
after every rule of the former).

Precision is useful / formed over every candidate the former forms, each judged by hand in `labels.json`
(keyed by part, then statement: `useful`, `transient` or `garbled`). A statement no label names stops the
run: `--unlabelled` lists those to label first, so no number is ever computed over a guess. Recall is the
share of gold claims some direct candidate of the same conversation states, by distillation-scorer@7's
statement rule (`evals.formation_recall.recall.scorer_statement`, the formation-recall sets' matcher).
"""

import argparse
import hashlib
import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

from domain.candidates import ClaimKind, Derivation, MemoryCandidate, Polarity
from domain.events import SourceEvent
from domain.formation.deterministic.former import fallback_candidates
from evals.formation_recall.corpus import GoldClaim
from evals.formation_recall.recall import Former, scorer_statement

HERE = Path(__file__).resolve().parent
LABELS = HERE / "labels.json"


class Part(StrEnum):
    DEV = "dev"
    DEV2 = "dev2"
    DEV3 = "dev3"
    HELDOUT = "heldout"
    HELDOUT2 = "heldout2"
    HELDOUT3 = "heldout3"


class Label(StrEnum):
    USEFUL = "useful"
    TRANSIENT = "transient"
    GARBLED = "garbled"


class PartDigestMismatch(ValueError):
    """A part's files differ from its frozen sha256 record."""


class UnlabelledStatements(ValueError):
    """The former formed statements no hand label judges."""


class _Claim(BaseModel):
    model_config = ConfigDict(extra="forbid")
    statement: list[str] = Field(min_length=1)
    kind: ClaimKind


class Conversation(BaseModel):
    model_config = ConfigDict(extra="forbid")
    conversation: str
    session_id: UUID
    expect: list[_Claim]
    junk: list[str]


def _files(part: Part) -> tuple[Path, Path]:
    return HERE / f"{part}.events.jsonl", HERE / f"{part}.gold.jsonl"


def recorded(part: Part) -> dict[str, str]:
    """The part's frozen record: file name -> sha256."""
    lines = (HERE / f"{part}.sha256").read_text("utf-8").splitlines()
    return {name: digest for digest, name in (line.split() for line in lines if line)}


def _check(part: Part) -> None:
    frozen = recorded(part)
    for path in _files(part):
        if hashlib.sha256(path.read_bytes()).hexdigest() != frozen.get(path.name):
            raise PartDigestMismatch(f"precision part {part}: {path.name} does not match its sha256 record")


def load(part: Part) -> list[tuple[Conversation, list[SourceEvent]]]:
    """Each conversation of the part with its events, after checking both files against the frozen record."""
    _check(part)
    events_path, gold_path = _files(part)
    events = [SourceEvent.model_validate_json(line) for line in events_path.read_text("utf-8").splitlines()]
    by_session: dict[UUID, list[SourceEvent]] = {}
    for event in events:
        by_session.setdefault(event.session_id, []).append(event)
    gold = [Conversation.model_validate_json(line) for line in gold_path.read_text("utf-8").splitlines()]
    return [(conversation, by_session[conversation.session_id]) for conversation in gold]


def labels(part: Part) -> dict[str, Label]:
    raw: dict[str, dict[str, str]] = json.loads(LABELS.read_text("utf-8"))
    return {statement: Label(label) for statement, label in raw.get(part.value, {}).items()}


@dataclass
class Score:
    part: str
    conversations: int = 0
    expected: int = 0
    recalled: int = 0
    formed: int = 0
    judged: Counter[Label] = field(default_factory=Counter)
    junk_formed: int = 0

    @property
    def precision(self) -> float:
        return self.judged[Label.USEFUL] / self.formed if self.formed else 1.0

    @property
    def recall(self) -> float:
        return self.recalled / self.expected if self.expected else 1.0

    def row(self) -> dict[str, object]:
        return {
            "part": self.part,
            "conversations": self.conversations,
            "formed": self.formed,
            **{label.value: self.judged[label] for label in Label},
            "precision": round(self.precision, 4),
            "expected": self.expected,
            "recalled": self.recalled,
            "recall": round(self.recall, 4),
            "junk_formed": self.junk_formed,
        }


def _gold(claim: _Claim) -> GoldClaim:
    return GoldClaim(tuple(claim.statement), claim.kind, Polarity.ASSERT)


def formed(
    part: Part, former: Former = fallback_candidates
) -> list[tuple[Conversation, list[MemoryCandidate]]]:
    return [(conversation, former(events)) for conversation, events in load(part)]


def unlabelled(part: Part, former: Former = fallback_candidates) -> list[str]:
    known = labels(part)
    statements = {c.statement for _, candidates in formed(part, former) for c in candidates}
    return sorted(statements - known.keys())


def score(part: Part, former: Former = fallback_candidates) -> Score:
    known = labels(part)
    result = Score(part=part.value)
    runs = formed(part, former)
    missing = sorted({c.statement for _, cs in runs for c in cs} - known.keys())
    if missing:
        raise UnlabelledStatements(
            f"{len(missing)} formed statements of {part} have no label: run --unlabelled"
        )
    for conversation, candidates in runs:
        direct = [c for c in candidates if c.derivation is Derivation.DIRECT]
        result.conversations += 1
        result.expected += len(conversation.expect)
        result.recalled += sum(
            any(scorer_statement(_gold(claim), c) for c in direct) for claim in conversation.expect
        )
        result.formed += len(candidates)
        result.judged.update(known[c.statement] for c in candidates)
        junk = [GoldClaim((statement,), None, Polarity.ASSERT) for statement in conversation.junk]
        result.junk_formed += sum(any(scorer_statement(j, c) for j in junk) for c in candidates)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=[p.value for p in Part], action="append")
    parser.add_argument("--unlabelled", action="store_true", help="list formed statements with no hand label")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    parts = [Part(p) for p in args.part] if args.part else list(Part)
    if args.unlabelled:
        for part in parts:
            for statement in unlabelled(part):
                print(json.dumps({"part": part.value, "statement": statement}))
        return 0
    rows = [score(part).row() for part in parts]
    if args.json:
        for row in rows:
            print(json.dumps(row))
        return 0
    print("part     formed useful transient garbled precision  recalled/expected  recall  junk")
    for row in rows:
        print(
            f"{row['part']:<8} {row['formed']:>6} {row['useful']:>6} {row['transient']:>9} {row['garbled']:>7}"
            f" {row['precision']:>9.1%} {row['recalled']:>9}/{row['expected']:<8} {row['recall']:>6.1%}"
            f" {row['junk_formed']:>5}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
