"""UnitOfWork.segment_reads: a commit's reads after its lock (the recorded report, the staged documents,
the segment's events), three tables in one statement."""

from typing import Any, Final

from sqlalchemy import Connection, text

from adapters.postgres.repositories.audits import audit_of
from adapters.postgres.repositories.events import event_of
from domain.formation.segments import SegmentRef
from domain.ports import SegmentReads
from domain.staging import StagedKind

# One row shape for the three reads, UNION ALL: each branch fills the columns its own read reads and leaves
# the others NULL, typed (an untyped NULL in two branches would be taken for text before the third).
_COLUMNS: Final = {
    "id": "uuid",
    "tenant_id": "text",
    "principal_id": "text",
    "session_id": "uuid",
    "kind": "text",
    "dedupe_key": "text",
    "details": "jsonb",
    "created_at": "timestamptz",
    "seq": "bigint",
    "text": "text",
    "occurred_at": "timestamptz",
    "stage": "text",
    "document": "jsonb",
}


def _branch(part: str, table: str, given: dict[str, str], where: str) -> str:
    columns = ", ".join(
        f"{given.get(name, f'CAST(NULL AS {kind})')} AS {name}" for name, kind in _COLUMNS.items()
    )
    return (
        f"(SELECT '{part}' AS part, {columns} FROM {table} AS t"
        f" WHERE t.tenant_id = :tenant_id AND t.principal_id = :principal_id AND {where})"
    )


def _statement(event_text: str, events_where: str) -> Any:
    audit = _branch(
        "audit",
        "formation_audits",
        {
            name: f"t.{name}"
            for name in (
                "id",
                "tenant_id",
                "principal_id",
                "session_id",
                "kind",
                "dedupe_key",
                "details",
                "created_at",
            )
        },
        "t.dedupe_key = :dedupe_key",
    )
    staged = _branch(
        "staged",
        "staged_outputs",
        {"stage": "t.stage", "document": "t.document"},
        "t.segment_key = :segment_key",
    )
    events = _branch(
        "event",
        "source_events",
        {
            **{
                name: f"t.{name}"
                for name in ("tenant_id", "principal_id", "session_id", "seq", "kind", "occurred_at")
            },
            "text": event_text,
        },
        f"t.session_id = :session_id AND {events_where}",
    )
    return text(f"{audit} UNION ALL {staged} UNION ALL {events}")


# Built once each: a segment of whole events reads its seq range (as read_range), a piece its characters of
# its one event (as read_piece; substr counts characters from 1).
_WHOLE_EVENTS: Final = _statement("t.text", "t.seq > :after_seq ORDER BY t.seq LIMIT :limit")
_PIECE: Final = _statement("substr(t.text, :start, :length)", "t.seq = :seq")


def segment_reads(connection: Connection, ref: SegmentRef, dedupe_key: str) -> SegmentReads:
    params: dict[str, Any] = {
        "tenant_id": ref.tenant_id,
        "principal_id": ref.principal_id,
        "dedupe_key": dedupe_key,
        "segment_key": ref.segment_key,
        "session_id": ref.session_id,
    }
    if ref.chars is None:
        statement = _WHOLE_EVENTS
        params |= {"after_seq": ref.first_seq - 1, "limit": ref.last_seq - ref.first_seq + 1}
    else:
        statement = _PIECE
        start, end = ref.chars
        params |= {"seq": ref.first_seq, "start": start + 1, "length": max(end - start, 0)}
    recorded = None
    staged: dict[StagedKind, dict[str, Any]] = {}
    events = []
    for row in connection.execute(statement, params):
        if row.part == "audit":
            recorded = audit_of(row)
        elif row.part == "staged":
            staged[StagedKind(row.stage)] = dict(row.document)
        else:
            events.append(event_of(row))
    events.sort(key=lambda e: e.seq)
    return SegmentReads(recorded=recorded, staged=staged, events=[e for e in events if ref.holds(e)])
