"""API keys: who a bearer secret acts for, and the rule that turns a key and a named user into an owner.

A personal key (principal_id set) acts for its one principal; a service key (principal_id None) acts for
any principal of its own tenant, named per call (user_id), never for another tenant's. Keys are issued and
revoked while processes run: the store is read on each call, and a revoked key is refused from the next one.

The store keeps a digest of the secret, never the secret: the secret is 32 random bytes, so a fast digest
(sha256) cannot be reversed by guessing, and a lookup by digest is one indexed read.
"""

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Final, Protocol
from uuid import UUID

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from domain.candidates import Sensitivity
from domain.owner import BoundedId, Owner

DEFAULT_CEILING: Final = Sensitivity.SENSITIVE
SECRET_PREFIX: Final = "mk_"
_SECRET_BYTES: Final = 32
_BOUNDED: TypeAdapter[str] = TypeAdapter(Annotated[str, BoundedId])


class ApiKey(BaseModel):
    """An issued key as stored: everything but the secret."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key_id: UUID
    name: str = Field(min_length=1, max_length=128)
    tenant_id: str = BoundedId
    # None: a service key, acting for any principal of its tenant named per call.
    principal_id: str | None = BoundedId
    ceiling: Sensitivity = DEFAULT_CEILING
    created_at: AwareDatetime
    revoked_at: AwareDatetime | None = None

    @property
    def is_service(self) -> bool:
        return self.principal_id is None

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class KeyStore(Protocol):
    """Where keys live (PostgreSQL in production; in memory for tests)."""

    def add(self, key: ApiKey, secret_digest: str) -> None:
        """Store a newly issued key under the digest of its secret."""
        ...

    def by_digest(self, secret_digest: str) -> ApiKey | None:
        """The key (active or revoked) whose secret has this digest."""
        ...

    def listed(self, tenant_id: str | None = None) -> list[ApiKey]:
        """Every key (of one tenant when given), oldest first."""
        ...

    def revoke(self, key_id: UUID, at: datetime) -> ApiKey | None:
        """Revoke a key (once: a second revoke keeps the first time); None when there is no such key."""
        ...


class KeyRefusal(StrEnum):
    """Why a call's key and user_id name no owner."""

    UNAUTHENTICATED = "unauthenticated"
    USER_ID_REQUIRED = "user_id_required"
    USER_ID_NOT_ALLOWED = "user_id_not_allowed"
    USER_ID_INVALID = "user_id_invalid"


class KeyRefused(Exception):
    def __init__(self, reason: KeyRefusal) -> None:
        super().__init__(reason.value)
        self.reason = reason


@dataclass(frozen=True)
class IssuedKey:
    key: ApiKey
    # Shown once, to whoever issued the key; only its digest is stored.
    secret: str


def new_secret() -> str:
    return SECRET_PREFIX + secrets.token_urlsafe(_SECRET_BYTES)


def secret_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def acting_owner(key: ApiKey, user_id: str | None) -> Owner:
    """The owner a call with this (active) key and user_id acts for, or KeyRefused with the reason."""
    if key.principal_id is not None:
        if user_id is not None:
            raise KeyRefused(KeyRefusal.USER_ID_NOT_ALLOWED)
        return Owner(tenant_id=key.tenant_id, principal_id=key.principal_id)
    if user_id is None:
        raise KeyRefused(KeyRefusal.USER_ID_REQUIRED)
    try:
        principal = _BOUNDED.validate_python(user_id)
    except ValidationError:
        raise KeyRefused(KeyRefusal.USER_ID_INVALID) from None
    # The tenant is the key's, always: a user_id names a principal, never a tenant.
    return Owner(tenant_id=key.tenant_id, principal_id=principal)
