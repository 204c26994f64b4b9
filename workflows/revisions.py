"""Which command sequence an execution takes, carried in its input instead of patch markers.

`workflow.patched` records a marker and upserts TemporalChangeVersion (two history events, one of them a
visibility write) in every execution that takes the new path, for as long as the patch stays in the code,
and no operator reads either. An execution started by this code carries CURRENT_REVISION in its input and
takes every path that revision includes without asking; one whose input predates revisions (the field
absent: 0) still asks `workflow.patched`, so every history recorded before, with or without the markers,
replays as it was recorded.

A later change of command sequence adds its patch id here under CURRENT_REVISION + 1 and raises
CURRENT_REVISION; executions started before it ask `workflow.patched` for that patch.
"""

from typing import Final

from temporalio import workflow

CURRENT_REVISION: Final = 1

# The revision from which each patch's new path is taken without asking.
_PATCH_REVISIONS: Final[dict[str, int]] = {
    "formation-policy-selection": 1,
    "advance-watermark-local": 1,
    "commit-local": 1,
}


def takes(patch: str, revision: int) -> bool:
    """Whether this execution takes the patch's new path: by its input's revision, or else, for an execution
    started before revisions, by `workflow.patched` (which records the marker only when it is asked)."""
    return revision >= _PATCH_REVISIONS[patch] or workflow.patched(patch)
