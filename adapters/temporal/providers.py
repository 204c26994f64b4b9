"""Which provider a worker runs with: the shipped memory model, when its SDK key is configured."""

import logging
import os

from adapters.providers.factory import provider_for
from adapters.providers.policy_documents import load_memory_model
from domain.providers import Provider

log = logging.getLogger(__name__)

API_KEY_VARIABLES = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}


def configured_provider(profile: str | None) -> Provider | None:
    """None (deterministic formation, audited as not_configured) unless the model's API key is set."""
    model = load_memory_model(profile)
    variable = API_KEY_VARIABLES.get(model.provider)
    if variable is None or not os.environ.get(variable):
        log.info("no provider configured; stages fall back to deterministic formation")
        return None
    return provider_for(model)
