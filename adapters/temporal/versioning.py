"""Which code a worker runs, as Temporal's Worker Versioning names it: deployment name and build id.

The build id is the package version plus the commit the image was built from (BUILD_COMMIT), so two
images of one release that differ in code never share an id. Every worker registers its version (the
Temporal UI shows which build ran each task); routing by version is on only with WORKER_VERSIONING.

Every workflow type is then auto-upgrade: a running execution moves to the current build at its next
workflow task, so a change must replay the histories the replay tests keep for every type (or be gated
with `workflow.patched`). Pinning is not declared per type on `@workflow.defn`: the server refuses a
workflow task that names a behaviour from a worker that is not versioned, which every dev, test and
unversioned production worker is. docs/operations/worker-versioning.md has the rollout.
"""

from importlib.metadata import PackageNotFoundError, version
from typing import Final

from temporalio.api.workflowservice.v1 import DescribeWorkerDeploymentRequest
from temporalio.client import Client
from temporalio.common import VersioningBehavior, WorkerDeploymentVersion
from temporalio.service import RPCError, RPCStatusCode
from temporalio.worker import WorkerDeploymentConfig

from adapters.settings import ConfigurationError, Settings

DISTRIBUTION: Final = "memory-consolidation"
COMMIT_DIGITS: Final = 12


def build_id(settings: Settings) -> str:
    try:
        release = version(DISTRIBUTION)
    except PackageNotFoundError:  # running from a source tree that was never installed
        release = "0+source"
    if not settings.build_commit:
        return release
    separator = "." if "+" in release else "+"
    return f"{release}{separator}{settings.build_commit[:COMMIT_DIGITS]}"


def deployment_config(settings: Settings) -> WorkerDeploymentConfig:
    return WorkerDeploymentConfig(
        version=WorkerDeploymentVersion(
            deployment_name=settings.worker_deployment_name, build_id=build_id(settings)
        ),
        use_worker_versioning=settings.worker_versioning,
        # Only allowed (and then required) with versioning on.
        default_versioning_behavior=(
            VersioningBehavior.AUTO_UPGRADE if settings.worker_versioning else VersioningBehavior.UNSPECIFIED
        ),
    )


async def require_reachable(client: Client, settings: Settings) -> None:
    """Refuse to start an unversioned worker while its deployment has a current build: the server routes
    every task to that build, so this worker would poll and receive nothing (typically: versioning was
    turned off without handing the queue back to unversioned workers)."""
    if settings.worker_versioning:
        return
    name = settings.worker_deployment_name
    try:
        described = await client.workflow_service.describe_worker_deployment(
            DescribeWorkerDeploymentRequest(namespace=client.namespace, deployment_name=name)
        )
    except RPCError as refused:
        # Never versioned (no such deployment), or a server or role that cannot say: nothing to guard.
        if refused.status in (
            RPCStatusCode.NOT_FOUND,
            RPCStatusCode.PERMISSION_DENIED,
            RPCStatusCode.UNIMPLEMENTED,
        ):
            return
        raise
    current = described.worker_deployment_info.routing_config.current_deployment_version.build_id
    if current:
        raise ConfigurationError(
            f"deployment {name} routes every task to build {current}, so a worker without WORKER_VERSIONING "
            "would receive none: set WORKER_VERSIONING=true, or hand the queue back to unversioned workers "
            f"with `temporal worker deployment set-current-version --deployment-name {name} --unversioned`"
        )
