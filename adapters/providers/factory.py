"""Builds the configured provider for a memory model tuple; the effort check runs before any call."""

from domain.policy.model_policy import MemoryModel
from domain.providers import Provider


def provider_for(model: MemoryModel, *, api_key: str | None = None) -> Provider:
    """API keys default to the SDKs' own environment variables (OPENAI_API_KEY, ANTHROPIC_API_KEY)."""
    model.validate_effort()
    # Each SDK is imported only when its provider is built: importing both costs every `agent` command
    # (even --help) over a second, and a worker needs one of them at most.
    if model.provider == "openai":
        from adapters.providers.openai_provider import OpenAIProvider

        return OpenAIProvider(model, api_key=api_key)
    if model.provider == "anthropic":
        from adapters.providers.anthropic_provider import AnthropicProvider

        return AnthropicProvider(model, api_key=api_key)
    raise ValueError("the scripted profile answers from fixtures: construct ScriptedProvider with a script")
