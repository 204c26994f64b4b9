"""embed_page: one page of beliefs embedded after their commit (the embedding backfill's step).

The model is called outside any transaction (domain.beliefs.embedding.embed_page); a failure of the model
fails the attempt, which Temporal retries, while the beliefs stay recallable by their words.
"""

import logging
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt
from temporalio import activity

from domain.beliefs.embedding import EMBED_PAGE, Embedder, embed_page
from domain.ports import UnitOfWorkFactory

log = logging.getLogger(__name__)


class EmbedPageInput(BaseModel):
    """A cursor and a size: no statement ever enters the history."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    after: UUID | None = None
    limit: int = Field(default=EMBED_PAGE, ge=1, le=2_048)


class EmbedPageResult(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    read: NonNegativeInt
    stored: NonNegativeInt
    next_after: UUID | None
    done: bool


class EmbeddingActivities:
    def __init__(self, uow_factory: UnitOfWorkFactory, embedder: Embedder | None) -> None:
        self._uow = uow_factory
        self._embedder = embedder

    @activity.defn(name="embed_page")
    def embed_page(self, params: EmbedPageInput) -> EmbedPageResult:
        if self._embedder is None:  # a worker built without an embedder has nothing to do
            return EmbedPageResult(read=0, stored=0, next_after=None, done=True)
        page = embed_page(self._uow, self._embedder, params.after, params.limit)
        log.info(
            "embedding page",
            extra={"model": self._embedder.model, "read": page.read, "stored": page.stored},
        )
        return EmbedPageResult(
            read=page.read, stored=page.stored, next_after=page.last_id, done=page.read < params.limit
        )
