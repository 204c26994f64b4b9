"""Heartbeats for sync activities whose work blocks (a provider call, a transaction).

A thread beside the activity's own heartbeats on a fixed beat while the body runs, so the server can tell
a live worker from a lost one within the activity's heartbeat timeout instead of its start-to-close
timeout. Outside an activity (tests calling the methods directly) it does nothing.
"""

import contextvars
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from temporalio import activity

# Well below every heartbeat timeout in workflows/policies.py; the SDK throttles what it sends.
BEAT_S: Final = 1.0


@contextmanager
def heartbeating() -> Iterator[None]:
    if not activity.in_activity():
        yield
        return
    stop = threading.Event()
    # The activity's context travels with the copy, so activity.heartbeat() works from the beat thread.
    context = contextvars.copy_context()

    def beat() -> None:
        while not stop.wait(BEAT_S):
            activity.heartbeat()

    thread = threading.Thread(target=context.run, args=(beat,), name="activity-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
