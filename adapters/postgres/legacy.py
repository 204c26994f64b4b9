"""How a lifecycle@1 belief reads under lifecycle@2: the conservative mapping of the backfill.

The data revision writes these values into old rows, and the belief repository applies the same values to a
row the backfill has not reached yet (a process may run at the structural revision while the backfill pages
through the table). Changing this table changes history: it needs a new data revision, not an edit.

Conservative means: every old belief stays a *direct* belief (the old store formed no hypotheses), is never
given a longer life than its type supports, and an unknown type gets the lowest-ranked claim kind and the
``durable`` longevity, which keeps the old type-aware decay horizon instead of retiring it on deploy.

| legacy belief_type                          | claim_kind        | longevity |
|---------------------------------------------|-------------------|-----------|
| project, ongoing_project                    | ongoing_project   | ongoing   |
| goal                                        | goal              | ongoing   |
| recurring_state, state                      | recurring_state   | ongoing   |
| role, occupation, identity                  | role              | durable   |
| skill                                       | skill             | durable   |
| interest                                    | interest          | durable   |
| habit, routine                              | habit             | durable   |
| constraint                                  | constraint        | durable   |
| relationship                                | relationship      | durable   |
| preference                                  | preference        | durable   |
| resource                                    | resource          | durable   |
| project_fact, fact                          | project_fact      | durable   |
| anything else                               | project_fact      | durable   |
"""

from typing import Final

from domain.candidates import ClaimKind, Derivation, Longevity
from domain.policy.versions import LIFECYCLE_BACKFILL

LEGACY_TYPE_MAPPING: Final[dict[str, tuple[ClaimKind, Longevity]]] = {
    "project": (ClaimKind.ONGOING_PROJECT, Longevity.ONGOING),
    "ongoing_project": (ClaimKind.ONGOING_PROJECT, Longevity.ONGOING),
    "goal": (ClaimKind.GOAL, Longevity.ONGOING),
    "recurring_state": (ClaimKind.RECURRING_STATE, Longevity.ONGOING),
    "state": (ClaimKind.RECURRING_STATE, Longevity.ONGOING),
    "role": (ClaimKind.ROLE, Longevity.DURABLE),
    "occupation": (ClaimKind.ROLE, Longevity.DURABLE),
    "identity": (ClaimKind.ROLE, Longevity.DURABLE),
    "skill": (ClaimKind.SKILL, Longevity.DURABLE),
    "interest": (ClaimKind.INTEREST, Longevity.DURABLE),
    "habit": (ClaimKind.HABIT, Longevity.DURABLE),
    "routine": (ClaimKind.HABIT, Longevity.DURABLE),
    "constraint": (ClaimKind.CONSTRAINT, Longevity.DURABLE),
    "relationship": (ClaimKind.RELATIONSHIP, Longevity.DURABLE),
    "preference": (ClaimKind.PREFERENCE, Longevity.DURABLE),
    "resource": (ClaimKind.RESOURCE, Longevity.DURABLE),
    "project_fact": (ClaimKind.PROJECT_FACT, Longevity.DURABLE),
    "fact": (ClaimKind.PROJECT_FACT, Longevity.DURABLE),
}
UNKNOWN_TYPE_MAPPING: Final = (ClaimKind.PROJECT_FACT, Longevity.DURABLE)
LEGACY_DERIVATION: Final = Derivation.DIRECT
BACKFILL_LIFECYCLE_VERSION: Final = LIFECYCLE_BACKFILL


def legacy_mapping(belief_type: str) -> tuple[ClaimKind, Longevity]:
    return LEGACY_TYPE_MAPPING.get(belief_type.strip().lower(), UNKNOWN_TYPE_MAPPING)


def claim_kind_case_sql(column: str = "belief_type") -> str:
    """A SQL CASE over the legacy type; the data revision embeds it in its set-based UPDATE."""
    return _case_sql(column, 0)


def longevity_case_sql(column: str = "belief_type") -> str:
    return _case_sql(column, 1)


def _case_sql(column: str, index: int) -> str:
    arms = " ".join(
        f"WHEN '{legacy}' THEN '{mapped[index].value}'" for legacy, mapped in LEGACY_TYPE_MAPPING.items()
    )
    return f"CASE lower(btrim({column})) {arms} ELSE '{UNKNOWN_TYPE_MAPPING[index].value}' END"


# The Alembic config attribute a caller sets to a callback (rows to do, rows done) to watch the backfill.
BACKFILL_PROGRESS: Final = "backfill_progress"
