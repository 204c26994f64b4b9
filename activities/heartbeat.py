"""Heartbeats for sync activities whose work blocks (a provider call, a transaction).

A thread beside the activity's own heartbeats on a fixed beat while the body runs, so the server can tell
a live worker from a lost one within the activity's heartbeat timeout instead of its start-to-close
timeout. The first beat waits FIRST_BEAT_S: each beat the SDK forwards is a write to the workflow's state on
the server, and a stage that ends before it (a provider answering within 3 s) needs none to be told from
a lost one.
Outside an activity (tests calling the methods directly) and in a local activity (no heartbeats: its workflow
task's timeout tells a lost worker) it does nothing.
"""

import contextvars
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from temporalio import activity

# Well below every heartbeat timeout in workflows/policies.py (8 s); the SDK throttles what it sends to one
# beat per 0.8 x that timeout, so after a first beat at 3 s the next reaches the server by about 9.4 s.
FIRST_BEAT_S: Final = 3.0
BEAT_S: Final = 1.0


@contextmanager
def heartbeating() -> Iterator[None]:
    if not activity.in_activity() or activity.info().is_local:
        yield
        return
    stop = threading.Event()
    # The activity's context travels with the copy, so activity.heartbeat() works from the beat thread.
    context = contextvars.copy_context()

    def beat() -> None:
        wait = FIRST_BEAT_S
        while not stop.wait(wait):
            activity.heartbeat()
            wait = BEAT_S

    thread = threading.Thread(target=context.run, args=(beat,), name="activity-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
