"""The embedder the settings name."""

from adapters.settings import Settings
from domain.beliefs.embedding import Embedder


def embedder_for(settings: Settings, model: str | None = None) -> Embedder:
    """The configured embedder; model, when given, replaces the endpoint's model name (embedding_provider
    openai; the bundled model has one model only)."""
    if settings.embedding_provider == "openai":
        from adapters.embeddings.openai_embedder import OpenAIEmbedder

        key = settings.embedding_api_key or settings.openai_api_key
        return OpenAIEmbedder(
            model or settings.embedding_model,
            settings.embedding_dimension,
            api_key=key.get_secret_value() if key else None,
            base_url=settings.embedding_base_url,
        )
    from adapters.embeddings.wordllama_embedder import MODEL, WordLlamaEmbedder

    if model not in (None, MODEL, "wordllama"):
        raise ValueError(
            f"the bundled embedder has one model, {MODEL}; set EMBEDDING_PROVIDER=openai for others"
        )
    return WordLlamaEmbedder()
