"""Telling a poisoned segment from any other failure, on the workflow side.

The worker's ContentFreeActivityFailures interceptor marks a deterministic activity failure non-retryable
and names it by class only. Such a failure is the one way a FormSegment child or load_batch fails (every
other activity failure is retried until it succeeds), and it would fail the same way again: the session
quarantines the segment instead of failing or looping. store_local runs the short store steps as local
activities, whose failures arrive without the ActivityError that names a scheduled one, and names them.
"""

from collections.abc import Callable
from typing import TypeVar

from temporalio import workflow
from temporalio.exceptions import ActivityError, ApplicationError

from activities.contracts import Poison
from workflows.policies import INFRASTRUCTURE_RETRY, LOCAL_RETRY_THRESHOLD, LOCAL_STORE_START_TO_CLOSE

Activities = TypeVar("Activities")
In = TypeVar("In")
Out = TypeVar("Out")


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


async def store_local(activity: Callable[[Activities, In], Out], arg: In) -> Out:
    """A short store-only step (load_batch, advance_watermark, commit_segment) as a local activity, bounded
    so that an outage never holds the task. Its deterministic failure is raised named, as a scheduled
    activity's would be, so poison_of finds it."""
    try:
        return await workflow.execute_local_activity_method(
            activity,
            arg,
            start_to_close_timeout=LOCAL_STORE_START_TO_CLOSE,
            local_retry_threshold=LOCAL_RETRY_THRESHOLD,
            retry_policy=INFRASTRUCTURE_RETRY,
        )
    except ApplicationError as failure:
        raise naming_local_activity(failure, activity.__name__) from failure
