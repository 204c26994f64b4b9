"""The worker's log lines: one line per record, its content-free context appended as logfmt `key=value`.

Activities and workflows log a short message and put what an operator needs (counts, sequence numbers,
stage, failure class) in `extra`; a plain format string would drop all of it. A record logged inside an
activity also names its workflow id, activity type and attempt, so a line can be found in the Temporal UI.
The SDK's own workflow and activity loggers already append that context to the message; their
`temporal_*` extras are not repeated. Values are ids, counts and classes only: no log call passes text.
"""

import json
import logging
from collections.abc import Mapping
from typing import Final

from temporalio import activity

LOG_FORMAT: Final = "%(asctime)s %(levelname)s %(name)s %(message)s"
# Every attribute a LogRecord has before `extra` is applied; the rest is the caller's context.
_RECORD_FIELDS: Final = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
}
_SDK_CONTEXT_PREFIX: Final = "temporal_"


def _logfmt(value: object) -> str:
    rendered = str(value)
    if not rendered or any(c.isspace() or c in '"=' for c in rendered):
        return json.dumps(rendered)
    return rendered


class ContextFormatter(logging.Formatter):
    """The format string, then every `extra` of the record as `key=value`, before any traceback."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        line = super().formatMessage(record)
        context = [
            pair
            for key, value in vars(record).items()
            if key not in _RECORD_FIELDS and not key.startswith(_SDK_CONTEXT_PREFIX)
            for pair in _pairs(key, value)
        ]
        return " ".join([line, *context])


def _pairs(key: str, value: object) -> list[str]:
    """`key=value`; a mapping (an audit's details) as one `key.field=value` pair per field."""
    if isinstance(value, Mapping):
        return [pair for field, inner in value.items() for pair in _pairs(f"{key}.{field}", inner)]
    return [f"{key}={_logfmt(value)}"]


class ActivityContext(logging.Filter):
    """Names the activity a record was logged in (for module loggers, which the SDK does not decorate)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if activity.in_activity() and not hasattr(record, f"{_SDK_CONTEXT_PREFIX}activity"):
            info = activity.info()
            record.workflow_id = info.workflow_id
            record.activity = info.activity_type
            record.attempt = info.attempt
        return True


def configure_logging(level: int = logging.INFO) -> None:
    """The worker process's root handler on stderr."""
    handler = logging.StreamHandler()
    handler.setFormatter(ContextFormatter(LOG_FORMAT))
    handler.addFilter(ActivityContext())
    logging.basicConfig(level=level, handlers=[handler])
    # The worker only reads the schema revision (at start and on every readiness probe): Alembic's INFO
    # lines about its migration context say nothing there, and a probe every few seconds would repeat them.
    logging.getLogger("alembic").setLevel(logging.WARNING)
