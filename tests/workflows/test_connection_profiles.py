"""A worker and the idle trigger reach Temporal through a profile with TLS and an API key: a
TLS-terminating proxy with a CA made here stands in front of the local dev server."""

import uuid
from pathlib import Path

import pytest
from temporalio.service import TLSConfig

from adapters.postgres.uow import PostgresStore
from adapters.providers.scripted import ScriptedProvider
from adapters.settings import Settings
from adapters.temporal.client import TemporalUnavailable, connect, session_idle
from adapters.temporal.connection import connect_config
from adapters.temporal.worker import WorkerPorts
from domain.telemetry import RunOutcome
from tests.workflows.conversations import conversation, plausible_answer
from tests.workflows.harness import Harness
from tests.workflows.support import OWNER, append
from tests.workflows.tls_proxy import SERVER_NAME, TlsProxy, make_certificates

pytestmark = [pytest.mark.temporal, pytest.mark.postgres]

API_KEY = "test-api-key-not-checked-by-the-dev-server"


def test_consolidation_through_a_tls_profile_with_an_api_key(
    harness: Harness, store: PostgresStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    certificates = make_certificates(tmp_path)
    proxy = TlsProxy(upstream=harness.address, certificates=certificates)
    harness.run(proxy.start())
    profile = tmp_path / "temporal.toml"
    profile.write_text(
        "[profile.production]\n"
        f'address = "127.0.0.1:{proxy.port}"\n'
        'namespace = "default"\n'
        f'api_key = "{API_KEY}"\n'
        "[profile.production.tls]\n"
        f'server_name = "{SERVER_NAME}"\n'
        f'server_ca_cert_path = "{certificates.ca}"\n'
    )
    for name in ("TEMPORAL_ADDRESS", "TEMPORAL_NAMESPACE", "TEMPORAL_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TEMPORAL_CONFIG_FILE", str(profile))
    monkeypatch.setenv("TEMPORAL_PROFILE", "production")
    config = connect_config(Settings(_env_file=None))  # type: ignore[call-arg]
    assert config["api_key"] == API_KEY
    assert config["target_host"] == f"127.0.0.1:{proxy.port}"

    session = uuid.uuid4()
    append(store, conversation(OWNER, session, 4, seed=7))
    try:
        client = harness.run(connect(config))
        assert client.service_client.config.api_key == API_KEY
        assert client.service_client.config.tls
        with harness.worker(WorkerPorts(store, ScriptedProvider(plausible_answer)), client=client) as worker:
            handle = harness.run(
                session_idle(
                    client, OWNER.tenant_id, OWNER.principal_id, session, task_queue=worker.task_queue
                )
            )
            summary = harness.run(handle.result())
    finally:
        harness.run(proxy.stop())
    assert summary.last_round is not None
    assert summary.last_round.outcome is not RunOutcome.NOTHING_TO_DO
    assert summary.last_round.segment_count >= 1
    assert proxy.connections >= 1 and proxy.forwarded_bytes > 0


def test_a_client_that_does_not_trust_the_proxy_is_refused(harness: Harness, tmp_path: Path) -> None:
    certificates = make_certificates(tmp_path)
    proxy = TlsProxy(upstream=harness.address, certificates=certificates)
    harness.run(proxy.start())
    (tmp_path / "other").mkdir()
    other_ca = make_certificates(tmp_path / "other")
    try:
        with pytest.raises(TemporalUnavailable):
            harness.run(
                connect(
                    {
                        "target_host": f"127.0.0.1:{proxy.port}",
                        "namespace": "default",
                        "tls": TLSConfig(domain=SERVER_NAME, server_root_ca_cert=other_ca.ca.read_bytes()),
                    }
                ),
                timeout=60,
            )
    finally:
        harness.run(proxy.stop())
