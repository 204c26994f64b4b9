"""Stage outputs kept in the store, so workflow histories carry keys instead of content."""

from enum import StrEnum
from typing import Any
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

from domain.owner import BoundedId


class StagedKind(StrEnum):
    INTEGRATION = "integration"
    ANTICIPATION = "anticipation"
    DISTILLATION = "distillation"


class StagedOutput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    tenant_id: str = BoundedId
    principal_id: str = BoundedId
    session_id: UUID
    segment_key: str = Field(pattern=r"^[0-9a-f]{64}$")
    stage: StagedKind
    document: dict[str, Any]
