"""Version constants of the reference design; evidence artifacts and audits bind to them."""

from typing import Final

FORMATION_7: Final = "formation@7"
FORMATION_8: Final = "formation@8"
FORMATION_9: Final = "formation@9"
FORMATION_10: Final = "formation@10"

EXTRACTOR_BY_FORMATION: Final[dict[str, str]] = {
    FORMATION_7: "deterministic-v2",
    FORMATION_8: "provider-assisted-v2",
    FORMATION_9: "nemori-assisted-v1",
    FORMATION_10: "provider-assisted-v3",
}

# Policies whose segment is one schema-constrained extraction call instead of formation@9's three stages.
ONE_CALL_POLICIES: Final = frozenset({FORMATION_8, FORMATION_10})

EPISODE_INTEGRATION: Final = "episode-integration@1"
RETRIEVAL: Final = "retrieval@3"
LIFECYCLE: Final = "lifecycle@2"
LIFECYCLE_BACKFILL: Final = "lifecycle@1-backfill"
DISTILLATION_SCORER: Final = "distillation-scorer@7"
