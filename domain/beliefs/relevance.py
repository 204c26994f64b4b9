"""Query relevance for recall: which terms a query searches for, and how relevance fuses with retrieval@3.

Terms. A query's words, lower-cased, without the words that name the user (every statement is about the
user, so they would match everything), at most MAX_QUERY_TERMS. A belief matches when its subject or
statement holds any one term (an OR query: one matching term counts); a store ranks its matches by text
relevance (PostgreSQL: ts_rank_cd over the generated search vector; in memory: how many terms match).

Fusion (reciprocal-rank fusion). Of an owner's live, unexpired matches within the sensitivity ceiling, the
store's RELEVANCE_POOL most relevant are ranked twice: by relevance (the store's order) and by the retrieval@3
score. Each belief scores RELEVANCE_WEIGHT / (FUSION_K + relevance rank) + 1 / (FUSION_K + retrieval@3 rank)
(ranks from 1); ties fall to the id. Relevance weighs more because the caller asked about something: among
beliefs about it, the fresher and more useful come first. A query with no searchable term recalls in
retrieval@3 order alone, as a recall without a query does.
"""

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Final
from uuid import UUID

from domain.beliefs.retrieval import RankingInputs, inputs_expired, inputs_horizon, inputs_score
from domain.candidates import GENERIC_SUBJECTS, Sensitivity
from domain.formation.language import lemma

MAX_QUERY_TERMS: Final = 32
MAX_TERM_CHARS: Final = 64
RELEVANCE_POOL: Final = 200
FUSION_K: Final = 60
RELEVANCE_WEIGHT: Final = 2.0

_WORD = re.compile(r"[^\W_]+")
_USER_WORDS: Final = frozenset(w for subject in GENERIC_SUBJECTS for w in subject.split()) | {
    "my",
    "mine",
    "myself",
}
_ORDER: Final = (Sensitivity.PUBLIC, Sensitivity.INTERNAL, Sensitivity.SENSITIVE, Sensitivity.RESTRICTED)


def within(ceiling: Sensitivity) -> frozenset[Sensitivity]:
    """The sensitivities a surface with this ceiling may show: the ceiling and everything below it."""
    return frozenset(_ORDER[: _ORDER.index(ceiling) + 1])


def query_terms(query: str) -> tuple[str, ...]:
    """The searchable words of a query, in order, each once (plain letters and digits only)."""
    words = (w[:MAX_TERM_CHARS] for w in _WORD.findall(query.lower()))
    kept = dict.fromkeys(w for w in words if len(w) > 1 and w not in _USER_WORDS)
    return tuple(kept)[:MAX_QUERY_TERMS]


def term_matches(terms: Sequence[str], subject: str, statement: str) -> int:
    """How many terms a belief holds, word for word after lemmatizing (the in-memory store's relevance)."""
    held = {lemma(w) for w in _WORD.findall(f"{subject} {statement}".lower())}
    return sum(1 for term in terms if lemma(term) in held)


def fuse(matches: Sequence[RankingInputs], now: datetime, limit: int) -> tuple[list[RankingInputs], int]:
    """The top limit of matches (most relevant first) by reciprocal-rank fusion with retrieval@3, leaving
    out the expired; and how many were expired."""
    live: list[tuple[RankingInputs, float]] = []
    for inputs in matches:
        found = inputs_horizon(inputs)
        if not inputs_expired(inputs, found, now):
            live.append((inputs, inputs_score(inputs, found, now)))
    by_score = sorted(live, key=lambda pair: (-pair[1], pair[0].id))
    score_rank: dict[UUID, int] = {inputs.id: rank for rank, (inputs, _) in enumerate(by_score, start=1)}
    fused = sorted(
        (
            (
                -(RELEVANCE_WEIGHT / (FUSION_K + relevance_rank) + 1 / (FUSION_K + score_rank[inputs.id])),
                inputs.id,
                inputs,
            )
            for relevance_rank, (inputs, _) in enumerate(live, start=1)
        ),
        key=lambda entry: (entry[0], entry[1]),
    )
    return [inputs for _, _, inputs in fused[: max(limit, 0)]], len(matches) - len(live)
