"""Editable copies of the shipped corpora, for tests that break a rule on purpose and watch the loader refuse."""

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from domain.policy.evidence import HOLDOUT_V3_DIGEST_FILE, HOLDOUT_V3_FILE
from evals.corpora import capability_dir

Document = dict[str, Any]


def copy_corpora(tmp_path: Path) -> Path:
    target = tmp_path / "capability"
    shutil.copytree(Path(str(capability_dir())), target)
    return target


def edit(root: Path, name: str, change: Callable[[Document], None]) -> None:
    path = root / name
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def refreeze_holdout(root: Path) -> None:
    """What a deliberate re-freeze does: record the digest of the holdout as it now is."""
    digest = hashlib.sha256((root / HOLDOUT_V3_FILE).read_bytes()).hexdigest()
    (root / HOLDOUT_V3_DIGEST_FILE).write_text(f"{digest}  {HOLDOUT_V3_FILE}\n", encoding="utf-8")


def case(document: Document, case_id: str) -> Document:
    found: Document = next(c for c in document["cases"] if c["id"] == case_id)
    return found
