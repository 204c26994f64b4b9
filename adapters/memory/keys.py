"""The in-memory key store: held to the same contract as PostgreSQL's (tests, a single process)."""

import threading
from datetime import datetime
from uuid import UUID

from domain.keys import ApiKey


class InMemoryKeyStore:
    def __init__(self) -> None:
        self._keys: dict[UUID, ApiKey] = {}
        self._by_digest: dict[str, UUID] = {}
        self._lock = threading.Lock()

    def add(self, key: ApiKey, secret_digest: str) -> None:
        with self._lock:
            if key.key_id in self._keys or secret_digest in self._by_digest:
                raise ValueError("a key with this id or secret is already stored")
            self._keys[key.key_id] = key
            self._by_digest[secret_digest] = key.key_id

    def by_digest(self, secret_digest: str) -> ApiKey | None:
        with self._lock:
            key_id = self._by_digest.get(secret_digest)
            return None if key_id is None else self._keys[key_id]

    def listed(self, tenant_id: str | None = None) -> list[ApiKey]:
        with self._lock:
            keys = [k for k in self._keys.values() if tenant_id is None or k.tenant_id == tenant_id]
        return sorted(keys, key=lambda k: (k.created_at, str(k.key_id)))

    def revoke(self, key_id: UUID, at: datetime) -> ApiKey | None:
        with self._lock:
            key = self._keys.get(key_id)
            if key is None or key.revoked_at is not None:
                return key
            revoked = key.model_copy(update={"revoked_at": at})
            self._keys[key_id] = revoked
            return revoked
