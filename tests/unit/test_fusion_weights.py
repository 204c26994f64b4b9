"""The fusion's weights follow the model that found the nearest: words weigh twice meaning with the bundled
static model, as much as meaning with all-MiniLM-L6-v2 (docs/evaluation/recall-by-meaning.md)."""

from datetime import timedelta

from adapters.embeddings import minilm_embedder, wordllama_embedder
from domain.beliefs.embedding import Neighbour
from domain.beliefs.fusion import fuse_orders, fusion_weights
from domain.beliefs.retrieval import ranking_inputs
from tests.builders import T0, belief

NOW = T0 + timedelta(days=1)


def _order(model: str | None) -> list[str]:
    first_by_meaning, in_both, second_by_words = (
        ranking_inputs(belief(statement=s)) for s in ("meaning", "both", "words")
    )
    near = [Neighbour(first_by_meaning, 0.9), Neighbour(in_both, 0.8)]
    by_words = [in_both, second_by_words]
    fused = fuse_orders(near, by_words, NOW, 3, weights=fusion_weights(model))
    by_id = {
        i.id: s for i, s in ((first_by_meaning, "meaning"), (in_both, "both"), (second_by_words, "words"))
    }
    return [by_id[i.id] for i in fused]


def test_with_the_bundled_model_a_second_place_by_words_beats_a_first_by_meaning() -> None:
    # 2/(5+2) = 0.286 against 1/(5+1) = 0.167
    assert _order(wordllama_embedder.MODEL) == ["both", "words", "meaning"]
    assert _order(None) == ["both", "words", "meaning"]


def test_with_minilm_a_first_place_by_meaning_beats_a_second_by_words() -> None:
    # 1/(5+1) = 0.167 against 1/(5+2) = 0.143
    assert _order(minilm_embedder.MODEL) == ["both", "meaning", "words"]
