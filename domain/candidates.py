"""The closed candidate language of formation@9: what a former may propose."""

from enum import StrEnum
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, PositiveInt, model_validator


class ClaimKind(StrEnum):
    ONGOING_PROJECT = "ongoing_project"
    GOAL = "goal"
    ROLE = "role"
    SKILL = "skill"
    INTEREST = "interest"
    HABIT = "habit"
    CONSTRAINT = "constraint"
    RECURRING_STATE = "recurring_state"
    RELATIONSHIP = "relationship"
    PREFERENCE = "preference"
    RESOURCE = "resource"
    PROJECT_FACT = "project_fact"


class Derivation(StrEnum):
    DIRECT = "direct"
    HYPOTHESIS = "hypothesis"


class Longevity(StrEnum):
    ONGOING = "ongoing"
    DURABLE = "durable"
    TENTATIVE = "tentative"


class Polarity(StrEnum):
    ASSERT = "assert"
    RETRACT = "retract"


class CandidateOrigin(StrEnum):
    PROVIDER = "provider"
    FALLBACK = "fallback"


class Sensitivity(StrEnum):
    PUBLIC = "public"
    INTERNAL = "internal"
    SENSITIVE = "sensitive"
    RESTRICTED = "restricted"


# A hypothesis is tentative by definition; a direct observation is ongoing or durable.
ALLOWED_LONGEVITY: dict[Derivation, frozenset[Longevity]] = {
    Derivation.DIRECT: frozenset({Longevity.ONGOING, Longevity.DURABLE}),
    Derivation.HYPOTHESIS: frozenset({Longevity.TENTATIVE}),
}

MAX_STATEMENT_CHARS = 400
MAX_SUBJECT_CHARS = 120
MAX_SPAN_CHARS = 2_000
GENERIC_SUBJECTS = frozenset({"user", "the user", "me", "i", "self", "principal"})


class EvidenceSpan(BaseModel):
    """One exact, non-empty substring of the source event it names."""

    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    seq: PositiveInt
    text: str = Field(min_length=1, max_length=MAX_SPAN_CHARS)

    @model_validator(mode="after")
    def _not_blank(self) -> Self:
        if not self.text.strip():
            raise ValueError("evidence span must not be blank")
        return self


class MemoryCandidate(BaseModel):
    """A proposed belief, before ranking and commit. Statements are rendered locally."""

    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    subject: str = Field(min_length=1, max_length=MAX_SUBJECT_CHARS)
    statement: str = Field(min_length=1, max_length=MAX_STATEMENT_CHARS)
    claim_kind: ClaimKind
    derivation: Derivation
    longevity: Longevity
    polarity: Polarity
    source_event_ids: tuple[PositiveInt, ...] = Field(min_length=1)
    evidence_spans: tuple[EvidenceSpan, ...] = Field(min_length=1)
    origin: CandidateOrigin
    sensitivity: Sensitivity = Sensitivity.INTERNAL
    channel: str | None = Field(default=None, max_length=64)

    @model_validator(mode="after")
    def _closed_combination(self) -> Self:
        if self.longevity not in ALLOWED_LONGEVITY[self.derivation]:
            raise ValueError(f"longevity {self.longevity} is not allowed for derivation {self.derivation}")
        if self.polarity is Polarity.RETRACT and self.derivation is not Derivation.DIRECT:
            raise ValueError("a retraction is a direct correction, never a hypothesis")
        if self.subject.strip().lower() in GENERIC_SUBJECTS:
            raise ValueError("subject must be a specific conflict key, not the user")
        ids = self.source_event_ids
        spans = self.evidence_spans
        # Most candidates cite one event: nothing to order, one span to compare.
        if len(ids) == 1:
            if len(spans) != 1 or spans[0].seq != ids[0]:
                raise ValueError("evidence_spans must hold exactly one span per cited source event, in order")
            return self
        if len(set(ids)) != len(ids) or list(ids) != sorted(ids):
            raise ValueError("source_event_ids must be ordered and unique")
        if [span.seq for span in spans] != list(ids):
            raise ValueError("evidence_spans must hold exactly one span per cited source event, in order")
        return self
