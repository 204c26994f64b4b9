"""The PostgreSQL key store: one short transaction per call, so a key issued or revoked by `agent keys`
counts from the next request of every running process.

Before the api-keys revision the table is absent: no stored key authenticates, and issuing one is refused.
"""

from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy import Engine, Row, select, update
from sqlalchemy.exc import IntegrityError

from adapters.postgres.schema import API_KEYS_COLUMN, API_KEYS_REVISION, additive_columns
from adapters.postgres.tables import api_keys
from domain.candidates import Sensitivity
from domain.errors import WrongSchemaRevision
from domain.keys import ApiKey


def _key(row: Row[Any]) -> ApiKey:
    return ApiKey(
        key_id=row.key_id,
        name=row.name,
        tenant_id=row.tenant_id,
        principal_id=row.principal_id,
        ceiling=Sensitivity(row.ceiling),
        created_at=row.created_at,
        revoked_at=row.revoked_at,
    )


class PostgresKeyStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._with_table = False

    def _table_present(self) -> bool:
        # Looked up until found: the additive revision may be applied while the process runs.
        if not self._with_table:
            self._with_table = API_KEYS_COLUMN in additive_columns(self.engine)
        return self._with_table

    def add(self, key: ApiKey, secret_digest: str) -> None:
        if not self._table_present():
            raise WrongSchemaRevision(
                f"issuing keys needs the {API_KEYS_REVISION} revision; run `agent db upgrade`"
            )
        row = {
            "key_id": key.key_id,
            "name": key.name,
            "tenant_id": key.tenant_id,
            "principal_id": key.principal_id,
            "ceiling": key.ceiling.value,
            "secret_sha256": secret_digest,
            "created_at": key.created_at,
            "revoked_at": key.revoked_at,
        }
        try:
            with self.engine.begin() as connection:
                connection.execute(api_keys.insert().values(row))
        except IntegrityError:
            raise ValueError("a key with this id or secret is already stored") from None

    def by_digest(self, secret_digest: str) -> ApiKey | None:
        if not self._table_present():
            return None
        with self.engine.connect() as connection:
            row = connection.execute(
                select(api_keys).where(api_keys.c.secret_sha256 == secret_digest)
            ).first()
        return None if row is None else _key(row)

    def listed(self, tenant_id: str | None = None) -> list[ApiKey]:
        if not self._table_present():
            return []
        query = select(api_keys).order_by(api_keys.c.created_at, api_keys.c.key_id)
        if tenant_id is not None:
            query = query.where(api_keys.c.tenant_id == tenant_id)
        with self.engine.connect() as connection:
            return [_key(row) for row in connection.execute(query)]

    def revoke(self, key_id: UUID, at: datetime) -> ApiKey | None:
        if not self._table_present():
            return None
        with self.engine.begin() as connection:
            connection.execute(
                update(api_keys)
                .where(api_keys.c.key_id == key_id, api_keys.c.revoked_at.is_(None))
                .values(revoked_at=at)
            )
            row = connection.execute(select(api_keys).where(api_keys.c.key_id == key_id)).first()
        return None if row is None else _key(row)
