"""The embedder the settings name."""

from adapters.settings import ConfigurationError, Settings
from domain.beliefs.embedding import Embedder


def require_embedding_credentials(settings: Settings) -> None:
    """Refuse an OpenAI-compatible endpoint that can only refuse: OpenAI itself, with no key. (Recall and
    commits go on without vectors, so nothing else would stop; every embedding page would fail instead.)"""
    if settings.embedding_provider != "openai" or settings.embedding_base_url:
        return
    if settings.embedding_api_key is None and settings.openai_api_key is None:
        raise ConfigurationError(
            "EMBEDDING_PROVIDER=openai with neither EMBEDDING_API_KEY nor OPENAI_API_KEY set: set one, or "
            "EMBEDDING_BASE_URL for a compatible server that takes no key"
        )


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
