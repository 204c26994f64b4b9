"""Capacity and ranking: which validated candidates may be proposed for commit, in a fixed order."""

from dataclasses import dataclass

from domain.candidates import ClaimKind, Derivation, Longevity, MemoryCandidate
from domain.telemetry import ReasonCategory

MAX_PROPOSALS_PER_CONSOLIDATION = 32
MAX_PROPOSALS_PER_SOURCE_EVENT = 6

# The local usefulness rubric: lasting, reusable knowledge outranks incidental facts.
KIND_USEFULNESS: dict[ClaimKind, int] = {
    ClaimKind.ONGOING_PROJECT: 9,
    ClaimKind.GOAL: 9,
    ClaimKind.CONSTRAINT: 8,
    ClaimKind.ROLE: 8,
    ClaimKind.RELATIONSHIP: 8,
    ClaimKind.PREFERENCE: 8,
    ClaimKind.SKILL: 7,
    ClaimKind.HABIT: 6,
    ClaimKind.RECURRING_STATE: 6,
    ClaimKind.INTEREST: 5,
    ClaimKind.RESOURCE: 3,
    ClaimKind.PROJECT_FACT: 3,
}
LONGEVITY_USEFULNESS: dict[Longevity, int] = {
    Longevity.DURABLE: 2,
    Longevity.ONGOING: 1,
    Longevity.TENTATIVE: 0,
}


def usefulness(candidate: MemoryCandidate) -> int:
    return KIND_USEFULNESS[candidate.claim_kind] * 3 + LONGEVITY_USEFULNESS[candidate.longevity]


@dataclass(frozen=True)
class Selection:
    admitted: list[MemoryCandidate]
    displaced: list[tuple[MemoryCandidate, ReasonCategory]]


def rank(candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
    """Direct first, then usefulness, then novelty of kind or subject, then source order, then stated order."""
    seen_kinds: set[ClaimKind] = set()
    seen_subjects: set[str] = set()
    novelty: dict[int, int] = {}
    for position, candidate in enumerate(candidates):
        novel = candidate.claim_kind not in seen_kinds or candidate.subject not in seen_subjects
        novelty[position] = 0 if novel else 1
        seen_kinds.add(candidate.claim_kind)
        seen_subjects.add(candidate.subject)
    order = sorted(
        range(len(candidates)),
        key=lambda i: (
            candidates[i].derivation is not Derivation.DIRECT,
            -usefulness(candidates[i]),
            novelty[i],
            candidates[i].source_event_ids[0],
            i,
        ),
    )
    return [candidates[i] for i in order]


def select(candidates: list[MemoryCandidate], global_capacity: int) -> Selection:
    """A first pass takes one candidate per subject, then remaining capacity fills in rank order."""
    ranked = rank(candidates)
    per_source: dict[int, int] = {}
    admitted_positions: set[int] = set()
    displaced: dict[int, ReasonCategory] = {}

    def try_admit(position: int) -> None:
        candidate = ranked[position]
        if any(
            per_source.get(seq, 0) >= MAX_PROPOSALS_PER_SOURCE_EVENT for seq in candidate.source_event_ids
        ):
            displaced[position] = ReasonCategory.DISPLACED_PER_SOURCE
            return
        if len(admitted_positions) >= global_capacity:
            displaced[position] = ReasonCategory.DISPLACED_GLOBAL
            return
        displaced.pop(position, None)
        admitted_positions.add(position)
        for seq in candidate.source_event_ids:
            per_source[seq] = per_source.get(seq, 0) + 1

    first_of_subject: set[str] = set()
    for position, candidate in enumerate(ranked):
        if candidate.subject not in first_of_subject:
            first_of_subject.add(candidate.subject)
            try_admit(position)
    for position in range(len(ranked)):
        if position not in admitted_positions:
            try_admit(position)
    return Selection(
        admitted=[ranked[i] for i in sorted(admitted_positions)],
        displaced=[(ranked[i], reason) for i, reason in sorted(displaced.items())],
    )
