"""Generated conversations whose every word can be traced: made-up names make leaks findable."""

import random
from datetime import UTC, datetime, timedelta
from uuid import UUID

from domain.events import SourceEvent, SourceEventKind
from domain.owner import Owner
from domain.providers import ProviderRequest
from domain.telemetry import Stage

# Invented words: none appears in any identifier, version or enum value, so finding one in a history
# can only mean source content leaked.
NAMES = (
    "Zelmora",
    "Quorvath",
    "Brantic",
    "Yssendel",
    "Mirokai",
    "Talvessa",
    "Okumbrel",
    "Vantrisk",
    "Feldhorra",
    "Ulgarith",
)
TEMPLATES = (
    "I am building a personal AI agent called {name}.",
    "I live in {name} and I work as a software engineer.",
    "My sister {name} is visiting next week.",
    "I am training for the {name} marathon in spring.",
    "I prefer tea from {name} over coffee.",
    "I have been learning to play the {name} flute.",
)
REPLIES = ("That sounds great, tell me more about {name}.", "Noted: {name}.")

BASE = datetime(2026, 9, 2, 10, 0, tzinfo=UTC)


def conversation(
    owner: Owner,
    session_id: UUID,
    user_turns: int,
    *,
    seed: int = 7,
    first_seq: int = 1,
    replies: bool = True,
    start: datetime = BASE,
) -> list[SourceEvent]:
    rng = random.Random(seed)
    events: list[SourceEvent] = []
    seq = first_seq
    for turn in range(user_turns):
        name = NAMES[rng.randrange(len(NAMES))]
        text = TEMPLATES[rng.randrange(len(TEMPLATES))].format(name=name) + f" Turn {turn} of {name}."
        events.append(_event(owner, session_id, seq, SourceEventKind.USER_MESSAGE, text, start))
        seq += 1
        if replies:
            reply = REPLIES[turn % len(REPLIES)].format(name=name)
            events.append(_event(owner, session_id, seq, SourceEventKind.ASSISTANT_MESSAGE, reply, start))
            seq += 1
    return events


def _event(
    owner: Owner, session_id: UUID, seq: int, kind: SourceEventKind, text: str, start: datetime
) -> SourceEvent:
    return SourceEvent(
        tenant_id=owner.tenant_id,
        principal_id=owner.principal_id,
        session_id=session_id,
        seq=seq,
        kind=kind,
        text=text,
        occurred_at=start + timedelta(seconds=seq),
    )


def plausible_answer(request: ProviderRequest) -> dict[str, object]:
    """A schema-shaped answer per stage. Validation may still reject it (then the stage falls back);
    the orchestration tests count calls and shapes, not formation quality."""
    if request.stage is Stage.INTEGRATION:
        sentences = []
        for line in request.content.splitlines():
            if line.startswith("[") and "]" in line:
                seq = int(line[1 : line.index("]")])
                sentences.append({"text": line[line.index("]") + 2 :], "source_event_ids": [seq]})
        return {"episodes": [{"subjects": ["project:personal-ai-agent"], "sentences": sentences}]}
    if request.stage is Stage.ANTICIPATION:
        return {"predictions": []}
    if request.stage is Stage.EXTRACTION:
        memories = []
        for line in request.content.splitlines():
            if line.startswith("[") and "]" in line:
                seq, text = int(line[1 : line.index("]")]), line[line.index("]") + 2 :]
                memories.append(
                    {
                        "subject": "personal AI agent",
                        "claim_kind": "ongoing_project",
                        "longevity": "ongoing",
                        "statement": text,
                        "evidence_spans": [{"seq": seq, "text": text}],
                    }
                )
        return {"memories": memories}
    return {"coverage": [], "candidates": []}
