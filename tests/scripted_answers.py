"""Provider answers authored by hand for the fixture conversations: what a correct model would return.

Each builder returns the stage document a provider would send; tests feed them to the ScriptedProvider and
check that local validation keeps every valid claim. Statements are the test author's, not the code's.
"""

from pathlib import Path
from typing import Any
from uuid import UUID

from domain.events import SourceEvent

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PERSONAL_AGENT_SESSION = UUID("c3d9f0a2-8e47-4b1c-b6a5-5d2e7f1a0b93")
TRAINING_SESSION = UUID("7b1e2c84-1f0a-4c55-9a35-2f6e0a4d9c11")


def load(name: str) -> list[SourceEvent]:
    path = FIXTURES / name
    return [
        SourceEvent.model_validate_json(line) for line in path.read_text("utf-8").splitlines() if line.strip()
    ]


def sentence(text: str, *seqs: int) -> dict[str, Any]:
    return {"text": text, "source_event_ids": list(seqs)}


def fragment(subjects: list[str], *sentences: dict[str, Any]) -> dict[str, Any]:
    return {"subjects": subjects, "sentences": list(sentences)}


def candidate(
    subject: str,
    kind: str,
    derivation: str,
    longevity: str,
    statement: str,
    spans: list[tuple[int, str]],
    polarity: str = "assert",
) -> dict[str, Any]:
    return {
        "subject": subject,
        "claim_kind": kind,
        "derivation": derivation,
        "longevity": longevity,
        "polarity": polarity,
        "statement": statement,
        "source_event_ids": [seq for seq, _ in spans],
        "evidence_spans": [{"seq": seq, "text": text} for seq, text in spans],
    }


def entry(
    unit_id: str, disposition: str, indexes: list[int] | None = None, prediction: int | None = None
) -> dict[str, Any]:
    return {
        "unit_id": unit_id,
        "disposition": disposition,
        "candidate_indexes": indexes or [],
        "prediction_index": prediction,
    }


# --- the personal-agent statement ------------------------------------------------------------------

PERSONAL_AGENT_INTEGRATION: dict[str, Any] = {
    "episodes": [
        fragment(
            ["personal AI agent", "web search and fetch tools"],
            sentence("User is building a personal AI agent.", 1),
            sentence("User is wondering what to use for web search and web fetch.", 1),
        )
    ]
}

PROJECT = "User is building a personal AI agent."
HYPOTHESIS = "User likely has software-development experience."
SEARCH_GOAL = "User wants to choose web-search and fetch tools."


def personal_agent_distillation(hypothesis_statement: str = HYPOTHESIS) -> dict[str, Any]:
    return {
        "coverage": [entry("1:0", "formed", [0, 1]), entry("1:1", "formed", [2])],
        "candidates": [
            candidate(
                "personal AI agent",
                "ongoing_project",
                "direct",
                "ongoing",
                PROJECT,
                [(1, "I am building a personal AI agent")],
            ),
            candidate(
                "software development",
                "skill",
                "hypothesis",
                "tentative",
                hypothesis_statement,
                [(1, "I am building a personal AI agent")],
            ),
            candidate(
                "web search and fetch tools",
                "goal",
                "direct",
                "ongoing",
                SEARCH_GOAL,
                [(1, "I am wondering what to use for web search and web fetch.")],
            ),
        ],
    }


# --- the three-turn training conversation ------------------------------------------------------------

TRAINING_INTEGRATION: dict[str, Any] = {
    "episodes": [
        fragment(
            ["strength training routine", "training history"],
            sentence(
                "User has trained regularly most of their life and does a 5x5 routine 2-3x a week, "
                "with swimming, running and biking on the other days.",
                1,
            ),
            sentence("User is still progressing and has not stalled yet.", 1),
            sentence(
                "User restarted 5x5 about a year ago after years of calisthenics, and before that did "
                "about six years of gymnastic strength training.",
                3,
            ),
        ),
        fragment(
            ["training goals"],
            sentence("User would like to keep improving rather than just maintaining.", 5),
            sentence("User wants recommendations that take their age into account; User is 47.", 5),
        ),
    ]
}

# (subject, kind, longevity, statement, span): the eleven supported memories, all direct.
TRAINING_MEMORIES: list[tuple[str, str, str, str, tuple[int, str]]] = [
    (
        "lifelong training",
        "skill",
        "durable",
        "User has trained regularly most of their life.",
        (1, "I've trained regularly most of my life"),
    ),
    (
        "5x5 routine",
        "habit",
        "ongoing",
        "User does a 5x5 routine 2-3x a week.",
        (1, "I do a 5x5 routine 2-3x a week"),
    ),
    (
        "swimming",
        "habit",
        "ongoing",
        "User swims on the other days.",
        (1, "swimming, running and biking on the other days"),
    ),
    (
        "running",
        "habit",
        "ongoing",
        "User runs on the other days.",
        (1, "swimming, running and biking on the other days"),
    ),
    (
        "biking",
        "habit",
        "ongoing",
        "User bikes on the other days.",
        (1, "swimming, running and biking on the other days"),
    ),
    (
        "training progress",
        "project_fact",
        "ongoing",
        "User is still progressing and has not stalled.",
        (1, "I'm still progressing and haven't stalled yet"),
    ),
    (
        "5x5 restart",
        "skill",
        "durable",
        "User restarted 5x5 about a year ago after years of calisthenics.",
        (3, "I restarted 5x5 about a year ago after years of calisthenics"),
    ),
    (
        "calisthenics",
        "skill",
        "durable",
        "User has years of calisthenics experience.",
        (3, "years of calisthenics"),
    ),
    (
        "gymnastic strength training",
        "skill",
        "durable",
        "User has about six years of gymnastic strength training experience.",
        (3, "I did about six years of gymnastic strength training"),
    ),
    (
        "keep improving",
        "goal",
        "ongoing",
        "User wants to keep improving rather than just maintaining.",
        (5, "I'd really like to keep improving rather than just maintaining."),
    ),
    (
        "age-aware recommendations",
        "preference",
        "durable",
        "User wants recommendations that take their age into account.",
        (5, "Can you give me recommendations that take my age into account?"),
    ),
]


def training_distillation() -> dict[str, Any]:
    candidates = [
        candidate(subject, kind, "direct", longevity, statement, [span])
        for subject, kind, longevity, statement, span in TRAINING_MEMORIES
    ]
    return {
        "coverage": [
            entry("1:0", "not_memory"),
            entry("1:1", "transient"),
            entry("1:2", "formed", [0, 1, 2, 3, 4]),
            entry("1:3", "formed", [5]),
            entry("3:0", "formed", [6, 7, 8]),
            entry("3:1", "not_memory"),
            entry("5:0", "formed", [9]),
            entry("5:1", "formed", [10]),
            entry("5:2", "not_memory"),
        ],
        "candidates": candidates,
    }


NO_PREDICTIONS: dict[str, Any] = {"predictions": []}
