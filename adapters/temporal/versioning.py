"""Which code a worker runs, as Temporal's Worker Versioning names it: deployment name and build id.

The build id is the package version plus the commit the image was built from (BUILD_COMMIT), so two
images of one release that differ in code never share an id. Every worker registers its version (the
Temporal UI shows which build ran each task); routing by version is on only with WORKER_VERSIONING, and
then each workflow type's `versioning_behavior` decides whether a running execution stays on the build
that started it (pinned) or moves to the current one (auto-upgrade). The README's "Operating in
production" section has the rollout.
"""

from importlib.metadata import PackageNotFoundError, version
from typing import Final

from temporalio.common import WorkerDeploymentVersion
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
    )
