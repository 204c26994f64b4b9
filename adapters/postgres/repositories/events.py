"""The source-event repository: append-only, idempotent per (tenant, principal, session, seq).

Before the additive late-events revision there is no late_pending column: no statement names it, the
store accepts no late event (accepts_late), and there are none to find or settle.
"""

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy import Column, Connection, Row, bindparam, or_, select, text, tuple_, update
from sqlalchemy.dialects.postgresql import insert

from adapters.postgres.repositories.rows import Repo, owned
from adapters.postgres.tables import source_events
from domain.errors import EventConflict, UnreadableEvent, WrongSchemaRevision
from domain.events import EventRef, SourceEvent, SourceEventKind
from domain.owner import Owner
from domain.ports import AppendResult, EventFacts

# The primary key, in its order.
_EVENT_KEY = (
    source_events.c.tenant_id,
    source_events.c.principal_id,
    source_events.c.session_id,
    source_events.c.seq,
)
_EventKey = tuple[str, str, UUID, int]
# What a SourceEvent is read from: every column but late_pending, which may not exist yet.
_EVENT_COLUMNS: tuple[Column[Any], ...] = (
    *_EVENT_KEY,
    source_events.c.kind,
    source_events.c.text,
    source_events.c.occurred_at,
)


def _event_key(event: SourceEvent) -> _EventKey:
    return (event.tenant_id, event.principal_id, event.session_id, event.seq)


# The stored kind and text under each offered key: the keys travel as four arrays and are joined to the
# primary key, so the read stays one index probe per key however many were offered.
_STORED_EVENTS = text(
    """
    SELECT s.tenant_id, s.principal_id, s.session_id, s.seq, s.kind, s.text
      FROM unnest(CAST(:tenants AS text[]), CAST(:principals AS text[]), CAST(:sessions AS uuid[]),
                  CAST(:seqs AS bigint[])) AS k(tenant_id, principal_id, session_id, seq)
      JOIN source_events AS s USING (tenant_id, principal_id, session_id, seq)
    """
)


# Kind and time only, never the text: what a belief's provenance shows besides its cited span.
_EVENT_FACTS = text(
    """
    SELECT s.session_id, s.seq, s.kind, s.occurred_at
      FROM unnest(CAST(:sessions AS uuid[]), CAST(:seqs AS bigint[])) AS k(session_id, seq)
      JOIN source_events AS s USING (session_id, seq)
     WHERE s.tenant_id = :tenant_id AND s.principal_id = :principal_id
     ORDER BY s.session_id, s.seq
    """
)


# Built once: the anticipation of every segment reads its cue events with it.
_READ_BEFORE = (
    select(*_EVENT_COLUMNS)
    .where(
        source_events.c.tenant_id == bindparam("tenant_id"),
        source_events.c.principal_id == bindparam("principal_id"),
        source_events.c.session_id == bindparam("session_id"),
        source_events.c.seq < bindparam("before_seq"),
    )
    .order_by(source_events.c.seq.desc())
    .limit(bindparam("limit"))
)


def event_of(row: Row[Any]) -> SourceEvent:
    try:
        return SourceEvent(
            tenant_id=row.tenant_id,
            principal_id=row.principal_id,
            session_id=row.session_id,
            seq=row.seq,
            kind=SourceEventKind(row.kind),
            text=row.text,
            occurred_at=row.occurred_at,
        )
    except ValueError:
        # Named by position only: the validation error would quote the row.
        raise UnreadableEvent(row.seq) from None


def _readable(row: Row[Any]) -> SourceEvent | None:
    try:
        return event_of(row)
    except UnreadableEvent:
        return None


