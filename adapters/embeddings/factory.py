"""The embedder the settings name."""

from adapters.settings import Settings
from domain.beliefs.embedding import Embedder


def embedder_for(settings: Settings, model: str | None = None) -> Embedder:
    """The configured embedder; model, when given, replaces the endpoint's model name (embedding_provider
    openai; the local models have one model each)."""
    if settings.embedding_provider == "openai":
        from adapters.embeddings.openai_embedder import OpenAIEmbedder

        key = settings.embedding_api_key or settings.openai_api_key
        return OpenAIEmbedder(
            model or settings.embedding_model,
            settings.embedding_dimension,
            api_key=key.get_secret_value() if key else None,
            base_url=settings.embedding_base_url,
        )
    if settings.embedding_provider == "minilm":
        from adapters.embeddings import minilm_embedder

        _one_model(model, minilm_embedder.MODEL, "minilm")
        return minilm_embedder.MiniLMEmbedder()
    from adapters.embeddings import wordllama_embedder

    _one_model(model, wordllama_embedder.MODEL, "wordllama")
    return wordllama_embedder.WordLlamaEmbedder()


def _one_model(asked: str | None, model: str, provider: str) -> None:
    if asked not in (None, model, provider):
        raise ValueError(
            f"the {provider} embedder has one model, {model}; set EMBEDDING_PROVIDER=openai for others"
        )
