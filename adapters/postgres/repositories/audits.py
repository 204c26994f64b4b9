"""The formation-audit repository: idempotent on the owner's dedupe key, one round trip for many."""

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Row, select, text
from sqlalchemy.dialects.postgresql import insert

from adapters.postgres.repositories.rows import Repo, owned
from adapters.postgres.tables import formation_audits
from domain.owner import Owner
from domain.telemetry import AuditKind, FormationAudit


class PostgresAudits(Repo):
    def record(self, audit: FormationAudit) -> bool:
        recorded = self._c.execute(
            insert(formation_audits)
            .values(
                id=audit.id,
                tenant_id=audit.tenant_id,
                principal_id=audit.principal_id,
                session_id=audit.session_id,
                kind=audit.kind.value,
                dedupe_key=audit.dedupe_key,
                details=dict(audit.details),
                created_at=audit.created_at,
            )
            .on_conflict_do_nothing()
            .returning(formation_audits.c.id)
        ).first()
        return recorded is not None

    def record_many(self, audits: Sequence[FormationAudit]) -> int:
        if not audits:
            return 0
        # One parameter holding every row: a sweep page's 5,000 audits cost one short statement, where a
        # multi-row VALUES list spends most of its time building and parsing 40,000 placeholders.
        rows = json.dumps(
            [
                {
                    "id": str(audit.id),
                    "tenant_id": audit.tenant_id,
                    "principal_id": audit.principal_id,
                    "session_id": str(audit.session_id) if audit.session_id else None,
                    "kind": audit.kind.value,
                    "dedupe_key": audit.dedupe_key,
                    "details": audit.details,
                    "created_at": audit.created_at.isoformat(),
                }
                for audit in audits
            ]
        )
        recorded = self._c.execute(_RECORD_AUDITS, {"rows": rows}).all()
        return len(recorded)

    def for_owner(self, owner: Owner, kind: AuditKind | None = None) -> list[FormationAudit]:
        query = select(formation_audits).where(owned(formation_audits, owner))
        if kind is not None:
            query = query.where(formation_audits.c.kind == kind.value)
        rows = self._c.execute(query.order_by(formation_audits.c.created_at, formation_audits.c.dedupe_key))
        return [audit_of(row) for row in rows]

    def get(self, owner: Owner, dedupe_key: str) -> FormationAudit | None:
        row = self._c.execute(
            select(formation_audits).where(
                owned(formation_audits, owner), formation_audits.c.dedupe_key == dedupe_key
            )
        ).first()
        return audit_of(row) if row else None


def audit_of(row: Row[Any]) -> FormationAudit:
    return FormationAudit(
        id=row.id,
        tenant_id=row.tenant_id,
        principal_id=row.principal_id,
        session_id=row.session_id,
        kind=AuditKind(row.kind),
        dedupe_key=row.dedupe_key,
        details=dict(row.details),
        created_at=row.created_at,
    )


_RECORD_AUDITS = text(
    """
    INSERT INTO formation_audits (id, tenant_id, principal_id, session_id, kind, dedupe_key, details, created_at)
    SELECT r.id, r.tenant_id, r.principal_id, r.session_id, r.kind, r.dedupe_key, r.details, r.created_at
      FROM jsonb_to_recordset(CAST(:rows AS jsonb)) AS r(id uuid, tenant_id text, principal_id text,
           session_id uuid, kind text, dedupe_key text, details jsonb, created_at timestamptz)
    ON CONFLICT DO NOTHING
    RETURNING id
    """
)
