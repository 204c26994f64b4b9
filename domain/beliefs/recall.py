"""Recall: the owner's top live beliefs within a sensitivity ceiling, by retrieval@3 (read from the store a page
of ranking inputs at a time) or, given a query, by meaning, words and retrieval@3 fused (domain.beliefs.fusion:
the nearest by embedding, domain.beliefs.embedding; the best by full-text relevance,
domain.beliefs.relevance). Never empty while the owner holds a live readable belief: when neither meaning nor
words find one (nothing embedded yet and no word shared), retrieval@3 alone answers."""

import heapq
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Final
from uuid import UUID

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, NonNegativeInt

from domain.beliefs.embedding import Embedder, Neighbour
from domain.beliefs.fusion import FUSION_POOL, fuse_orders, fusion_weights
from domain.beliefs.records import MemoryRecord
from domain.beliefs.relevance import RELEVANCE_POOL, fuse, query_terms, searched_terms, within
from domain.beliefs.retrieval import (
    DEFAULT_RECALL_LIMIT,
    ConfidenceBand,
    RankingInputs,
    RecalledBelief,
    inputs_expired,
    inputs_horizon,
    inputs_score,
    project,
    ref_id_range,
)
from domain.candidates import ClaimKind, Derivation, Longevity, Sensitivity
from domain.errors import AmbiguousReference, EmbeddingFailed
from domain.owner import Owner
from domain.policy.versions import RETRIEVAL
from domain.ports import UnitOfWork

# recall ranks bare ranking inputs, a page at a time: a few MB per page, one query for most principals.
RANKING_PAGE: Final = 20_000

# (-score, id, inputs): the order rank() gives, ties to the id.
_Ranked = tuple[float, UUID, RankingInputs]


def _rank_page(
    page: Sequence[RankingInputs], now: datetime, best: list[_Ranked], limit: int
) -> tuple[list[_Ranked], int]:
    """Merge one page of live beliefs' inputs into the best limit so far; also counts the expired ones."""
    keyed: list[_Ranked] = []
    hidden = 0
    for inputs in page:
        found = inputs_horizon(inputs)
        if inputs_expired(inputs, found, now):
            hidden += 1
        else:
            keyed.append((-inputs_score(inputs, found, now), inputs.id, inputs))
    return heapq.nsmallest(max(limit, 0), [*best, *keyed]), hidden


