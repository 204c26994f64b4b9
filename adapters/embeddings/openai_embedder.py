"""Embeddings from OpenAI (text-embedding-3-small by default) or any OpenAI-compatible server (vLLM, Ollama,
text-embeddings-inference) by base URL, through the official SDK, with the dimension configured.

The model's identity as stored beside a vector names the endpoint's model and dimension
("openai/text-embedding-3-small@256"), so vectors of another model or dimension are never compared. The
vectors are normalised here: not every compatible server returns unit vectors.
"""

import math
from collections.abc import Sequence

import openai

from domain.errors import EmbeddingFailed


class OpenAIEmbedder:
    def __init__(
        self,
        model: str,
        dimension: int,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        send_dimensions: bool = True,
        timeout: float = 30.0,
        max_retries: int = 2,
        client: openai.OpenAI | None = None,
    ) -> None:
        self._model = model
        self._dimension = dimension
        # text-embedding-3 models shorten their vectors to the asked dimension; a server that cannot takes none
        self._send_dimensions = send_dimensions
        self._client = client or openai.OpenAI(
            api_key=api_key or "unused", base_url=base_url, timeout=timeout, max_retries=max_retries
        )

    @property
    def model(self) -> str:
        return f"openai/{self._model}@{self._dimension}"

    @property
    def dimension(self) -> int:
        return self._dimension

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        try:
            response = self._client.embeddings.create(
                model=self._model,
                input=list(texts),
                encoding_format="float",
                dimensions=self._dimension if self._send_dimensions else openai.omit,
            )
        except openai.OpenAIError as failure:
            raise EmbeddingFailed(type(failure).__name__) from failure
        ordered = sorted(response.data, key=lambda item: item.index)
        if len(ordered) != len(texts) or any(len(item.embedding) != self._dimension for item in ordered):
            raise EmbeddingFailed("wrong_shape")
        return [_unit(item.embedding) for item in ordered]


def _unit(vector: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector]
