"""`agent worker`: one consolidation worker on the Temporal profile and DATABASE_URL."""

import asyncio
from typing import Annotated

import typer

from adapters.cli.failures import EXIT_WRONG_REVISION
from adapters.cli.options import command_app, refuse_port_in_use
from adapters.composition import Composition
from adapters.settings import Settings
from domain.errors import WrongSchemaRevision
from domain.policy.activation import ActivationRefused, FormationMode

worker_app = command_app(
    "Run a consolidation worker (configuration from the environment: the Temporal profile "
    "(TEMPORAL_PROFILE, TEMPORAL_CONFIG_FILE, TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, "
    "TEMPORAL_TLS_*), TEMPORAL_TASK_QUEUE, DATABASE_URL, WORKER_*). Stops gracefully on SIGTERM."
)

EXIT_NOT_CONFIGURED = 2
EXIT_NOT_EVIDENCED = 4


@worker_app.callback()
def worker(
    task_queue: Annotated[
        str | None, typer.Option(help="Task queue to poll; default TEMPORAL_TASK_QUEUE.")
    ] = None,
    max_activities: Annotated[
        int | None,
        typer.Option(
            min=1, help="Concurrent activities (threads); default WORKER_MAX_CONCURRENT_ACTIVITIES."
        ),
    ] = None,
    max_workflow_tasks: Annotated[
        int | None,
        typer.Option(min=1, help="Concurrent workflow tasks; default WORKER_MAX_CONCURRENT_WORKFLOW_TASKS."),
    ] = None,
    formation_mode: Annotated[
        FormationMode | None,
        typer.Option(
            help="auto: the first evidenced provider policy, else deterministic; required: refuse to start "
            "without evidence; off: deterministic. Default MEMORY_FORMATION_MODE (auto)."
        ),
    ] = None,
    metrics_port: Annotated[
        int | None,
        typer.Option(
            min=1, max=65535, help="Serve Prometheus /metrics on this port; default WORKER_METRICS_PORT."
        ),
    ] = None,
    health_port: Annotated[
        int | None,
        typer.Option(
            min=1, max=65535, help="Serve /livez and /readyz on this port; default WORKER_HEALTH_PORT."
        ),
    ] = None,
) -> None:
    """Poll the task queue until SIGTERM; refuse to start against a database at the wrong revision, or
    (--formation-mode required) without evidence for the policy it must run."""
    from adapters.embeddings.factory import require_embedding_credentials
    from adapters.observability.logs import configure_logging
    from adapters.postgres.schema import require_expected_revision
    from adapters.temporal.service import LISTEN_HOST, WorkerOptions, serve

    configure_logging()
    settings = Settings()
    if not settings.database_url:
        typer.echo("DATABASE_URL is not set; a worker runs against PostgreSQL", err=True)
        raise typer.Exit(EXIT_NOT_CONFIGURED)
    require_embedding_credentials(settings)
    metrics_port = metrics_port or settings.worker_metrics_port
    health_port = health_port or settings.worker_health_port
    # Before the database or Temporal is opened, as for the other server commands: another worker on this
    # host may hold the port.
    for port, option in ((metrics_port, "--metrics-port"), (health_port, "--health-port")):
        if port is not None:
            refuse_port_in_use(LISTEN_HOST, port, option)
    if formation_mode is not None:
        settings = settings.model_copy(update={"memory_formation_mode": formation_mode})
    composition = Composition(settings=settings)
    try:
        ports = composition.worker_ports
    except (WrongSchemaRevision, ActivationRefused) as refusal:
        typer.echo(f"worker refused to start: {refusal}", err=True)
        composition.close()
        code = EXIT_WRONG_REVISION if isinstance(refusal, WrongSchemaRevision) else EXIT_NOT_EVIDENCED
        raise typer.Exit(code) from None
    options = WorkerOptions(
        task_queue=task_queue or settings.temporal_task_queue,
        max_activities=max_activities or settings.worker_max_concurrent_activities,
        max_workflow_tasks=max_workflow_tasks or settings.worker_max_concurrent_workflow_tasks,
        metrics_port=metrics_port,
        health_port=health_port,
    )
    try:
        asyncio.run(serve(settings, ports, options, lambda: require_expected_revision(composition.engine)))
    finally:
        composition.close()
