"""The answer to "why do you think that?": a belief's read projection with its provenance.

Each supporting source event is named by session and seq with its kind and occurred_at, and the exact span
formation cited from it (None when the belief was written by the user or formed before spans were kept; an
erased or unreadable event shows its ref alone). With derivation, longevity, confidence band and both clocks
(domain.beliefs.retrieval.api_view), this is what every read surface returns for one belief: a person who
sees what was heard can correct what was misheard.
"""

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from domain.beliefs.lifecycle import expires_at
from domain.beliefs.records import MemoryRecord
from domain.beliefs.retrieval import api_view, project
from domain.owner import Owner
from domain.ports import EventFacts, UnitOfWork

_Key = tuple[UUID, int]


def _source(ref_key: _Key, facts: dict[_Key, EventFacts], spans: dict[_Key, str]) -> dict[str, Any]:
    found = facts.get(ref_key)
    return {
        "session_id": str(ref_key[0]),
        "seq": ref_key[1],
        "kind": found.kind.value if found else None,
        "occurred_at": found.occurred_at.isoformat() if found else None,
        "evidence_span": spans.get(ref_key),
    }


def explained_view(record: MemoryRecord, now: datetime, facts: dict[_Key, EventFacts]) -> dict[str, Any]:
    """api_view of the belief, its expiry boundary and its provenance (facts: what the store holds of its
    source events)."""
    spans = {(s.session_id, s.seq): s.text for s in record.evidence_spans}
    boundary = expires_at(record)
    return {
        **api_view(project(record, now)),
        "subject": record.subject,
        "expires_at": boundary.isoformat() if boundary else None,
        "provenance": [_source((r.session_id, r.seq), facts, spans) for r in record.source_event_ids],
    }


def explain(
    uow: UnitOfWork, owner: Owner, records: Sequence[MemoryRecord], now: datetime
) -> list[dict[str, Any]]:
    """explained_view of each record, reading every record's source events in one query."""
    refs = [r for record in records for r in record.source_event_ids]
    facts = {(f.session_id, f.seq): f for f in uow.events.facts(owner, refs)}
    return [explained_view(record, now, facts) for record in records]
