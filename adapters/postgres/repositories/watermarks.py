"""The watermark repository: compare-and-set, forward only."""

from uuid import UUID

from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert

from adapters.postgres.repositories.rows import Repo, owned
from adapters.postgres.tables import watermarks
from domain.owner import Owner


class PostgresWatermarks(Repo):
    def get(self, owner: Owner, session_id: UUID) -> int:
        found = self._c.execute(
            select(watermarks.c.seq).where(owned(watermarks, owner), watermarks.c.session_id == session_id)
        ).scalar()
        return int(found or 0)

    def compare_and_set(self, owner: Owner, session_id: UUID, expected: int, new: int) -> bool:
        if new <= expected:
            return False
        if expected == 0:
            statement = insert(watermarks).values(
                tenant_id=owner.tenant_id, principal_id=owner.principal_id, session_id=session_id, seq=new
            )
            moved = self._c.execute(
                statement.on_conflict_do_update(
                    index_elements=[
                        watermarks.c.tenant_id,
                        watermarks.c.principal_id,
                        watermarks.c.session_id,
                    ],
                    set_={"seq": statement.excluded.seq},
                    where=watermarks.c.seq == 0,
                ).returning(watermarks.c.seq)
            ).first()
        else:
            moved = self._c.execute(
                update(watermarks)
                .where(
                    owned(watermarks, owner),
                    watermarks.c.session_id == session_id,
                    watermarks.c.seq == expected,
                )
                .values(seq=new)
                .returning(watermarks.c.seq)
            ).first()
        return moved is not None