class TraceEntry(BaseModel):
    """Content-free: a recall trace names beliefs and their shape, never their statements or scores."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ref: str
    claim_kind: ClaimKind
    derivation: Derivation
    longevity: Longevity
    confidence_band: ConfidenceBand
    last_evidence_at: AwareDatetime
    last_used_at: AwareDatetime | None


class RecallTrace(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    policy: str = RETRIEVAL
    as_of: AwareDatetime
    # How many searchable terms the query had (0: no query, retrieval@3 order alone); never the terms.
    query_terms: NonNegativeInt = 0
    # The model whose vectors the query was compared with; None: no query, or no vector for it.
    embedding_model: str | None = None
    considered: NonNegativeInt
    hidden_expired: NonNegativeInt
    returned: tuple[TraceEntry, ...]


class Recall(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    beliefs: tuple[RecalledBelief, ...]
    trace: RecallTrace
    # The full records of beliefs, in order, for a caller that shows each one's provenance without reading
    # them again; never part of what a recall is rendered or dumped as.
    records: tuple[MemoryRecord, ...] = Field(default=(), exclude=True, repr=False)

    @property
    def returned_ids(self) -> list[UUID]:
        """What the agent hands back in complete_run after its response."""
        return [b.id for b in self.beliefs]


def _ranked(
    uow: UnitOfWork, owner: Owner, now: datetime, limit: int, sensitivities: frozenset[Sensitivity]
) -> tuple[list[RankingInputs], int, int]:
    """retrieval@3 over every live belief: ranks the store's ranking inputs a page at a time (holding at most
    limit + one page of bare tuples); also counts what it considered and hid as expired."""
    best: list[_Ranked] = []
    considered = hidden = 0
    after: UUID | None = None
    while page := uow.beliefs.ranking_page(owner, after, RANKING_PAGE, sensitivities):
        after = page[-1].id
        considered += len(page)
        best, expired = _rank_page(page, now, best, limit)
        hidden += expired
        if len(page) < RANKING_PAGE:
            break
    return [ranked[2] for ranked in best], considered, hidden


def recall(
    uow: UnitOfWork,
    owner: Owner,
    now: datetime,
    limit: int = DEFAULT_RECALL_LIMIT,
    *,
    query: str | None = None,
    ceiling: Sensitivity = Sensitivity.RESTRICTED,
    embedder: Embedder | None = None,
) -> Recall:
    """The owner's top live beliefs at or below ceiling; given a query, in fused order (domain.beliefs.fusion)
    of those near it by meaning (with embedder) and those holding its words. Reads full records of the top
    limit only."""
    sensitivities = within(ceiling)
    terms = query_terms(query or "")
    near, model = _near(uow, owner, query, embedder, max(FUSION_POOL, limit), sensitivities)
    top: list[RankingInputs] = []
    considered = hidden = 0
    if terms or near:
        searched = searched_terms(terms)
        # the words list is its own top limit: deeper places changed no development set's hit@5 and cost
        # the tie-breaks of every group down to them
        matches = (
            uow.beliefs.matching(owner, searched, max(RELEVANCE_POOL, limit), sensitivities) if terms else []
        )
        by_words, hidden = fuse(matches, [term.every for term in searched], now, limit)
        top = fuse_orders(near, by_words, now, limit, weights=fusion_weights(model))
        cut = {m.inputs.id for m in matches if m.by_bound}
        if any(i.id in cut for i in top):
            # a place in the top was decided among a bounded sample of a common term's holders: read them all
            matches = uow.beliefs.matching(
                owner, searched, max(RELEVANCE_POOL, limit), sensitivities, bounded=False
            )
            by_words, hidden = fuse(matches, [term.every for term in searched], now, limit)
            top = fuse_orders(near, by_words, now, limit, weights=fusion_weights(model))
        considered = len(matches) + len(near)
    if not top:
        top, considered, hidden = _ranked(uow, owner, now, limit, sensitivities)
    loaded = {r.id: r for r in uow.beliefs.get_many(owner, [i.id for i in top])}
    # A belief closed between the two reads is left out rather than shown closed.
    records = [loaded[i.id] for i in top if i.id in loaded and loaded[i.id].is_live]
    recalled = tuple(project(r, now) for r in records)
    trace = RecallTrace(
        as_of=now,
        query_terms=len(terms),
        embedding_model=model,
        considered=considered,
        hidden_expired=hidden,
        returned=tuple(
            TraceEntry(
                ref=b.ref,
                claim_kind=b.claim_kind,
                derivation=b.derivation,
                longevity=b.longevity,
                confidence_band=b.confidence_band,
                last_evidence_at=b.last_evidence_at,
                last_used_at=b.last_used_at,
            )
            for b in recalled
        ),
    )
    return Recall(beliefs=recalled, trace=trace, records=tuple(records))


def _near(
    uow: UnitOfWork,
    owner: Owner,
    query: str | None,
    embedder: Embedder | None,
    pool: int,
    sensitivities: frozenset[Sensitivity],
) -> tuple[list[Neighbour], str | None]:
    """The owner's beliefs nearest the query by meaning, and the model compared; none when there is no
    query, no embedder, or the model cannot embed it now (recall then ranks by words)."""
    if embedder is None or not (query and query.strip()):
        return [], None
    try:
        [vector] = embedder.embed([query])
    except EmbeddingFailed:
        return [], None
    return uow.beliefs.nearest(owner, embedder.model, vector, pool, sensitivities), embedder.model


def user_trace_view(trace: RecallTrace) -> dict[str, Any]:
    """What a person may see of a recall: which memories, their shape and clocks in the words of the API's
    memories (api_view), so one memory reads the same in both; no scores, no internals."""
    return {
        "policy": trace.policy,
        "as_of": trace.as_of.isoformat(),
        "memories": [
            {
                "ref": entry.ref,
                "claim_kind": entry.claim_kind.value,
                "derivation": entry.derivation.value,
                "longevity": entry.longevity.value,
                "confidence": entry.confidence_band.value,
                "last_evidence_at": entry.last_evidence_at.isoformat(),
                "last_used_at": entry.last_used_at.isoformat() if entry.last_used_at else None,
            }
            for entry in trace.returned
        ],
    }


def belief_by_reference(uow: UnitOfWork, owner: Owner, reference: str) -> MemoryRecord | None:
    """The owner's belief a full id or an m:xxxxxxxx reference names, read by one primary-key range.

    Raises ValueError for a malformed reference and AmbiguousReference when a short one names two beliefs."""
    first, last = ref_id_range(reference)
    found = uow.beliefs.in_id_range(owner, first, last, 2)
    if len(found) > 1:
        raise AmbiguousReference("that reference names more than one belief; give the full id")
    return found[0] if found else None
