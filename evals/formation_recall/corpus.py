"""The formation recall corpus: ordinary speech to an agent, labelled with the claims a person would expect.

Nine frozen parts sit beside this module, each with its sha256 record: `dev.jsonl` to `dev7.jsonl`,
which rule work may be tuned on (`dev2` was written and frozen before the second round of rule work read
any miss, `dev3` before the fourth, `dev4` before the sixth, `dev5` before the seventh, `dev6` before the
eighth, `dev7` before the ninth, which read it as totals only; from the tenth it is a development part);
`dev8.jsonl`, written and frozen before the tenth round, which that round reads as totals only (its
transfer check, `TOTALS_ONLY`); and `unseen.jsonl`, authored and committed before any rule change and never read while changing rules. The
loader refuses a part whose content no longer matches its record, so an edit is a deliberate re-freeze that
shows in review.

One case a line: `id`; `turns`, each `{"role": "user" | "assistant", "text"}`; `expect`, the claims the
case must form, each with its acceptable `statement` renderings (third person, "User ..."), its `kind` and
an optional `polarity` ("retract" for a correction); `must_not`, statements that must not form; and an
optional `may`, statements that are true of the user but not required.
"""

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

from domain.candidates import ClaimKind, Polarity
from domain.events import SourceEvent, SourceEventKind

HERE = Path(__file__).resolve().parent
SESSION = UUID("0f0e0d0c-0b0a-4908-8706-050403020100")
STARTED = datetime(2026, 9, 2, 10, 0, tzinfo=UTC)
ROLES = {"user": SourceEventKind.USER_MESSAGE, "assistant": SourceEventKind.ASSISTANT_MESSAGE}


class Part(StrEnum):
    DEV = "dev"
    DEV2 = "dev2"
    DEV3 = "dev3"
    DEV4 = "dev4"
    DEV5 = "dev5"
    DEV6 = "dev6"
    DEV7 = "dev7"
    DEV8 = "dev8"
    UNSEEN = "unseen"


# Parts rule work reads as totals only, never by miss: `unseen` always, and `dev8` while it is the tenth
# round's check that rules read on `dev` to `dev7` transfer to people they were not written for.
TOTALS_ONLY = frozenset({Part.DEV8, Part.UNSEEN})


class CorpusDigestMismatch(ValueError):
    """A part's content differs from its frozen sha256 record."""


@dataclass(frozen=True)
class GoldClaim:
    statements: tuple[str, ...]
    kind: ClaimKind | None  # None for a `may` statement: true of the user, labelled with no kind
    polarity: Polarity


@dataclass(frozen=True)
class Case:
    id: str
    events: tuple[SourceEvent, ...]
    expect: tuple[GoldClaim, ...]
    must_not: tuple[str, ...]
    may: tuple[str, ...]


def recorded_digest(part: Part) -> str:
    return (HERE / f"{part}.sha256").read_text("utf-8").split()[0]


def digest(part: Part) -> str:
    return hashlib.sha256((HERE / f"{part}.jsonl").read_bytes()).hexdigest()


class _Turn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    role: Literal["user", "assistant"]
    text: str


class _Claim(BaseModel):
    model_config = ConfigDict(extra="forbid")
    statement: list[str] = Field(min_length=1)
    kind: ClaimKind
    polarity: Polarity = Polarity.ASSERT


class _Line(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    turns: list[_Turn] = Field(min_length=1)
    expect: list[_Claim]
    must_not: list[str] = []
    may: list[str] = []


def _case(line: str) -> Case:
    raw = _Line.model_validate_json(line)
    events = tuple(
        SourceEvent(
            tenant_id="t1",
            principal_id="p1",
            session_id=SESSION,
            seq=seq,
            kind=ROLES[turn.role],
            text=turn.text,
            occurred_at=STARTED + timedelta(minutes=seq),
        )
        for seq, turn in enumerate(raw.turns, start=1)
    )
    expect = tuple(GoldClaim(tuple(c.statement), c.kind, c.polarity) for c in raw.expect)
    return Case(raw.id, events, expect, tuple(raw.must_not), tuple(raw.may))


def load(part: Part) -> list[Case]:
    """The part's cases, after checking its content against the frozen record."""
    if digest(part) != recorded_digest(part):
        raise CorpusDigestMismatch(f"formation recall part {part} does not match its sha256 record")
    lines = (HERE / f"{part}.jsonl").read_text("utf-8").splitlines()
    return [_case(line) for line in lines if line.strip()]
