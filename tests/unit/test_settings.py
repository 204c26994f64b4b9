"""Settings: the documented defaults, and the environment overriding them."""

from pathlib import Path

import pytest

from adapters.observability.tracing import configure_tracing
from adapters.postgres.engine import sqlalchemy_url
from adapters.settings import DEFAULT_MAX_ACTIVITIES, Settings


def test_settings_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "DATABASE_URL",
        "TEMPORAL_ADDRESS",
        "TEMPORAL_NAMESPACE",
        "TEMPORAL_TASK_QUEUE",
        "DEV_DATA_DIR",
        "WORKER_MAX_CONCURRENT_ACTIVITIES",
        "OTEL_EXPORTER_OTLP_ENDPOINT",
    ):
        monkeypatch.delenv(name, raising=False)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.database_url is None
    assert (settings.temporal_address, settings.temporal_namespace, settings.temporal_task_queue) == (
        "localhost:7233",
        "default",
        "memory-consolidation",
    )
    assert settings.dev_data_dir == Path(".dev")
    assert settings.memory_model_profile is None
    assert settings.worker_max_concurrent_activities == DEFAULT_MAX_ACTIVITIES
    assert settings.worker_metrics_port is None and settings.otel_exporter_otlp_endpoint is None
    assert configure_tracing(settings, "memory-worker") is None, "no OTLP endpoint: tracing is off"


def test_settings_read_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://u:p%40ss@db:5432/memory")
    monkeypatch.setenv("WORKER_MAX_CONCURRENT_ACTIVITIES", "3")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.worker_max_concurrent_activities == 3
    assert settings.database_url is not None
    assert sqlalchemy_url(settings.database_url.get_secret_value()) == (
        "postgresql+psycopg://u:p%40ss@db:5432/memory"
    )


def test_secrets_never_show(monkeypatch: pytest.MonkeyPatch) -> None:
    secrets = {
        "DATABASE_URL": "postgresql://u:hunter2@db/memory",
        "OPENAI_API_KEY": "sk-openai-secret",
        "ANTHROPIC_API_KEY": "sk-ant-secret",
        "TEMPORAL_API_KEY": "temporal-secret",
    }
    for name, value in secrets.items():
        monkeypatch.setenv(name, value)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    shown = f"{settings!r} {settings} {settings.model_dump()} {settings.model_dump_json()}"
    for value in secrets.values():
        assert value not in shown
    assert settings.provider_api_key("openai") == "sk-openai-secret"
    assert settings.provider_api_key("anthropic") == "sk-ant-secret"
    assert settings.provider_api_key("scripted") is None
