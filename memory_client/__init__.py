"""A Python client for the memory service's HTTP API (httpx and pydantic only)."""

from memory_client.client import AsyncMemoryClient, MemoryClient
from memory_client.errors import ConsolidationTimeout, MemoryApiError

__all__ = ["AsyncMemoryClient", "ConsolidationTimeout", "MemoryApiError", "MemoryClient"]
