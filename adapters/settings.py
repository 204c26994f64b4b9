"""Process configuration, read once from the environment (and a .env file) by pydantic-settings."""

from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, PositiveInt
from pydantic_settings import BaseSettings, SettingsConfigDict

from domain.policy.activation import FormationMode, PinnablePolicy
from domain.policy.evidence import BuildRef


class Settings(BaseSettings):
    """Every knob an operator sets; names are the environment variables (case-insensitive)."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore", frozen=True)

    database_url: str | None = Field(
        default=None,
        description="PostgreSQL URL (postgresql://...); unset means the embedded server in dev_data_dir",
    )
    temporal_address: str = "localhost:7233"
    temporal_namespace: str = "default"
    temporal_task_queue: str = "memory-consolidation"
    worker_max_concurrent_activities: PositiveInt = 8
    worker_max_concurrent_workflow_tasks: PositiveInt = 16
    worker_max_concurrent_local_activities: PositiveInt = 8
    database_pool_size: PositiveInt = 5
    dev_data_dir: Path = Path(".dev")
    memory_model_profile: str | None = Field(
        default=None, description="a profile of the shipped memory model policy; unset means its default"
    )
    memory_formation_mode: FormationMode = Field(
        default=FormationMode.AUTO,
        description="auto: the first evidenced provider policy; required: refuse to start without one; off: none",
    )
    formation_policy_pin: PinnablePolicy | None = Field(
        default=None,
        validation_alias=AliasChoices("AGENT_MEMORY_FORMATION_POLICY_PIN", "formation_policy_pin"),
        description="holds selection at one provider policy; without its evidence, deterministic formation",
    )
    memory_evidence_path: Path | None = Field(
        default=None, description="an operator-supplied evidence artifact, or a directory of them"
    )
    release_commit: BuildRef | None = Field(
        default=None, description="the running release's full commit; an operator artifact must name it"
    )
    deployment: Literal["development", "production"] = "development"
    api_tokens_file: Path | None = Field(
        default=None,
        description="JSON file mapping sha256(bearer token) to one tenant and principal (adapters.api.auth)",
    )
    mcp_token: str | None = Field(
        default=None, description="the bearer token `agent mcp` acts as; looked up in api_tokens_file"
    )

    @property
    def embedded_postgres_dir(self) -> Path:
        return self.dev_data_dir / "postgres"

    @property
    def embedded_temporal_dir(self) -> Path:
        return self.dev_data_dir / "temporal"
