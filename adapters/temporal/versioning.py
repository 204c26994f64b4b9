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

from temporalio.common import VersioningBehavior, WorkerDeploymentVersion
from temporalio.worker import WorkerDeploymentConfig

from adapters.settings import Settings

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
