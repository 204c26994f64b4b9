"""Recall with a query: how the three orders are fused.

Two ranked lists of the owner's live readable beliefs: by meaning (cosine similarity of the belief's vector
to the query's, domain.beliefs.embedding; at most FUSION_POOL nearest) and by words (full-text relevance,
domain.beliefs.relevance.fuse over the matches, which breaks its own ties by retrieval@3; its top k, the
number recalled). Reciprocal-rank fusion: a belief scores, per list it is in, weight / (RRF_K + rank), rank
counted from 1; the highest sum first, then retrieval@3's score (evidence age, kind, confidence, utility),
then id. A belief found by meaning alone or by words alone can win; one found by both usually does;
retrieval@3 decides among equals. With no vector for the query (the model unreachable, nothing embedded
yet) recall ranks exactly as by words; with no word matched, by meaning.

The weights and RRF_K were chosen on the development sets only (docs/evaluation/recall-by-meaning.md).
"""

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Final
from uuid import UUID

from domain.beliefs.embedding import Neighbour
from domain.beliefs.retrieval import RankingInputs, inputs_expired, inputs_horizon, inputs_score

# How many of the nearest by meaning are fused (the words list is the top k asked).
FUSION_POOL: Final = 50
# A small K lets the first places of a list count (K=60, the usual constant, let a belief far down both lists
# beat the best match by words); words weigh twice meaning: a belief holding the question's words is usually
# its answer, and a static model's nearest are noisier. retrieval@3's order as a third list (weight 0.25 to
# 1) did no better on the development sets and let a fresh belief holding only a WordNet relative of the
# query's word outrank an older one holding the word: it breaks ties instead.
RRF_K: Final = 5.0
MEANING_WEIGHT: Final = 1.0
WORDS_WEIGHT: Final = 2.0
# A model whose nearest are good enough to weigh as much as words: with all-MiniLM-L6-v2, meaning and words
# at equal weight recalled more on the development sets (dev2, dev3, dev4) than words at twice meaning.
WORDS_WEIGHT_BY_MODEL: Final[Mapping[str, float]] = {"minilm/all-MiniLM-L6-v2": 1.0}


def fusion_weights(model: str | None) -> tuple[float, float]:
    """The meaning and words lists' weights when the nearest are by model."""
    return MEANING_WEIGHT, WORDS_WEIGHT_BY_MODEL.get(model or "", WORDS_WEIGHT)


def fuse_orders(
    near: Sequence[Neighbour],
    by_words: Sequence[RankingInputs],
    now: datetime,
    limit: int,
    *,
    weights: tuple[float, float] = (MEANING_WEIGHT, WORDS_WEIGHT),
    rrf_k: float = RRF_K,
) -> list[RankingInputs]:
    """The top limit of near (most similar first) and by_words (most relevant first) by reciprocal-rank
    fusion, ties to retrieval@3's score, leaving out the expired."""
    inputs: dict[UUID, RankingInputs] = {}
    for candidate in (*(n.inputs for n in near), *by_words):
        inputs.setdefault(candidate.id, candidate)
    scores: dict[UUID, float] = {}
    for belief_id, candidate in inputs.items():
        found = inputs_horizon(candidate)
        if not inputs_expired(candidate, found, now):
            scores[belief_id] = inputs_score(candidate, found, now)
    fused = dict.fromkeys(scores, 0.0)
    for weight, ranked in zip(weights, ([n.inputs.id for n in near], [i.id for i in by_words]), strict=True):
        for rank, belief_id in enumerate((i for i in ranked if i in fused), start=1):
            fused[belief_id] += weight / (rrf_k + rank)
    order = sorted(fused, key=lambda i: (-fused[i], -scores[i], i))
    return [inputs[i] for i in order[: max(limit, 0)]]
