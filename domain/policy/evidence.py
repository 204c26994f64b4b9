"""Activation evidence artifacts: what an evaluation publishes and activation reads.

Two schemas, both frozen and content-free (versions, digests, counts and rates only):
- `MemoryDistillationEvidence`, the formation@9 comparative artifact of `agent eval memory-distillation`
  (formation@7, formation@8 and formation@9 on the development corpus and the frozen holdout). Schema 8
  records the reasoning effort the formation@9 arm sent; schema 7 is provider-default evidence.
- `FormationPolicyEvidence`, the single-policy artifact of `agent eval memory-formation` for formation@8 and
  formation@10 over the 25-case formation corpus. It records no effort, so it matches only a null effort,
  and a formation@10 artifact with no seeded case is refused here (ADR-0086 decision 4).

Both bind to an `EvidenceTuple`, the eight fields activation compares exactly. The corpus digests, the
scorer version and the build reference bind the artifact to the tree that evaluated it.
"""

from typing import Annotated, Final, Literal, Self

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeFloat,
    NonNegativeInt,
    PositiveInt,
    StringConstraints,
    TypeAdapter,
    model_validator,
)

from domain.policy.versions import (
    EXTRACTOR_BY_FORMATION,
    FORMATION_7,
    FORMATION_8,
    FORMATION_9,
    FORMATION_10,
)

Digest = Annotated[str, StringConstraints(pattern=r"^sha256:[0-9a-f]{64}$")]
# The full commit the evaluated tree was committed as; never a branch, tag or abbreviation.
BuildRef = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{40}$")]
Rate = Annotated[float, Field(ge=0.0, le=1.0)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=128)]

# Publication rules of the reference: a measured cost at or above these was never evidence.
COMPARATIVE_COST_CEILING_USD: Final = 1_000.0
FORMATION_COST_CEILING_USD: Final = 10.0
CALLS_PER_SEGMENT: Final = 3

TUPLE_FIELDS: Final = (
    "extractor_version",
    "formation_policy_version",
    "model_policy",
    "provider",
    "model",
    "policy_profile",
    "compiled_policy_version",
    "reasoning_effort",
)


# The shipped corpora evidence binds to, as files of the evals.capability package: the development corpus and
# frozen holdout of formation@9's comparative evidence, and the 25-case corpus formation@8/@10 are evaluated on.
CORPUS_V3_FILE: Final = "memory-formation.v3.json"
HOLDOUT_V3_FILE: Final = "memory-formation.v3-holdout.json"
HOLDOUT_V3_DIGEST_FILE: Final = "memory-formation.v3-holdout.sha256"
FORMATION_CORPUS_FILE: Final = "memory-formation.v2.json"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class EvidenceTuple(_Frozen):
    """The exact tuple an artifact was evaluated on and a running composition is compared against.

    The first seven are what a running composition knows (the reference); reasoning effort is the
    eighth (ADR-0119), None meaning the provider default."""

    extractor_version: Name
    formation_policy_version: Name
    model_policy: Name
    provider: Name
    model: Name
    policy_profile: Name
    compiled_policy_version: Name
    reasoning_effort: Name | None

    def differences(self, other: "EvidenceTuple") -> tuple[str, ...]:
        """The fields that differ, in TUPLE_FIELDS order; empty when the tuples are exactly equal."""
        return tuple(name for name in TUPLE_FIELDS if getattr(self, name) != getattr(other, name))


class _Bound(_Frozen):
    """The fields both artifact schemas share: the tuple (less effort), scorer, build ref, totals."""

    extractor_version: Name
    formation_policy_version: Name
    model_policy: Name
    provider: Name
    model: Name
    policy_profile: Name
    compiled_policy_version: Name
    scorer_version: Name
    build_ref: BuildRef
    corpus_digest: Digest
    repeats: PositiveInt
    seeded_case_count: NonNegativeInt
    provider_call_total: NonNegativeInt
    consolidation_total: NonNegativeInt
    cost_usd: NonNegativeFloat
    created_at: AwareDatetime

    @model_validator(mode="after")
    def _extractor_names_its_policy(self) -> Self:
        expected = EXTRACTOR_BY_FORMATION.get(self.formation_policy_version)
        if expected != self.extractor_version:
            raise ValueError(
                f"extractor_version {self.extractor_version} is not the extractor of "
                f"{self.formation_policy_version} ({expected})"
            )
        return self


class ArmMetrics(_Frozen):
    """One policy's numbers on one set in one run. Frozen controls score on statement equivalence alone."""

    formation_policy_version: Literal["formation@7", "formation@8", "formation@9"]
    direct_must_form_recall: Rate
    hypothesis_must_form_recall: Rate
    useful_recall: Rate
    precision: Rate
    # Share of gold evidence clauses formed or verifiably represented (not transient, unsafe, not memory).
    evidence_disposition_share: Rate
    represented_seeded_clauses: NonNegativeInt
    corrections_per_hundred: NonNegativeFloat
    boundary_failures: NonNegativeInt
    consolidations: NonNegativeInt
    segments: NonNegativeInt
    provider_calls: NonNegativeInt
    cost_usd: NonNegativeFloat


