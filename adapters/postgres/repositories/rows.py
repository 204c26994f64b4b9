"""What the repository modules share: the connection they run on, the owner filter every statement
carries, and a belief's row read and written by hand."""

import functools
from typing import Any
from uuid import UUID

from sqlalchemy import Connection, Row, and_

from adapters.postgres.legacy import BACKFILL_LIFECYCLE_VERSION, LEGACY_DERIVATION, legacy_mapping
from adapters.postgres.tables import beliefs
from domain.beliefs.lifecycle import expires_at
from domain.beliefs.records import Authority, ClosedReason, MemoryRecord, SourceSpan
from domain.candidates import ClaimKind, Derivation, Longevity, Sensitivity
from domain.events import EventRef
from domain.formation.equivalence import match_keys
from domain.owner import Owner


class Repo:
    def __init__(self, connection: Connection) -> None:
        self._c = connection


def owned(table: Any, owner: Owner) -> Any:
    return _owned(table, owner.tenant_id, owner.principal_id)


# An expression is immutable, so one is shared by every statement of its owner: built anew for each of a
# segment's statements it showed in the profile of a large event's consolidation.
@functools.lru_cache(maxsize=1024)
def _owned(table: Any, tenant_id: str, principal_id: str) -> Any:
    return and_(table.c.tenant_id == tenant_id, table.c.principal_id == principal_id)


def memory_record(row: Row[Any]) -> MemoryRecord:
    # A row the backfill has not reached yet reads with the values the backfill will give it.
    claim_kind, longevity = legacy_mapping(row.belief_type)
    provenance = row.source_events if isinstance(row.source_events, list) else []
    # Absent before the recall-search revision, NULL for rows formed before it.
    spans = row._mapping.get("evidence_spans") or []
    return MemoryRecord(
        id=row.id,
        tenant_id=row.tenant_id,
        principal_id=row.principal_id,
        subject=row.subject,
        statement=row.statement,
        belief_type=row.belief_type,
        claim_kind=ClaimKind(row.claim_kind) if row.claim_kind else claim_kind,
        derivation=Derivation(row.derivation) if row.derivation else LEGACY_DERIVATION,
        longevity=Longevity(row.longevity) if row.longevity else longevity,
        confidence=row.confidence,
        sensitivity=Sensitivity(row.sensitivity),
        authority=Authority(row.authority),
        source_event_ids=tuple(
            EventRef(session_id=UUID(str(ref["session_id"])), seq=int(ref["seq"])) for ref in provenance
        ),
        evidence_spans=tuple(
            SourceSpan(session_id=UUID(str(span["session_id"])), seq=int(span["seq"]), text=str(span["text"]))
            for span in spans
        ),
        formation_version=row.formation_version,
        lifecycle_policy_version=row.lifecycle_policy_version or BACKFILL_LIFECYCLE_VERSION,
        valid_from=row.valid_from,
        valid_to=row.valid_to,
        closed_reason=ClosedReason(row.closed_reason) if row.closed_reason else None,
        last_evidence_at=row.last_evidence_at or row.valid_from,
        last_used_at=row.last_used_at,
        last_reinforced_at=row.last_reinforced_at,
        evidence_count=row.evidence_count or max(1, len(provenance)),
        corroboration_count=row.corroboration_count,
        utility=row.utility,
        channel=row.channel,
        updated_at=row.updated_at
        or max(t for t in (row.valid_from, row.last_reinforced_at, row.valid_to) if t is not None),
        version=row.version,
    )


def belief_row(
    record: MemoryRecord,
    *,
    with_match_keys: bool = True,
    with_expires_at: bool = True,
    with_recall_search: bool = True,
) -> dict[str, Any]:
    keys: dict[str, Any] = {}
    if with_match_keys:
        verb, terms = match_keys(record.statement)
        keys = {"main_verb": verb[:64] if verb else None, "terms": list(terms)}
    if with_expires_at:
        keys["expires_at"] = expires_at(record)
    if with_recall_search:
        keys["evidence_spans"] = [
            {"session_id": str(s.session_id), "seq": s.seq, "text": s.text} for s in record.evidence_spans
        ]
    return {
        **keys,
        "id": record.id,
        "tenant_id": record.tenant_id,
        "principal_id": record.principal_id,
        "belief_type": record.belief_type,
        "statement": record.statement,
        "subject": record.subject,
        "confidence": record.confidence,
        "source_events": [{"session_id": str(r.session_id), "seq": r.seq} for r in record.source_event_ids],
        "valid_from": record.valid_from,
        "valid_to": record.valid_to,
        "closed_reason": record.closed_reason.value if record.closed_reason else None,
        "last_reinforced_at": record.last_reinforced_at,
        "corroboration_count": record.corroboration_count,
        "formation_version": record.formation_version,
        "claim_kind": record.claim_kind.value,
        "derivation": record.derivation.value,
        "longevity": record.longevity.value,
        "last_evidence_at": record.last_evidence_at,
        "last_used_at": record.last_used_at,
        "evidence_count": record.evidence_count,
        "lifecycle_policy_version": record.lifecycle_policy_version,
        "sensitivity": record.sensitivity.value,
        "authority": record.authority.value,
        "utility": record.utility,
        "channel": record.channel,
        "updated_at": record.updated_at,
        "version": record.version,
    }


def stored_columns(
    with_match_keys: bool, with_expires_at: bool, with_recall_search: bool = True
) -> list[Any]:
    """The columns a repository reads and writes; the generated search vector is neither, and the
    embedding columns are written by store_embeddings alone."""
    absent = {"search", "embedding", "embedding_model"}
    if not with_match_keys:
        absent |= {"main_verb", "terms"}
    if not with_expires_at:
        absent.add("expires_at")
    if not with_recall_search:
        absent.add("evidence_spans")
    return [c for c in beliefs.c if c.name not in absent]
