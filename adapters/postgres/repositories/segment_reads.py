"""UnitOfWork.segment_reads: a commit's reads after its lock (the recorded report, the staged documents,
the segment's events), three tables in one statement."""

from typing import Any, Final

from sqlalchemy import Connection, text

from adapters.postgres.repositories.audits import audit_of
from adapters.postgres.repositories.events import event_of
from domain.formation.segments import SegmentRef, cut_to_piece
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


def _statement() -> Any:
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
            "text": "t.text",
        },
        # The segment's seq range, as read_range reads it.
        "t.session_id = :session_id AND t.seq > :after_seq ORDER BY t.seq LIMIT :limit",
    )
    return text(f"{audit} UNION ALL {staged} UNION ALL {events}")


# Built once. A piece's event is read whole and cut here: substr counts the characters from the start of a
# UTF-8 text, which took 2.5 ms halfway into a 792 KB event where reading all of it took 0.6 ms.
_STATEMENT: Final = _statement()


def segment_reads(connection: Connection, ref: SegmentRef, dedupe_key: str) -> SegmentReads:
    params: dict[str, Any] = {
        "tenant_id": ref.tenant_id,
        "principal_id": ref.principal_id,
        "dedupe_key": dedupe_key,
        "segment_key": ref.segment_key,
        "session_id": ref.session_id,
        "after_seq": ref.first_seq - 1,
        "limit": ref.last_seq - ref.first_seq + 1,
    }
    recorded = None
    staged: dict[StagedKind, dict[str, Any]] = {}
    events = []
    for row in connection.execute(_STATEMENT, params):
        if row.part == "audit":
            recorded = audit_of(row)
        elif row.part == "staged":
            staged[StagedKind(row.stage)] = dict(row.document)
        else:
            events.append(event_of(row))
    events.sort(key=lambda e: e.seq)
    return SegmentReads(
        recorded=recorded, staged=staged, events=cut_to_piece(ref, [e for e in events if ref.holds(e)])
    )
