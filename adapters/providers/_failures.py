"""Shared pieces of both SDK adapters: reading a failure's machine-readable parts, decoding the answer."""

import email.utils
import json
import time
from collections.abc import Mapping
from typing import Any

from domain.formation.stage_schemas import schema_violations
from domain.providers import protocol

_MAX_RETRY_AFTER_S = 3600.0


def retry_after_s(headers: Mapping[str, str] | None) -> float | None:
    """The server's requested pause, so the activity can hand Temporal a next-retry delay."""
    if not headers:
        return None
    millis = headers.get("retry-after-ms")
    if millis:
        try:
            return _bounded(float(millis) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return _bounded(float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return _bounded(when.timestamp() - time.time())


def _bounded(seconds: float) -> float | None:
    if seconds != seconds or seconds < 0:  # NaN or in the past
        return None
    return min(seconds, _MAX_RETRY_AFTER_S)


def provider_error_code(body: object) -> str | None:
    """The provider's machine code (error.code, else error.type); ProviderFailure drops anything not code-shaped."""
    error = body.get("error", body) if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return None
    for key in ("code", "type"):
        value = error.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def decode_document(text: str, json_schema: dict[str, Any]) -> dict[str, Any]:
    """Parse the answer and hold it to the requested schema; a miss is a protocol failure, never a guess."""
    if not text.strip():
        raise protocol("empty_response")
    try:
        document = json.loads(text)
    except ValueError:
        raise protocol("invalid_json") from None
    if not isinstance(document, dict) or schema_violations(document, json_schema):
        raise protocol("schema_mismatch")
    return document


def elapsed_ms(started: float) -> int:
    return max(0, int((time.monotonic() - started) * 1000))
