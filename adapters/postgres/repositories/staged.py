"""The staged-output repository: each stage's document per segment; a retried stage replaces the
earlier one."""

from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, tuple_
from sqlalchemy.dialects.postgresql import insert

from adapters.postgres.repositories.rows import Repo, owned
from adapters.postgres.tables import staged_outputs
from domain.owner import Owner
from domain.staging import StagedKind, StagedOutput

# Built once (the row comes as the execution's parameters): building an upsert, its excluded columns above
# all, cost more than running it.
_INSERT = insert(staged_outputs)
_PUT = _INSERT.on_conflict_do_update(
    index_elements=[
        staged_outputs.c.tenant_id,
        staged_outputs.c.principal_id,
        staged_outputs.c.segment_key,
        staged_outputs.c.stage,
    ],
    set_={
        "document": _INSERT.excluded.document,
        "session_id": _INSERT.excluded.session_id,
        "updated_at": func.now(),
    },
)


class PostgresStaged(Repo):
    def put(self, staged: StagedOutput) -> None:
        self._c.execute(
            _PUT,
            {
                "tenant_id": staged.tenant_id,
                "principal_id": staged.principal_id,
                "segment_key": staged.segment_key,
                "stage": staged.stage.value,
                "session_id": staged.session_id,
                "document": staged.document,
            },
        )

    def get(self, owner: Owner, segment_key: str, stage: StagedKind) -> dict[str, Any] | None:
        document = self._c.execute(
            select(staged_outputs.c.document).where(
                owned(staged_outputs, owner),
                staged_outputs.c.segment_key == segment_key,
                staged_outputs.c.stage == stage.value,
            )
        ).scalar()
        return dict(document) if document is not None else None

    def get_all(self, owner: Owner, segment_key: str) -> dict[StagedKind, dict[str, Any]]:
        rows = self._c.execute(
            select(staged_outputs.c.stage, staged_outputs.c.document).where(
                owned(staged_outputs, owner), staged_outputs.c.segment_key == segment_key
            )
        )
        return {StagedKind(row.stage): dict(row.document) for row in rows}

    def delete(self, owner: Owner, segment_key: str) -> int:
        removed = self._c.execute(
            delete(staged_outputs).where(
                owned(staged_outputs, owner), staged_outputs.c.segment_key == segment_key
            )
        )
        return removed.rowcount

    def purge_stale(self, staged_before: datetime, limit: int) -> int:
        key = tuple_(
            staged_outputs.c.tenant_id,
            staged_outputs.c.principal_id,
            staged_outputs.c.segment_key,
            staged_outputs.c.stage,
        )
        # A bounded page: the rows are few (a commit removes its own), but a backlog is worked off in pages.
        stale = (
            select(
                staged_outputs.c.tenant_id,
                staged_outputs.c.principal_id,
                staged_outputs.c.segment_key,
                staged_outputs.c.stage,
            )
            .where(staged_outputs.c.updated_at < staged_before)
            .limit(max(limit, 0))
        )
        return self._c.execute(delete(staged_outputs).where(key.in_(stale))).rowcount
