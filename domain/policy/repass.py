"""The bounded provider re-pass after a retryable fallback: how often and how long to wait.

The attempt limit and backoff are the provider control's own (formation@8's), so an outage is retried the
way a provider call is, just on durable timers instead of inside one consolidation."""

from datetime import timedelta
from enum import StrEnum
from typing import Final

from domain.telemetry import FailureClass

PROVIDER_MAX_ATTEMPTS: Final = 5
PROVIDER_INITIAL_BACKOFF: Final = timedelta(minutes=1)
PROVIDER_BACKOFF_COEFFICIENT: Final = 4.0
PROVIDER_MAX_BACKOFF: Final = timedelta(hours=6)


class RepassState(StrEnum):
    PENDING = "pending"
    WAITING = "waiting"
    SUCCEEDED = "succeeded"
    ABANDONED = "abandoned"
    EXHAUSTED = "exhausted"


def backoff(attempt: int, initial: timedelta = PROVIDER_INITIAL_BACKOFF) -> timedelta:
    """The wait before attempt n (1-based): the first attempt waits too, because the outage just happened.

    `initial` is the first wait (an operator setting); the coefficient and the cap are the provider
    control's."""
    seconds = initial.total_seconds() * PROVIDER_BACKOFF_COEFFICIENT ** (attempt - 1)
    return min(timedelta(seconds=seconds), PROVIDER_MAX_BACKOFF)


def attempt_verdict(failures: list[FailureClass | None]) -> RepassState | None:
    """None: every stage answered, commit. Otherwise what the failures mean for the re-pass."""
    present = [f for f in failures if f is not None]
    if not present:
        return None
    if all(f is FailureClass.TRANSIENT for f in present):
        return RepassState.WAITING
    # A permanent, protocol or structural failure will fail the same way again: stop at once.
    return RepassState.ABANDONED
