"""Timeouts and retry policies of every activity and child, as named constants.

Stage activities wrap one provider call whose own timeout is 120 s, so they get 150 s to close. A provider
failure never fails a stage activity (the stage falls back and reports the failure class), so any activity
failure Temporal sees is infrastructure (database, network, a killed worker) and is retried until it
succeeds: a restart delays memory, it never drops it. Errors that cannot heal by retrying (the worker's
failure interceptor marks every deterministic one non-retryable; the classes below stay listed for
callers without it) fail at once, and the session quarantines their segment instead of looping.
"""

from datetime import timedelta
from typing import Final

from temporalio.common import RetryPolicy

# Not retried: a bug or a contract violation gives the same answer on every attempt.
NON_RETRYABLE_ERRORS: Final = [
    "ValidationError",
    "ScopeViolation",
    "EventConflict",
    "WrongSchemaRevision",
]

INFRASTRUCTURE_RETRY: Final = RetryPolicy(
    initial_interval=timedelta(seconds=1),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(seconds=30),
    maximum_attempts=0,
    non_retryable_error_types=NON_RETRYABLE_ERRORS,
)

# A deterministic step (a stage, a commit) that overruns its start-to-close timeout would overrun it on every
# attempt: the server does not retry that timeout, the workflow counts it (workflows/poison.py:
# within_time_bound) and quarantines the segment after MAX_TIMED_OUT_ATTEMPTS. Every other failure keeps
# INFRASTRUCTURE_RETRY's unbounded retries (a heartbeat timeout is a lost worker: retried too).
START_TO_CLOSE_TIMEOUT_TYPE: Final = "TemporalTimeout:StartToClose"
MAX_TIMED_OUT_ATTEMPTS: Final = 3
STEP_RETRY: Final = RetryPolicy(
    initial_interval=timedelta(seconds=1),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(seconds=30),
    maximum_attempts=0,
    non_retryable_error_types=[*NON_RETRYABLE_ERRORS, START_TO_CLOSE_TIMEOUT_TYPE],
)
# A local step's retries run in the SDK, which retries its timeouts whatever the policy names: its attempts
# are bounded instead, and the workflow tells a timeout from an outage by the last attempt's failure
# (an outage waits LOCAL_OUTAGE_WAIT on a timer and goes round again, unbounded).
LOCAL_STEP_RETRY: Final = RetryPolicy(
    initial_interval=timedelta(seconds=1),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(seconds=30),
    maximum_attempts=4,
    non_retryable_error_types=NON_RETRYABLE_ERRORS,
)
LOCAL_OUTAGE_WAIT: Final = timedelta(seconds=30)

# One short unit of work; a killed worker's attempt is retried after this.
STORE_START_TO_CLOSE: Final = timedelta(seconds=30)
# A local activity runs inside its workflow task (10 s timeout): one attempt ends well before that, and a
# retry that would wait longer than the threshold waits on a durable timer instead, in a later workflow task.
# A database outage then costs a timer per attempt, not a workflow task held open for as long as it lasts.
LOCAL_STORE_START_TO_CLOSE: Final = timedelta(seconds=5)
LOCAL_RETRY_THRESHOLD: Final = timedelta(seconds=2)
# Provider timeout (120 s) plus reading the segment and staging the document.
PROVIDER_STAGE_START_TO_CLOSE: Final = timedelta(seconds=150)
# A commit is one transaction over one segment's staged documents.
COMMIT_START_TO_CLOSE: Final = timedelta(seconds=30)
# Stage and commit activities heartbeat every second while they run (the SDK forwards at most one beat per
# 0.8 x this): a worker lost mid-stage is noticed after this, not after the start-to-close timeout, and its
# activity is retried on another worker. Short, because every session in flight on a lost worker waits it.
HEARTBEAT_TIMEOUT: Final = timedelta(seconds=8)
# A retirement page is one transaction of at most 10,000 rows: about half a second at 1M beliefs, so two
# minutes is only reached by a database in trouble.
SWEEP_PAGE_START_TO_CLOSE: Final = timedelta(minutes=2)

# Continue-as-new well below Temporal's 10,240-event warning; a round adds about 8 events per segment.
HISTORY_EVENT_BUDGET: Final = 2_000
# One page of embeddings: a model call for 256 short texts (a remote endpoint's own timeout is 30 s) and a
# short write.
EMBED_PAGE_START_TO_CLOSE: Final = timedelta(minutes=2)
