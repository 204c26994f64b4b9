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
    assert {
        "postgres",
        "temporal-schema",
        "temporal",
        "temporal-ui",
        "search-attributes",
        "migrate",
        "worker",
        "api",
        "prometheus",
        "grafana",
    } <= set(services)
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["temporal"]["image"].startswith("temporalio/server:")
    assert not any("auto-setup" in s.get("image", "") for s in services.values()), "deprecated image"
    assert services["temporal-ui"]["image"].startswith("temporalio/ui:")
    assert services["temporal-schema"]["image"].startswith("temporalio/admin-tools:")
    assert services["search-attributes"]["image"].startswith("temporalio/admin-tools:")
    assert services["worker"]["build"] == "."
    assert services["api"]["command"] == ["api"]


def test_temporal_persists_to_postgres_after_its_schema_job() -> None:
    services = compose()["services"]
    environment = services["temporal"]["environment"]
    assert environment["DB"].startswith("postgres")
    assert environment["POSTGRES_SEEDS"] == "postgres"
    assert (
        services["temporal"]["depends_on"]["temporal-schema"]["condition"] == "service_completed_successfully"
    )
    setup = " ".join(services["temporal-schema"]["command"])
    for step in ("create-database", "setup-schema", "update-schema", "temporal_visibility"):
        assert step in setup


def test_ports_are_local_only() -> None:
    services = compose()["services"]
    published = {name: s.get("ports", []) for name, s in services.items()}
    assert "127.0.0.1:7233:7233" in published["temporal"]
    assert "127.0.0.1:8080:8080" in published["temporal-ui"]
    assert "127.0.0.1:5432:5432" in published["postgres"]
    assert "127.0.0.1:9090:9090" in published["prometheus"]
    assert "127.0.0.1:3000:3000" in published["grafana"]
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
    for name in ("postgres", "temporal", "temporal-ui", "worker", "prometheus", "grafana"):
        assert "healthcheck" in services[name], name
    worker = services["worker"]
    probe = " ".join(worker["healthcheck"]["test"])
    assert f"{worker['environment']['WORKER_HEALTH_PORT']}/readyz" in probe
    registration = " ".join(services["search-attributes"]["command"])
    for key in ALL:
        assert key.name in registration


def test_dockerfile_runs_the_worker() -> None:
    dockerfile = (COMPOSE.parent / "Dockerfile").read_text()
    assert 'ENTRYPOINT ["agent"]' in dockerfile
    assert 'CMD ["worker"]' in dockerfile


def test_prometheus_scrapes_the_workers_metrics_port() -> None:
    services = compose()["services"]
    port = int(services["worker"]["environment"]["WORKER_METRICS_PORT"])
    mount = next(v for v in services["prometheus"]["volumes"] if v.endswith("prometheus.yml:ro"))
    config = yaml.safe_load((COMPOSE.parent / mount.split(":")[0]).read_text())
    jobs = {job["job_name"]: job for job in config["scrape_configs"]}
    worker_job = jobs["memory-worker"]["dns_sd_configs"][0]
    assert worker_job["names"] == ["worker"] and worker_job["port"] == port
    assert jobs["memory-api"]["static_configs"][0]["targets"] == [
        f"api:{services['api']['environment']['API_METRICS_PORT']}"
    ]


def test_grafana_provisions_the_datasource_and_the_dashboard() -> None:
    grafana = compose()["services"]["grafana"]
    mounts = dict(volume.removesuffix(":ro").split(":", 1) for volume in grafana["volumes"])
    provisioning = COMPOSE.parent / next(k for k, v in mounts.items() if v == "/etc/grafana/provisioning")
    datasource = yaml.safe_load((provisioning / "datasources" / "prometheus.yml").read_text())
    assert datasource["datasources"][0]["url"] == "http://prometheus:9090"
    provider = yaml.safe_load((provisioning / "dashboards" / "memory.yml").read_text())
    dashboards = provider["providers"][0]["options"]["path"]
    assert mounts[next(k for k, v in mounts.items() if v == dashboards)] == dashboards
    assert list((COMPOSE.parent / next(k for k, v in mounts.items() if v == dashboards)).glob("*.json"))


def test_kubernetes_probes_use_the_health_endpoints() -> None:
    manifest = yaml.safe_load((COMPOSE.parent / "deploy" / "kubernetes" / "worker.yaml").read_text())
    container = manifest["spec"]["template"]["spec"]["containers"][0]
    assert container["livenessProbe"]["httpGet"]["path"] == "/livez"
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    environment = {variable["name"] for variable in container["env"]}
    assert {"TEMPORAL_PROFILE", "TEMPORAL_API_KEY", "DATABASE_URL", "WORKER_HEALTH_PORT"} <= environment
