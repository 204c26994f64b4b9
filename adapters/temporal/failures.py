"""Activity failures leave the worker without their messages.

Temporal records a failed attempt's message and stack trace in the workflow history (and the worker logs
it), where operators read it in the UI. A driver or validation error can quote what it choked on: a
PostgreSQL "Failing row contains (...)" detail, a pydantic input, a statement. So an activity's exception
is replaced by one naming only its class and where it was raised; the class stays the failure's type, so
retry policies (non-retryable types) decide exactly as before.

A deterministic failure (a domain refusal, a value that does not validate or that the store cannot hold)
is marked non-retryable here, in one place: it gives the same answer on every attempt, so the session
workflow quarantines the segment instead of retrying it forever. Everything else (a lost connection, a
database restart, a bug fixed by a redeploy) keeps its retries.
"""

import traceback
from typing import Any

from sqlalchemy.exc import DataError
from temporalio.exceptions import ApplicationError, FailureError
from temporalio.worker import (
    ActivityInboundInterceptor,
    ExecuteActivityInput,
    Interceptor,
)

from domain.errors import DomainError, EmbeddingFailed

# ValueError covers pydantic's ValidationError and UnicodeError; ArithmeticError an OverflowError in date
# arithmetic; DataError a value PostgreSQL refuses (out of range, NUL, bad encoding).
DETERMINISTIC_ERRORS = (DomainError, ValueError, ArithmeticError, DataError)


class ContentFreeActivityFailures(Interceptor):
    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        return _ContentFreeInbound(next)


class _ContentFreeInbound(ActivityInboundInterceptor):
    async def execute_activity(self, input: ExecuteActivityInput) -> Any:
        try:
            return await self.next.execute_activity(input)
        except FailureError:
            # Temporal's own (cancellation, an ApplicationError raised on purpose): already deliberate.
            raise
        except Exception as error:
            raise content_free(error) from None


def content_free(error: Exception) -> ApplicationError:
    """The error's class, its normalized reason code if it has one, and the innermost frame it came from;
    never its message or arguments."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {frames[-1].filename}:{frames[-1].lineno} in {frames[-1].name}" if frames else ""
    kind = type(error).__name__
    reason = _normalized_reason(error)
    return ApplicationError(
        f"{kind}{f' ({reason})' if reason else ''}{where} (message withheld: it may quote stored content)",
        type=kind,
        non_retryable=isinstance(error, DETERMINISTIC_ERRORS),
    )


def _normalized_reason(error: Exception) -> str | None:
    """The reason an error carries by design as a fixed code, never text it was given: what tells an
    operator a missing key from an endpoint that is down, or which refusal it was."""
    if isinstance(error, DomainError):
        return error.reason_code
    if isinstance(error, EmbeddingFailed):
        return error.failure_class
    return None
