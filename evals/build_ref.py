"""The build reference an artifact names: the exact commit the evaluated tree was committed as.

Resolved from CI (GITHUB_SHA, CI_COMMIT_SHA) or `git rev-parse HEAD` when not given. A run refuses a
reference that is not forty lowercase hex digits, is not the checked-out HEAD, or a worktree with
uncommitted changes to tracked files, so an artifact never describes files its commit does not contain.
"""

import os
import re
import subprocess
from pathlib import Path
from typing import Final

PROJECT_ROOT: Final = Path(__file__).resolve().parents[1]
_FULL_SHA: Final = re.compile(r"^[0-9a-f]{40}$")
_CI_VARIABLES: Final = ("GITHUB_SHA", "CI_COMMIT_SHA")


class BuildRefRefused(ValueError):
    """Why a run may not name its build; the message is fit for an operator's terminal."""


def _git(*args: str, root: Path) -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, check=True, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        raise BuildRefRefused("git could not read the checkout; run from a git clone of the tree") from None
    return done.stdout.strip()


def resolve_build_ref(given: str | None, root: Path = PROJECT_ROOT) -> str:
    ref = given or next((os.environ[v] for v in _CI_VARIABLES if os.environ.get(v)), None)
    head = _git("rev-parse", "HEAD", root=root)
    ref = ref or head
    if not _FULL_SHA.match(ref):
        raise BuildRefRefused("--build-ref must be the full 40-character commit sha, lowercase hex")
    if ref != head:
        raise BuildRefRefused(f"--build-ref {ref} is not the checked-out HEAD {head}")
    if _git("status", "--porcelain", "--untracked-files=no", root=root):
        raise BuildRefRefused("the worktree has uncommitted changes to tracked files; commit or stash them")
    return ref
