"""Recall by meaning: the embedding port, what of a belief is embedded, and the work of embedding it.

A belief's vector is computed outside any transaction, after the belief is committed (an activity after the
commit, or `agent memory embed`): an embedding never blocks or fails a commit, and a belief without a
vector is recallable by its words at once. A vector is stored with the identity of the model that made it;
recall compares the query's vector only with vectors of the same model (the stores filter by it), and a
belief whose subject or statement changes loses its vector until it is embedded again.
"""

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, NamedTuple, Protocol
from uuid import UUID

from domain.beliefs.retrieval import RankingInputs
from domain.owner import Owner

if TYPE_CHECKING:  # the ports name this module's values
    from domain.ports import UnitOfWorkFactory

# Beliefs embedded per provider call and per short write: a page of the primary key.
EMBED_PAGE: Final = 256


class Embedder(Protocol):
    """Text in, unit vectors out (cosine similarity is their dot product)."""

    @property
    def model(self) -> str:
        """The model's identity as stored beside each vector ("wordllama/l2_supercat_256")."""
        ...

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit vector of dimension floats per text, in order."""
        ...


class PendingEmbedding(NamedTuple):
    """A live belief with no vector of the wanted model: its id, owner and the text its vector is made of."""

    id: UUID
    owner: Owner
    subject: str
    statement: str


class Neighbour(NamedTuple):
    """A live belief near a query vector: its ranking inputs and cosine similarity."""

    inputs: RankingInputs
    similarity: float


def embedded_text(subject: str, statement: str) -> str:
    """What a belief's vector is made of: its statement, then its subject's words ("pet:dog" says "pet dog"),
    which name what the statement is about when the statement does not."""
    return f"{statement} {subject.replace(':', ' ').replace('-', ' ').replace('_', ' ')}"


class EmbeddedPage(NamedTuple):
    """What one page of embedding did: beliefs read, vectors stored, and the last id read (the cursor)."""

    read: int
    stored: int
    last_id: UUID | None


def embed_page(
    session: "UnitOfWorkFactory",
    embedder: Embedder,
    after_id: UUID | None,
    page: int = EMBED_PAGE,
    owner: Owner | None = None,
) -> EmbeddedPage:
    """Embeds one page of the live beliefs (of owner, or of everyone) after after_id lacking a vector of
    embedder's model: reads the page in one short unit of work, calls the model with no transaction open,
    stores the vectors in another, only where the belief still says what was embedded."""
    with session() as uow:
        work = uow.beliefs.pending_embeddings(embedder.model, after_id, page, owner)
    if not work:
        return EmbeddedPage(0, 0, None)
    vectors = embedder.embed([embedded_text(w.subject, w.statement) for w in work])
    with session() as uow:
        stored = uow.beliefs.store_embeddings(embedder.model, list(zip(work, vectors, strict=True)))
        uow.commit()
    return EmbeddedPage(len(work), stored, work[-1].id)


def embed_pending(
    session: "UnitOfWorkFactory",
    embedder: Embedder,
    owner: Owner | None = None,
    *,
    page: int = EMBED_PAGE,
    progress: Callable[[int], None] = lambda read: None,
) -> int:
    """Embeds every live belief (of owner, or of everyone) lacking a vector of embedder's model, a page of the
    primary key at a time (embed_page). Resumable: what a crash leaves undone is still pending. Returns how
    many vectors were stored."""
    stored, after_id = 0, None
    while True:
        done = embed_page(session, embedder, after_id, page, owner)
        stored += done.stored
        progress(done.read)
        if done.read < page:
            return stored
        after_id = done.last_id
