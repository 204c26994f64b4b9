"""The bundled embedding model loads from its wheel's own files and embeds with no network at all."""

import logging
import math
import socket
import subprocess
import sys

import pytest

from adapters.embeddings.wordllama_embedder import DIMENSION, MODEL, WordLlamaEmbedder
from tests.unit.conftest import NetworkUsed


def test_the_guard_catches_a_connection() -> None:
    """The guard itself works: with it, opening a connection fails (so a load that passes used none)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socket, "create_connection", lambda *a, **k: (_ for _ in ()).throw(NetworkUsed("x")))
        with pytest.raises(NetworkUsed):
            socket.create_connection(("127.0.0.1", 9))


def test_loads_and_embeds_without_the_network(no_network: None) -> None:
    embedder = WordLlamaEmbedder()
    vectors = embedder.embed(["User is vegetarian.", "any dietary restrictions?", "User drives a Prius."])
    assert embedder.model == MODEL
    assert [len(v) for v in vectors] == [DIMENSION] * 3
    assert all(math.isclose(sum(x * x for x in v), 1.0, rel_tol=1e-5) for v in vectors)

    def cosine(a: list[float], b: list[float]) -> float:
        return sum(x * y for x, y in zip(a, b, strict=True))

    # meaning, not words: the diet question is nearer the diet statement than the car one
    assert cosine(vectors[1], vectors[0]) > cosine(vectors[1], vectors[2])
    assert embedder.embed([]) == []


def test_loading_the_model_leaves_the_process_logging_alone() -> None:
    # wordllama configures the root logger at import; a fresh interpreter shows whether the adapter undoes it.
    probe = (
        "import logging, adapters.embeddings.wordllama_embedder as w; w.WordLlamaEmbedder();"
        "root = logging.getLogger(); print(len(root.handlers), root.level)"
    )
    said = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert said.stdout.split() == ["0", str(logging.WARNING)]
