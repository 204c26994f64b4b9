"""Stage outputs kept in the store, so workflow histories carry keys instead of content.

Each stage stages one document per segment; the next stage and the commit read them back, every stage's
document of the segment in one read. The three
document shapes are stated here, once, beside the staging row, because writers (the stages) and readers
(the distill activity, the commit) meet only through the store: a reader never imports the stage that
wrote. A document is validated once, when it is read back; its stored JSON is its model's JSON dump.
"""

from collections.abc import Mapping
from datetime import timedelta
from enum import StrEnum
from typing import Any, ClassVar, Final, Self
from uuid import UUID

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeInt,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from domain.candidates import MemoryCandidate
from domain.episodes import IntegratedEpisode
from domain.formation.grounding import holds_credential, mask_credentials
from domain.formation.segments import SegmentRef
from domain.formation.stage_schemas import Prediction
from domain.owner import BoundedId
from domain.telemetry import CoverageDisposition, ReasonCategory

# A document its segment never committed (a session held, a worker gone for good) is removed after this:
# every step that reads one runs within minutes of the stage that staged it.
STAGED_RETENTION: Final = timedelta(days=1)


class StagedKind(StrEnum):
    INTEGRATION = "integration"
    ANTICIPATION = "anticipation"
    DISTILLATION = "distillation"


class StagedOutput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    tenant_id: str = BoundedId
    principal_id: str = BoundedId
    session_id: UUID
    segment_key: str = Field(pattern=r"^[0-9a-f]{64}$")
    stage: StagedKind
    document: dict[str, Any]


class _StagedDocument(BaseModel):
    # The documents hold user text: a validation error must not quote it.
    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    kind: ClassVar[StagedKind]

    @classmethod
    def of(cls, staged: Mapping[StagedKind, dict[str, Any]]) -> Self:
        """This stage's document among a segment's (StagedOutputRepository.get_all, one read for every
        stage a step needs); a stage that staged nothing reads as an empty one."""
        return cls.model_validate(staged.get(cls.kind) or {})

    def staged_output(self, ref: SegmentRef) -> StagedOutput:
        return StagedOutput(
            tenant_id=ref.tenant_id,
            principal_id=ref.principal_id,
            session_id=ref.session_id,
            segment_key=ref.segment_key,
            stage=self.kind,
            document=self.without_secrets().model_dump(mode="json"),
        )

    def without_secrets(self) -> Self:
        """What may be staged: no credential a provider or the fallback repeated (narratives are masked
        where they are formed)."""
        return self


class IntegrationDocument(_StagedDocument):
    """Call 1: the segment's validated episodes, or the deterministic episode and why it stood in."""

    kind: ClassVar[StagedKind] = StagedKind.INTEGRATION

    episodes: tuple[IntegratedEpisode, ...] = ()
    fallback_reason: str | None = None

    @model_serializer(mode="wrap")
    def _reason_only_on_fallback(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # Stored rows carry the key only when the stage fell back.
        dumped: dict[str, Any] = handler(self)
        if self.fallback_reason is None:
            dumped.pop("fallback_reason", None)
        return dumped


class AnticipationDocument(_StagedDocument):
    """Call 2: the predictions that passed local checks, as the provider gave them."""

    kind: ClassVar[StagedKind] = StagedKind.ANTICIPATION

    predictions: tuple[Prediction, ...] = ()

    def without_secrets(self) -> Self:
        return self.model_copy(
            update={
                "predictions": tuple(
                    p.model_copy(update={"statement": mask_credentials(p.statement)})
                    for p in self.predictions
                )
            }
        )


class DistillationDocument(_StagedDocument):
    """Call 3: the validated candidates, the proposals rejected by category, and the coverage ledger.

    formation@8/@10's one extraction call stages its candidates here too (with no ledger), so the commit
    reads one candidate document whatever the policy."""

    kind: ClassVar[StagedKind] = StagedKind.DISTILLATION

    candidates: tuple[MemoryCandidate, ...] = ()
    rejections: dict[ReasonCategory, NonNegativeInt] = Field(default_factory=dict)
    coverage: dict[CoverageDisposition, NonNegativeInt] = Field(default_factory=dict)

    def without_secrets(self) -> Self:
        """A candidate that repeats a credential anywhere is never staged: the commit would refuse its span
        anyway (REJECTED_CREDENTIAL), so it is counted as that refusal here instead of kept."""
        kept = tuple(c for c in self.candidates if not _repeats_credential(c))
        dropped = len(self.candidates) - len(kept)
        if not dropped:
            return self
        rejections = dict(self.rejections)
        category = ReasonCategory.REJECTED_CREDENTIAL
        rejections[category] = rejections.get(category, 0) + dropped
        return self.model_copy(update={"candidates": kept, "rejections": rejections})


def _repeats_credential(candidate: MemoryCandidate) -> bool:
    texts = [candidate.subject, candidate.statement, *(span.text for span in candidate.evidence_spans)]
    return any(holds_credential(text) for text in texts)


StagedDocument = IntegrationDocument | AnticipationDocument | DistillationDocument