class SetMetrics(_Frozen):
    """One set (development corpus or holdout) in one run: every arm, and formation@9's lift over @8."""

    arms: tuple[ArmMetrics, ...] = Field(min_length=3, max_length=3)
    useful_lift: float = Field(ge=-1.0, le=1.0)
    claim_kinds_covered: NonNegativeInt

    @model_validator(mode="after")
    def _one_arm_per_policy(self) -> Self:
        policies = [arm.formation_policy_version for arm in self.arms]
        if sorted(policies) != sorted((FORMATION_7, FORMATION_8, FORMATION_9)):
            raise ValueError("a set holds exactly one arm each for formation@7, formation@8 and formation@9")
        candidate = self.arm(FORMATION_9)
        if candidate.provider_calls != CALLS_PER_SEGMENT * candidate.segments:
            raise ValueError("formation@9 makes exactly three provider calls per planned segment")
        return self

    def arm(self, policy: str) -> ArmMetrics:
        return next(arm for arm in self.arms if arm.formation_policy_version == policy)


class ComparativeRun(_Frozen):
    """One repeat of the comparative evaluation, on both sets."""

    index: NonNegativeInt
    development: SetMetrics
    holdout: SetMetrics


class MemoryDistillationEvidence(_Bound):
    """The formation@9 comparative artifact (schemas 7 and 8)."""

    artifact: Literal["memory-distillation"] = "memory-distillation"
    schema_version: Literal[7, 8]
    formation_policy_version: Literal["formation@9"]
    holdout_digest: Digest
    reasoning_effort: Name | None
    runs: tuple[ComparativeRun, ...] = Field(min_length=1)
    # At least one positive case ran against a populated store: a publication rule, so a schema rule.
    seeded_case_count: PositiveInt
    cost_usd: NonNegativeFloat = Field(lt=COMPARATIVE_COST_CEILING_USD)

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.schema_version == 7 and self.reasoning_effort is not None:
            raise ValueError(
                "a schema 7 artifact is provider-default evidence: reasoning_effort must be null"
            )
        _check_runs(self.repeats, [run.index for run in self.runs])
        return self

    @property
    def evidence_tuple(self) -> EvidenceTuple:
        return _tuple(self, self.reasoning_effort)


class FormationRun(_Frozen):
    """One repeat of a single-policy evaluation over the 25-case formation corpus."""

    index: NonNegativeInt
    recall: Rate
    precision: Rate
    boundary_failures: NonNegativeInt
    consolidations: NonNegativeInt
    provider_calls: NonNegativeInt
    skipped_calls: NonNegativeInt
    cost_usd: NonNegativeFloat

    @model_validator(mode="after")
    def _one_call_per_consolidation(self) -> Self:
        if self.provider_calls + self.skipped_calls > self.consolidations:
            raise ValueError("a single-call policy makes at most one provider call per consolidation")
        return self


class FormationPolicyEvidence(_Bound):
    """The formation@8 / formation@10 artifact. No effort field: it matches only a null effort."""

    artifact: Literal["memory-formation"] = "memory-formation"
    schema_version: Literal[1] = 1
    formation_policy_version: Literal["formation@8", "formation@10"]
    case_count: PositiveInt
    runs: tuple[FormationRun, ...] = Field(min_length=1)
    cost_usd: NonNegativeFloat = Field(lt=FORMATION_COST_CEILING_USD)

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.formation_policy_version == FORMATION_10 and self.seeded_case_count == 0:
            raise ValueError("formation@10 evidence comes from a populated store: seeded_case_count is 0")
        if self.seeded_case_count > self.case_count:
            raise ValueError("seeded_case_count exceeds case_count")
        _check_runs(self.repeats, [run.index for run in self.runs])
        return self

    @property
    def evidence_tuple(self) -> EvidenceTuple:
        return _tuple(self, None)


def _check_runs(repeats: int, indexes: list[int]) -> None:
    """Each repeat records its own numbers, in order: pooled gates are recomputable from the artifact."""
    if len(indexes) != repeats:
        raise ValueError(f"repeats is {repeats} but {len(indexes)} runs are recorded")
    if indexes != list(range(repeats)):
        raise ValueError("runs are recorded in order, indexed from 0")


def _tuple(artifact: _Bound, effort: str | None) -> EvidenceTuple:
    return EvidenceTuple(
        extractor_version=artifact.extractor_version,
        formation_policy_version=artifact.formation_policy_version,
        model_policy=artifact.model_policy,
        provider=artifact.provider,
        model=artifact.model,
        policy_profile=artifact.policy_profile,
        compiled_policy_version=artifact.compiled_policy_version,
        reasoning_effort=effort,
    )


EvidenceArtifact = Annotated[
    MemoryDistillationEvidence | FormationPolicyEvidence, Field(discriminator="artifact")
]
_ARTIFACT: Final = TypeAdapter(EvidenceArtifact)


def parse_artifact(document: bytes) -> MemoryDistillationEvidence | FormationPolicyEvidence:
    """One artifact from its JSON bytes; pydantic's ValidationError names the field that is wrong."""
    return _ARTIFACT.validate_json(document)
