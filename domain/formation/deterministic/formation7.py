"""formation@7 deterministic-v2: the frozen, statement-only deterministic control.

This is a historical control, not a helper: its output for a given input must never change, because
formation@9's lift is measured against it. It is therefore self-contained (its own sentence splitting and
its own word lists) and shares no code with the formation@9 fallback, which is free to improve.
Recorded fixtures under tests/fixtures/formation7/ pin its output byte for byte.
"""

import json
import re
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field, PositiveInt

from domain.events import SourceEvent
from domain.policy.versions import EXTRACTOR_BY_FORMATION, FORMATION_7

EXTRACTOR = EXTRACTOR_BY_FORMATION[FORMATION_7]
MAX_CANDIDATES = 8
MAX_PER_EVENT = 2
_MAX_SENTENCE_CHARS = 300

_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")
_OPENERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^I am (?P<rest>.+)$"), "User is {rest}"),
    (re.compile(r"^I'm (?P<rest>.+)$"), "User is {rest}"),
    (re.compile(r"^I have (?P<rest>.+)$"), "User has {rest}"),
    (re.compile(r"^I've (?P<rest>.+)$"), "User has a {rest}"),
    (re.compile(r"^I work (?P<rest>.+)$"), "User works {rest}"),
    (re.compile(r"^I live (?P<rest>.+)$"), "User lives {rest}"),
    (re.compile(r"^I like (?P<rest>.+)$"), "User likes {rest}"),
    (re.compile(r"^I prefer (?P<rest>.+)$"), "User prefers {rest}"),
    (re.compile(r"^My (?P<rest>.+)$"), "User's {rest}"),
)


class Formation7Candidate(BaseModel):
    """What deterministic-v2 could express: a statement and where it came from, nothing more."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    statement: str = Field(min_length=1)
    source_event_ids: tuple[PositiveInt, ...] = Field(min_length=1)


def form_formation7(events: Sequence[SourceEvent]) -> list[Formation7Candidate]:
    """Statement-only candidates from sentences that open with a first-person declarative."""
    out: list[Formation7Candidate] = []
    seen: set[str] = set()
    for event in sorted(events, key=lambda e: e.seq):
        if not event.is_owner_assertion:
            continue
        per_event = 0
        for match in _SENTENCE.finditer(event.text):
            sentence = match.group(0).strip()
            if not sentence or len(sentence) > _MAX_SENTENCE_CHARS or sentence.endswith("?"):
                continue
            sentence = sentence.rstrip(".!")
            for pattern, template in _OPENERS:
                found = pattern.match(sentence)
                if found is None:
                    continue
                rest = found.group("rest").replace(" my ", " their ").strip()
                statement = template.format(rest=rest) + "."
                if statement not in seen:
                    seen.add(statement)
                    out.append(Formation7Candidate(statement=statement, source_event_ids=(event.seq,)))
                    per_event += 1
                break
            if per_event >= MAX_PER_EVENT or len(out) >= MAX_CANDIDATES:
                break
        if len(out) >= MAX_CANDIDATES:
            break
    return out


def normalized_output(candidates: Sequence[Formation7Candidate]) -> str:
    """The byte-stable form the frozen fixtures record."""
    payload = {
        "formation_policy": FORMATION_7,
        "extractor": EXTRACTOR,
        "candidates": [c.model_dump(mode="json") for c in candidates],
    }
    return json.dumps(payload, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
