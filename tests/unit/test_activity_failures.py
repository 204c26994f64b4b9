"""An activity's failure, as the worker logs it and the Temporal UI shows it: its class, where it was raised
and the normalized reason it carries by design; never its message."""

import pytest

from adapters.temporal.failures import content_free
from domain.errors import EmbeddingFailed, WrongSchemaRevision


def raised(error: Exception) -> Exception:
    try:
        raise error
    except Exception as caught:
        return caught


@pytest.mark.parametrize(
    ("error", "reason", "retryable"),
    [
        # An embeddings endpoint without a key: the operator must see which failure, not only its class.
        (EmbeddingFailed("AuthenticationError"), "(AuthenticationError)", True),
        (WrongSchemaRevision("database schema is at revision none"), "(wrong_schema_revision)", False),
    ],
)
def test_the_normalized_reason_an_error_carries_is_kept(
    error: Exception, reason: str, retryable: bool
) -> None:
    failure = content_free(raised(error))
    assert failure.message.startswith(f"{type(error).__name__} {reason} at "), failure.message
    assert failure.non_retryable is not retryable


def test_a_message_is_withheld() -> None:
    failure = content_free(raised(ValueError("Failing row contains (I am vegetarian)")))
    assert "vegetarian" not in failure.message and "message withheld" in failure.message
    assert failure.type == "ValueError" and failure.non_retryable
