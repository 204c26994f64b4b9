"""Telling a poisoned segment from any other failure, on the workflow side.

The worker's ContentFreeActivityFailures interceptor marks a deterministic activity failure non-retryable
and names it by class only. Such a failure is the one way a FormSegment child or load_batch fails (every
other activity failure is retried until it succeeds), and it would fail the same way again: the session
quarantines the segment instead of failing or looping.
"""

from temporalio.exceptions import ActivityError, ApplicationError

from activities.contracts import Poison


def poison_of(error: BaseException) -> Poison | None:
    """The activity and error class of a non-retryable activity failure in error's cause chain, or None
    (a cancellation, a termination, a timeout: not a property of the input)."""
    activity = "unknown"
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, ActivityError):
            activity = cause.activity_type
        elif isinstance(cause, ApplicationError):
            return (
                Poison(activity=activity, failure_type=cause.type or "unknown")
                if cause.non_retryable
                else None
            )
        cause = cause.__cause__
    return None


def naming_local_activity(failure: ApplicationError, activity: str) -> ActivityError:
    """A local activity's failure reaches its workflow bare, without the ActivityError that names a scheduled
    activity's; raised from this one instead, it names the activity wherever poison_of reads it."""
    named = ActivityError(
        f"{activity} failed",
        scheduled_event_id=0,
        started_event_id=0,
        identity="",
        activity_type=activity,
        activity_id="",
        retry_state=None,
    )
    named.__cause__ = failure
    return named
