"""Custom search attributes operators filter on in the Temporal UI. Values are versions and outcome
classes only: never user content, never an id that is not already in the workflow id."""

from typing import Final

from temporalio.common import SearchAttributeKey

FORMATION_POLICY: Final = SearchAttributeKey.for_keyword("FormationPolicy")
CONSOLIDATION_OUTCOME: Final = SearchAttributeKey.for_keyword("ConsolidationOutcome")
REPASS_STATE: Final = SearchAttributeKey.for_keyword("RepassState")

ALL: Final = (FORMATION_POLICY, CONSOLIDATION_OUTCOME, REPASS_STATE)
