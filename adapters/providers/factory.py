"""Builds the configured provider for a memory model tuple; the effort check runs before any call."""

from adapters.providers.anthropic_provider import AnthropicProvider
from adapters.providers.openai_provider import OpenAIProvider
from domain.model_policy import MemoryModel
from domain.providers import Provider


def provider_for(model: MemoryModel, *, api_key: str | None = None) -> Provider:
    """API keys default to the SDKs' own environment variables (OPENAI_API_KEY, ANTHROPIC_API_KEY)."""
    model.validate_effort()
    if model.provider == "openai":
        return OpenAIProvider(model, api_key=api_key)
    if model.provider == "anthropic":
        return AnthropicProvider(model, api_key=api_key)
    raise ValueError("the scripted profile answers from fixtures: construct ScriptedProvider with a script")
