"""The API's refusals as exceptions: each carries the HTTP status and the API's reason code."""

from typing import Any


class MemoryApiError(Exception):
    """A refused call: status (HTTP), reason (the API's reason code, e.g. unauthenticated,
    user_id_required, all_refused, not_found) and the error's other details (refused elements, fields)."""

    def __init__(self, status: int, reason: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {reason}")
        self.status = status
        self.reason = reason
        self.details = details or {}


class ConsolidationTimeout(MemoryApiError):
    """consolidate(wait=True) ran out of time while the session's consolidation was still running."""
