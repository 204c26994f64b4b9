"""What activation reads from the tree and the operator: shipped corpus digests and evidence artifacts.

The paths are the reference's and live here only. A corpus file that is absent has no digest, and an
artifact that does not parse is skipped with the file name and the failing fields (artifacts are
content-free), so a tree without its corpora or evidence activates no provider policy and says why; so is an
operator path that names no file, or a directory without one.
"""

import hashlib
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Final

from pydantic import ValidationError

from domain.policy.activation import ArtifactSource, FoundArtifact, ShippedCorpora
from domain.policy.evidence import CORPUS_V3_FILE, FORMATION_CORPUS_FILE, HOLDOUT_V3_FILE, parse_artifact

log = logging.getLogger(__name__)

EVALS_PACKAGE: Final = "evals"
CAPABILITY_DIR: Final = "capability"
# Artifacts bundled with the release; the bundle test binds each to this tree.
EVIDENCE_DIR: Final = "evidence"


def digest(content: bytes) -> str:
    return f"sha256:{hashlib.sha256(content).hexdigest()}"


def _capability(name: str) -> Traversable:
    return resources.files(EVALS_PACKAGE).joinpath(CAPABILITY_DIR, name)


def _digest_of(name: str) -> str | None:
    path = _capability(name)
    return digest(path.read_bytes()) if path.is_file() else None


def shipped_corpora() -> ShippedCorpora:
    """Digests of the corpora this tree ships (None for an absent file), computed from their bytes."""
    return ShippedCorpora(
        corpus_digest=_digest_of(CORPUS_V3_FILE),
        holdout_digest=_digest_of(HOLDOUT_V3_FILE),
        formation_corpus_digest=_digest_of(FORMATION_CORPUS_FILE),
    )


def bundled_artifact_files() -> list[Traversable]:
    root = resources.files(EVALS_PACKAGE).joinpath(EVIDENCE_DIR)
    if not root.is_dir():
        return []
    return sorted(
        (e for e in root.iterdir() if e.is_file() and e.name.endswith(".json")), key=lambda e: e.name
    )


class SkipReason(StrEnum):
    NOT_FOUND = "not_found"  # MEMORY_EVIDENCE_PATH names nothing
    NO_ARTIFACT_FILE = "no_artifact_file"  # a directory without a .json file
    DOES_NOT_VALIDATE = "does_not_validate"


@dataclass(frozen=True)
class SkippedArtifact:
    """An artifact file activation could not consider, with why (content-free: names and field paths)."""

    name: str
    source: ArtifactSource
    reason: SkipReason
    fields: tuple[str, ...] = ()


def operator_artifact_files(path: Path) -> list[Path]:
    """An operator-supplied artifact: one file, or every .json file of a directory."""
    if path.is_dir():
        return sorted(path.glob("*.json"))
    return [path] if path.is_file() else []


def _parsed(
    files: Iterable[Traversable | Path], source: ArtifactSource
) -> tuple[list[FoundArtifact], list[SkippedArtifact]]:
    found: list[FoundArtifact] = []
    skipped: list[SkippedArtifact] = []
    for entry in files:
        try:
            evidence = parse_artifact(entry.read_bytes())
        except ValidationError as invalid:
            # A file that is no JSON at all fails at the root, which names no field.
            fields = sorted({".".join(map(str, error["loc"])) for error in invalid.errors()} - {""})
            skipped.append(
                SkippedArtifact(entry.name, source, SkipReason.DOES_NOT_VALIDATE, tuple(fields[:8]))
            )
            continue
        found.append(FoundArtifact(name=entry.name, source=source, evidence=evidence))
    return found, skipped


def read_artifacts(
    operator_path: Path | None,
) -> tuple[tuple[FoundArtifact, ...], tuple[SkippedArtifact, ...]]:
    """Bundled artifacts first, then the operator's; and every file (or operator path) that was skipped."""
    found, skipped = _parsed(bundled_artifact_files(), ArtifactSource.BUNDLED)
    if operator_path is not None:
        files = operator_artifact_files(operator_path)
        if not files:
            reason = SkipReason.NO_ARTIFACT_FILE if operator_path.is_dir() else SkipReason.NOT_FOUND
            skipped.append(SkippedArtifact(operator_path.name, ArtifactSource.OPERATOR, reason))
        operator_found, operator_skipped = _parsed(files, ArtifactSource.OPERATOR)
        found += operator_found
        skipped += operator_skipped
    return tuple(found), tuple(skipped)


def log_skipped(skipped: Iterable[SkippedArtifact]) -> None:
    """Each file selection could not consider, with why, as a content-free warning."""
    for skip in skipped:
        log.warning(
            "evidence artifact skipped",
            extra={
                "artifact": skip.name,
                "source": skip.source.value,
                "reason": skip.reason.value,
                "fields": ",".join(skip.fields),
            },
        )
