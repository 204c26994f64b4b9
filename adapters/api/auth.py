"""Bearer tokens: each maps to exactly one (tenant, principal) in server-side configuration, stored hashed.

The tokens file (Settings.api_tokens_file) is JSON:

    {"tokens": [{"sha256": "<hex of sha256(token)>", "tenant_id": "t1", "principal_id": "p1",
                 "ceiling": "sensitive"}]}

``ceiling`` (optional, default ``sensitive``) is the most sensitive memory the token's recall may render
into an agent's prompt. Tenant and principal are never read from a request: a caller is whoever its token
says it is, and an unknown token is refused.
"""

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from pydantic import BaseModel, ConfigDict, Field

from domain.candidates import Sensitivity
from domain.owner import BoundedId, Owner

DEFAULT_CEILING: Final = Sensitivity.SENSITIVE


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


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


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
        if path is None:
            return cls(())
        return cls(TokensFile.model_validate(json.loads(path.read_text(encoding="utf-8"))).tokens)

    def scope(self, token: str) -> Scope | None:
        return self._scopes.get(token_digest(token))
