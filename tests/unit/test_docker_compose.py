"""docker-compose.yml is parsed and checked here, since no container engine runs on CI machines."""

from pathlib import Path
from typing import Any

import yaml

from workflows.search_attributes import ALL

COMPOSE = Path(__file__).resolve().parents[2] / "docker-compose.yml"


def compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())


def test_services_and_images() -> None:
    services = compose()["services"]
    assert {"postgres", "temporal", "temporal-ui", "search-attributes", "migrate", "worker"} <= set(services)
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["temporal"]["image"].startswith("temporalio/auto-setup:")
    assert services["temporal-ui"]["image"].startswith("temporalio/ui:")
    assert services["search-attributes"]["image"].startswith("temporalio/admin-tools:")
    assert services["worker"]["build"] == "."


def test_temporal_persists_to_postgres() -> None:
    environment = compose()["services"]["temporal"]["environment"]
    assert environment["DB"].startswith("postgres")
    assert environment["POSTGRES_SEEDS"] == "postgres"


def test_ports_are_local_only() -> None:
    services = compose()["services"]
    published = {name: s.get("ports", []) for name, s in services.items()}
    assert "127.0.0.1:7233:7233" in published["temporal"]
    assert "127.0.0.1:8080:8080" in published["temporal-ui"]
    assert "127.0.0.1:5432:5432" in published["postgres"]
    assert all(port.startswith("127.0.0.1:") for ports in published.values() for port in ports)


def test_worker_command_environment_and_scaling() -> None:
    services = compose()["services"]
    worker = services["worker"]
    assert worker["command"] == ["worker"]
    assert worker["deploy"]["replicas"] >= 2
    assert worker["stop_signal"] == "SIGTERM"
    environment = worker["environment"]
    assert environment["TEMPORAL_ADDRESS"] == "temporal:7233"
    assert environment["DATABASE_URL"].startswith("postgresql://")
    assert environment["TEMPORAL_TASK_QUEUE"] == "memory-consolidation"
    depends = worker["depends_on"]
    assert depends["migrate"]["condition"] == "service_completed_successfully"
    assert depends["search-attributes"]["condition"] == "service_completed_successfully"
    assert depends["temporal"]["condition"] == "service_healthy"
    assert services["migrate"]["command"] == ["db", "upgrade"]


def test_health_checks_and_search_attributes() -> None:
    services = compose()["services"]
    for name in ("postgres", "temporal", "temporal-ui", "worker"):
        assert "healthcheck" in services[name], name
    registration = " ".join(services["search-attributes"]["command"])
    for key in ALL:
        assert key.name in registration


def test_dockerfile_runs_the_worker() -> None:
    dockerfile = (COMPOSE.parent / "Dockerfile").read_text()
    assert 'ENTRYPOINT ["agent"]' in dockerfile
    assert 'CMD ["worker"]' in dockerfile
