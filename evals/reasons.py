"""The stable reason codes of distillation-scorer@7: why a formed belief matches a gold claim or not.

Other tools read these strings (`agent eval score --json`), so a code is never renamed or reused."""

from enum import StrEnum


class Reason(StrEnum):
    MATCH = "match"
    DERIVATION_DIFFERS = "derivation_differs"
    KIND_INCOMPATIBLE = "kind_incompatible"
    LONGEVITY_DIFFERS = "longevity_differs"
    USER_SUBJECT = "user_subject"
    SUBJECT_DIFFERS = "subject_differs"
    POLARITY_DIFFERS = "polarity_differs"
    NEGATION_DIFFERS = "negation_differs"
    ABSENCE_CONDITION_DIFFERS = "absence_condition_differs"
    COUNT_DIFFERS = "count_differs"
    LARGE_NUMBER_DIFFERS = "large_number_differs"
    COMPARISON_REVERSED = "comparison_reversed"
    ORIGIN_REVERSED = "origin_reversed"
    SIBLING_ACTIVITY = "sibling_activity"
    OBJECT_DIFFERS = "object_differs"
    ARGUMENTS_SWAPPED = "arguments_swapped"
    STATEMENT_DIFFERS = "statement_differs"