class PostgresSourceEvents(Repo):
    def __init__(
        self, connection: Connection, *, with_late_events: bool = True, with_received_at: bool = True
    ) -> None:
        super().__init__(connection)
        self._late = with_late_events
        self._received_at = with_received_at

    @property
    def accepts_late(self) -> bool:
        return self._late

    def append(self, events: Sequence[SourceEvent], *, late: bool = False) -> AppendResult:
        if late and not self._late:
            # Stored as ordinary events they would sit below the watermark, never consolidated.
            raise WrongSchemaRevision("late events need the late-events revision; run `agent db upgrade`")
        if not events:
            return AppendResult(appended=0, already_present=0)
        # The column is named only for late events: an ordinary one takes its default, or predates it.
        flag = {"late_pending": True} if late else {}
        # A savepoint makes the append all-or-nothing even if the caller goes on to commit other work.
        savepoint = self._c.begin_nested()
        try:
            inserted = self._c.execute(
                insert(source_events)
                .values(
                    [
                        {
                            "tenant_id": e.tenant_id,
                            "principal_id": e.principal_id,
                            "session_id": e.session_id,
                            "seq": e.seq,
                            "kind": e.kind.value,
                            "text": e.text,
                            "occurred_at": e.occurred_at,
                        }
                        | flag
                        for e in events
                    ]
                )
                .on_conflict_do_nothing()
                .returning(*_EVENT_KEY)
            ).all()
            fresh = {tuple(row) for row in inserted}
            offered = {_event_key(e): e for e in events}
            present = {key: e for key, e in offered.items() if key not in fresh}
            if present:
                self._check_same(present)
        except BaseException:
            savepoint.rollback()
            raise
        savepoint.commit()
        return AppendResult(appended=len(fresh), already_present=len(events) - len(fresh))

    def _check_same(self, present: dict[_EventKey, SourceEvent]) -> None:
        """One read for every offered event already stored (a re-import is all of them), not one per event."""
        tenants, principals, sessions, seqs = (list(column) for column in zip(*present, strict=True))
        rows = self._c.execute(
            _STORED_EVENTS,
            {"tenants": tenants, "principals": principals, "sessions": sessions, "seqs": seqs},
        )
        stored = {(row.tenant_id, row.principal_id, row.session_id, row.seq): row for row in rows}
        for key, event in present.items():
            row = stored[key]
            if row.text != event.text or row.kind != event.kind.value:
                raise EventConflict(f"seq {event.seq} already holds a different event")

    def read_range(self, owner: Owner, session_id: UUID, after_seq: int, limit: int) -> list[SourceEvent]:
        rows = self._c.execute(
            select(*_EVENT_COLUMNS)
            .where(
                owned(source_events, owner),
                source_events.c.session_id == session_id,
                source_events.c.seq > after_seq,
            )
            .order_by(source_events.c.seq)
            .limit(max(limit, 0))
        )
        return [event_of(row) for row in rows]

    def received_at(self, owner: Owner, session_id: UUID, seqs: Sequence[int]) -> dict[int, datetime]:
        if not self._received_at or not seqs:
            return {}
        rows = self._c.execute(
            select(source_events.c.seq, source_events.c.received_at).where(
                owned(source_events, owner),
                source_events.c.session_id == session_id,
                source_events.c.seq.in_(list(seqs)),
            )
        )
        return {row.seq: row.received_at for row in rows}

    def late_pending(self, owner: Owner, session_id: UUID, limit: int) -> list[SourceEvent]:
        if not self._late:
            return []
        rows = self._c.execute(
            select(*_EVENT_COLUMNS)
            .where(
                owned(source_events, owner),
                source_events.c.session_id == session_id,
                source_events.c.late_pending,
            )
            .order_by(source_events.c.seq)
            .limit(max(limit, 0))
        )
        return [event_of(row) for row in rows]

    def settle_late(self, owner: Owner, session_id: UUID, first_seq: int, last_seq: int) -> int:
        if not self._late:
            return 0
        settled = self._c.execute(
            update(source_events)
            .where(
                owned(source_events, owner),
                source_events.c.session_id == session_id,
                source_events.c.seq.between(first_seq, last_seq),
                source_events.c.late_pending,
            )
            .values(late_pending=False)
        )
        return settled.rowcount

    def mark_late(self, owner: Owner, session_id: UUID, ranges: Sequence[tuple[int, int]]) -> int:
        if not self._late or not ranges:
            return 0
        flagged = self._c.execute(
            update(source_events)
            .where(
                owned(source_events, owner),
                source_events.c.session_id == session_id,
                or_(*(source_events.c.seq.between(first, last) for first, last in ranges)),
                ~source_events.c.late_pending,
            )
            .values(late_pending=True)
        )
        return flagged.rowcount

    def read_before(self, owner: Owner, session_id: UUID, before_seq: int, limit: int) -> list[SourceEvent]:
        rows = self._c.execute(
            _READ_BEFORE,
            {
                "tenant_id": owner.tenant_id,
                "principal_id": owner.principal_id,
                "session_id": session_id,
                "before_seq": before_seq,
                "limit": max(limit, 0),
            },
        )
        return [event for row in reversed(rows.all()) if (event := _readable(row)) is not None]

    def page(self, owner: Owner, after: EventRef | None, limit: int) -> list[SourceEvent]:
        query = select(*_EVENT_COLUMNS).where(owned(source_events, owner))
        if after is not None:
            query = query.where(
                tuple_(source_events.c.session_id, source_events.c.seq) > tuple_(after.session_id, after.seq)
            )
        rows = self._c.execute(
            query.order_by(source_events.c.session_id, source_events.c.seq).limit(max(limit, 0))
        )
        return [event_of(row) for row in rows]

    def facts(self, owner: Owner, refs: Sequence[EventRef]) -> list[EventFacts]:
        wanted = list(dict.fromkeys((r.session_id, r.seq) for r in refs))
        if not wanted:
            return []
        rows = self._c.execute(
            _EVENT_FACTS,
            {
                "tenant_id": owner.tenant_id,
                "principal_id": owner.principal_id,
                "sessions": [session for session, _ in wanted],
                "seqs": [seq for _, seq in wanted],
            },
        )
        return [EventFacts(r.session_id, r.seq, SourceEventKind(r.kind), r.occurred_at) for r in rows]
