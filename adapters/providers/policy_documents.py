"""Loads the shipped memory-model policy document into domain values."""

from importlib import resources
from typing import Final

import yaml

from domain.policy.model_policy import MemoryModel, MemoryModelPolicy, compiled_policy_version

POLICY_PACKAGE: Final = "adapters.providers.policy"
MEMORY_MODEL_DOCUMENT: Final = "memory-model.yaml"
_DOCUMENT_SUFFIXES: Final = (".yaml", ".yml", ".json")


def shipped_documents() -> dict[str, bytes]:
    """Every policy document shipped in the policy package, by file name, as exact bytes."""
    root = resources.files(POLICY_PACKAGE)
    return {
        entry.name: entry.read_bytes()
        for entry in root.iterdir()
        if entry.is_file() and entry.name.endswith(_DOCUMENT_SUFFIXES)
    }


def shipped_policy_version() -> str:
    return compiled_policy_version(shipped_documents())


def parse_memory_model_policy(document: bytes) -> MemoryModelPolicy:
    data = yaml.safe_load(document)
    if not isinstance(data, dict):
        raise ValueError(f"{MEMORY_MODEL_DOCUMENT} must hold a mapping")
    return MemoryModelPolicy.model_validate(data)


def load_memory_model_policy() -> MemoryModelPolicy:
    return parse_memory_model_policy(shipped_documents()[MEMORY_MODEL_DOCUMENT])


def load_memory_model(profile: str | None = None) -> MemoryModel:
    """The configured tuple, effort already checked: a worker calls this before it starts."""
    model = load_memory_model_policy().profile(profile)
    model.validate_effort()
    return model
