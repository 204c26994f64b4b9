"""The Temporal connection comes from an envconfig profile, the TEMPORAL_* variables and Settings."""

from pathlib import Path

import pytest
from temporalio.service import TLSConfig

from adapters.settings import Settings
from adapters.temporal.connection import connect_config

PROFILE = """
[profile.prod]
address = "temporal.example:7233"
namespace = "memory-prod"
api_key = "profile-key"
[profile.prod.tls]
server_name = "temporal.example"
server_ca_cert_path = "{ca}"
[profile.prod.grpc_meta]
x-team = "memory"
"""


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No TEMPORAL_* from the machine running the tests, and an empty config file unless a test writes one."""
    for name in ("ADDRESS", "NAMESPACE", "API_KEY", "PROFILE", "TLS", "TLS_SERVER_NAME"):
        monkeypatch.delenv(f"TEMPORAL_{name}", raising=False)
    config = tmp_path / "temporal.toml"
    config.write_text("")
    monkeypatch.setenv("TEMPORAL_CONFIG_FILE", str(config))
    return config


def settings() -> Settings:
    return Settings(_env_file=None)  # type: ignore[call-arg]


def test_defaults_come_from_settings(clean_environment: Path) -> None:
    config = connect_config(settings())
    assert config["target_host"] == "localhost:7233"
    assert config["namespace"] == "default"
    assert "api_key" not in config and "tls" not in config


@pytest.fixture
def prod_profile(clean_environment: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The profile "prod" selected; returns its CA file."""
    ca = tmp_path / "ca.pem"
    ca.write_bytes(b"-----BEGIN CERTIFICATE-----\n")
    clean_environment.write_text(PROFILE.format(ca=ca))
    monkeypatch.setenv("TEMPORAL_PROFILE", "prod")
    return ca


def test_a_profile_brings_tls_api_key_and_metadata(prod_profile: Path) -> None:
    config = connect_config(settings())
    assert config["target_host"] == "temporal.example:7233"
    assert config["namespace"] == "memory-prod"
    assert config["api_key"] == "profile-key"
    assert config["rpc_metadata"] == {"x-team": "memory"}
    tls = config["tls"]
    assert isinstance(tls, TLSConfig)
    assert tls.domain == "temporal.example"
    assert tls.server_root_ca_cert == prod_profile.read_bytes()


def test_variables_override_the_profile(prod_profile: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEMPORAL_ADDRESS", "other:7233")
    monkeypatch.setenv("TEMPORAL_API_KEY", "env-key")
    config = connect_config(settings())
    assert config["target_host"] == "other:7233"
    assert config["api_key"] == "env-key"
    assert config["namespace"] == "memory-prod"


def test_an_api_key_alone_turns_tls_on(clean_environment: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEMPORAL_API_KEY", "cloud-key")
    config = connect_config(settings())
    assert config["api_key"] == "cloud-key"
    assert config["tls"] is True
    assert "cloud-key" not in repr(settings())
