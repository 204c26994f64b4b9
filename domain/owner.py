"""Who a memory belongs to: every read and write is scoped by tenant and principal."""

from pydantic import BaseModel, ConfigDict, Field

BoundedId = Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9][A-Za-z0-9._:@-]*$")


class Owner(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    tenant_id: str = BoundedId
    principal_id: str = BoundedId
