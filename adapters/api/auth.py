"""Who a call acts for: `Authenticator.resolve(bearer, user_id)` -> Scope(owner, ceiling), the one place the
HTTP API, the MCP server and the memory page turn a bearer secret (and, for a service key, the user it names)
into an owner.

Two sources of keys, checked in this order: the tokens file (API_TOKENS_FILE, read at start-up; each entry is
a personal key) and the key store (PostgreSQL, `agent keys issue|list|revoke`, read on every call so a key
issued or revoked counts from the next request). Refusals are reason codes (domain.keys.KeyRefusal).

The tokens file (Settings.api_tokens_file) is JSON:

    {"tokens": [{"sha256": "<hex of sha256(token)>", "tenant_id": "t1", "principal_id": "p1",
                 "ceiling": "sensitive"}]}

``ceiling`` (optional, default ``sensitive``) is the most sensitive memory the token's recall may render
into an agent's prompt. Tenant and principal are never read from a request: a caller is whoever its token
says it is, and an unknown token is refused.
"""

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from uuid import uuid4

from pydantic import BaseModel, ConfigDict, Field

from domain.candidates import Sensitivity
from domain.keys import (
    DEFAULT_CEILING,
    ApiKey,
    IssuedKey,
    KeyRefusal,
    KeyRefused,
    KeyStore,
    acting_owner,
    new_secret,
    secret_digest,
)
from domain.owner import BoundedId, Owner


class TokenEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    tenant_id: str = BoundedId
    principal_id: str = BoundedId
    ceiling: Sensitivity = DEFAULT_CEILING


class TokensFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    tokens: tuple[TokenEntry, ...]


@dataclass(frozen=True)
class Scope:
    """Who a call acts for, and the most sensitive memory it may see."""

    owner: Owner
    ceiling: Sensitivity


# The tokens file's digest is the key store's: a token moves into the store unchanged.
token_digest = secret_digest


class TokenRegistry:
    def __init__(self, entries: tuple[TokenEntry, ...]) -> None:
        self._scopes: dict[str, Scope] = {}
        for entry in entries:
            if entry.sha256 in self._scopes:
                raise ValueError("a token digest is listed twice")
            owner = Owner(tenant_id=entry.tenant_id, principal_id=entry.principal_id)
            self._scopes[entry.sha256] = Scope(owner, entry.ceiling)

    @classmethod
    def from_file(cls, path: Path | None) -> "TokenRegistry":
        """The registry a tokens file configures; an empty one (every call refused) without a file."""
        return cls(()) if path is None else cls(cls.read_file(path))

    @staticmethod
    def read_file(path: Path) -> tuple[TokenEntry, ...]:
        return TokensFile.model_validate(json.loads(path.read_text(encoding="utf-8"))).tokens

    def scope(self, digest: str) -> Scope | None:
        return self._scopes.get(digest)

    def __len__(self) -> int:
        return len(self._scopes)


class Authenticator:
    """The tokens file, then the key store."""

    def __init__(self, keys: KeyStore | None, tokens: TokenRegistry | None = None) -> None:
        self.keys = keys
        self.tokens = tokens or TokenRegistry(())

    def resolve(self, bearer: str | None, user_id: str | None = None) -> Scope:
        """The scope a call acts in, or KeyRefused: unauthenticated (no, unknown or revoked key),
        user_id_required (a service key without user_id), user_id_not_allowed (a personal key with one),
        user_id_invalid (not a bounded id)."""
        if not bearer:
            raise KeyRefused(KeyRefusal.UNAUTHENTICATED)
        return self.resolve_digest(secret_digest(bearer), user_id)

    def resolve_listed(self, bearer: str | None, user_id: str | None = None) -> Scope | None:
        """resolve for a key of the tokens file, which needs no I/O (an API answers it on its event loop);
        None for any other bearer, which resolve answers."""
        return self._listed(secret_digest(bearer), user_id) if bearer else None

    def resolve_digest(self, digest: str, user_id: str | None = None) -> Scope:
        """resolve, for a key known by its digest only (the memory page's session): read afresh each call,
        so a key revoked since counts as revoked."""
        if (file_scope := self._listed(digest, user_id)) is not None:
            return file_scope
        key = self.keys.by_digest(digest) if self.keys is not None else None
        if key is None or not key.active:
            raise KeyRefused(KeyRefusal.UNAUTHENTICATED)
        return Scope(acting_owner(key, user_id), key.ceiling)

    def _listed(self, digest: str, user_id: str | None) -> Scope | None:
        if (file_scope := self.tokens.scope(digest)) is not None and user_id is not None:
            raise KeyRefused(KeyRefusal.USER_ID_NOT_ALLOWED)
        return file_scope

    def configured(self) -> bool:
        """Whether any key could authenticate: a tokens file entry or an active stored key."""
        return len(self.tokens) > 0 or (
            self.keys is not None and any(key.active for key in self.keys.listed())
        )


def issue_key(
    store: KeyStore,
    *,
    tenant_id: str,
    principal_id: str | None,
    name: str,
    ceiling: Sensitivity,
    now: datetime,
) -> IssuedKey:
    """A new key (personal with principal_id, else a service key): stored by digest, its secret returned once."""
    key = ApiKey(
        key_id=uuid4(),
        name=name,
        tenant_id=tenant_id,
        principal_id=principal_id,
        ceiling=ceiling,
        created_at=now,
    )
    secret = new_secret()
    store.add(key, secret_digest(secret))
    return IssuedKey(key=key, secret=secret)
