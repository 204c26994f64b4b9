"""Telling a poisoned segment from any other failure, on the workflow side.

The worker's ContentFreeActivityFailures interceptor marks a deterministic activity failure non-retryable
and names it by class only. Such a failure is the one way a FormSegment child or load_batch fails (every
other activity failure is retried until it succeeds), and it would fail the same way again: the session
quarantines the segment instead of failing or looping. store_local runs the short store steps as local
activities, whose failures arrive without the ActivityError that names a scheduled one, and names them.
"""

from collections.abc import Awaitable, Callable
from typing import Final, TypeVar

from temporalio import workflow
from temporalio.exceptions import ActivityError, ApplicationError, TimeoutError, TimeoutType

from activities.contracts import Poison
from workflows.policies import (
    INFRASTRUCTURE_RETRY,
    LOCAL_OUTAGE_WAIT,
    LOCAL_RETRY_THRESHOLD,
    LOCAL_STEP_RETRY,
    LOCAL_STORE_START_TO_CLOSE,
    MAX_TIMED_OUT_ATTEMPTS,
)

# The reason code of a segment quarantined because one of its steps overran its time bound on every attempt.
STEP_TIMED_OUT: Final = "StepTimedOut"

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


def timed_out(error: BaseException) -> bool:
    """Whether error's cause chain ends an attempt at its start-to-close timeout."""
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, TimeoutError):
            return cause.type is TimeoutType.START_TO_CLOSE
        cause = cause.__cause__
    return False


async def within_time_bound(run: Callable[[], Awaitable[Out]], activity_name: str) -> Out:
    """Run a deterministic step whose start-to-close timeouts reach the workflow (policies.STEP_RETRY) at
    most MAX_TIMED_OUT_ATTEMPTS times; after the last, the step fails as poison (STEP_TIMED_OUT), so its
    segment is quarantined and can be released instead of being retried forever."""
    for _ in range(MAX_TIMED_OUT_ATTEMPTS):
        try:
            return await run()
        except (ActivityError, TimeoutError) as failure:
            if not timed_out(failure):
                raise
            workflow.logger.warning("step overran its time bound", extra={"activity": activity_name})
    raise naming_local_activity(
        ApplicationError(
            f"{activity_name} overran its time bound {MAX_TIMED_OUT_ATTEMPTS} times",
            type=STEP_TIMED_OUT,
            non_retryable=True,
        ),
        activity_name,
    )


async def bounded_store_local(activity: Callable[[Activities, In], Out], arg: In) -> Out:
    """store_local for a step whose time bound is a property of its input (the commit): its timeouts are
    counted by within_time_bound; an outage past the bounded local attempts waits on a timer and goes
    round again, as unbounded as store_local's retries."""

    async def attempt() -> Out:
        while True:
            try:
                return await workflow.execute_local_activity_method(
                    activity,
                    arg,
                    start_to_close_timeout=LOCAL_STORE_START_TO_CLOSE,
                    local_retry_threshold=LOCAL_RETRY_THRESHOLD,
                    retry_policy=LOCAL_STEP_RETRY,
                )
            except ApplicationError as failure:
                if failure.non_retryable:
                    raise naming_local_activity(failure, activity.__name__) from failure
                await workflow.sleep(LOCAL_OUTAGE_WAIT)

    return await within_time_bound(attempt, activity.__name__)
