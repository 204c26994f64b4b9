"""Owner-selected alternative tuples (ADR-0119): which memory tuple one owner's formation@9 call runs on.

On the People default path the owner may move formation to another tuple (a model policy profile and a
reasoning effort) that a bundled or bound operator formation@9 artifact evaluated exactly on this tree. The
choice is judged at each call, like activation, by `judge`: a choice no artifact evidences, withdrawn by its
owner or by a withdrawn artifact, falls back to the configured tuple with a content-free reason.
"""

from collections.abc import Mapping
from enum import StrEnum
from typing import Final

from pydantic import AwareDatetime, BaseModel, ConfigDict

from domain.owner import BoundedId, Owner
from domain.policy.activation import (
    ActivationDecision,
    FoundArtifact,
    Release,
    RunningComposition,
    ShippedCorpora,
    judge,
)
from domain.policy.evidence import Name
from domain.policy.model_policy import MemoryModel
from domain.policy.versions import EXTRACTOR_BY_FORMATION, FORMATION_9

# What a label says for a null effort: the provider's default.
PROVIDER_DEFAULT: Final = "default"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class FormationChoice(_Frozen):
    """One owner's chosen tuple: a memory model profile and the effort its artifact evaluated."""

    tenant_id: str = BoundedId
    principal_id: str = BoundedId
    model_policy: Name
    reasoning_effort: Name | None
    chosen_at: AwareDatetime

    @property
    def owner(self) -> Owner:
        return Owner(tenant_id=self.tenant_id, principal_id=self.principal_id)


class TupleReason(StrEnum):
    CONFIGURED = "configured"
    EVIDENCED = "evidenced"
    POLICY_NOT_FORMATION_9 = "policy_not_formation_9"
    UNKNOWN_PROFILE = "unknown_profile"
    EFFORT_NOT_ACCEPTED = "effort_not_accepted"
    ALTERNATIVE_UNEVIDENCED = "alternative_unevidenced"


class AlternativeEvidence(_Frozen):
    """What a choice is judged against, gathered once at start-up: the activation decision, the configured
    composition, the profiles of the shipped memory-model policy, the artifacts, corpora and release."""

    activation: ActivationDecision
    configured: RunningComposition
    profiles: Mapping[str, MemoryModel]
    artifacts: tuple[FoundArtifact, ...]
    corpora: ShippedCorpora
    release: Release


class TupleDecision(_Frozen):
    """The tuple one call runs on. `model` is set only for an evidenced alternative."""

    reason: TupleReason
    model_policy: str
    reasoning_effort: str | None
    model: MemoryModel | None = None
    artifact: str | None = None

    def formed_on(self) -> str | None:
        """For an alternative, the extractor's name followed by its policy and effort
        (nemori-assisted-v1/<profile>@<effort>); None on the configured tuple."""
        if self.model is None:
            return None
        effort = self.reasoning_effort or PROVIDER_DEFAULT
        return f"{EXTRACTOR_BY_FORMATION[FORMATION_9]}/{self.model_policy}@{effort}"


def choose_formation_tuple(choice: FormationChoice | None, evidence: AlternativeEvidence) -> TupleDecision:
    """The owner's evidenced alternative, or the configured tuple and why the choice does not hold."""
    configured = evidence.configured

    def fallback(reason: TupleReason) -> TupleDecision:
        return TupleDecision(
            reason=reason, model_policy=configured.model_policy, reasoning_effort=configured.reasoning_effort
        )

    if choice is None or (
        choice.model_policy == configured.model_policy
        and choice.reasoning_effort == configured.reasoning_effort
    ):
        return fallback(TupleReason.CONFIGURED)
    if evidence.activation.policy != FORMATION_9:
        return fallback(TupleReason.POLICY_NOT_FORMATION_9)
    profile = evidence.profiles.get(choice.model_policy)
    if profile is None:
        return fallback(TupleReason.UNKNOWN_PROFILE)
    model = profile.model_copy(update={"reasoning_effort": choice.reasoning_effort})
    if choice.reasoning_effort is not None and choice.reasoning_effort not in profile.accepted_efforts:
        return fallback(TupleReason.EFFORT_NOT_ACCEPTED)
    running = configured.model_copy(
        update={
            "model_policy": choice.model_policy,
            "provider": model.provider,
            "model": model.model,
            "reasoning_effort": choice.reasoning_effort,
        }
    )
    matching = next(
        (
            found.name
            for found in evidence.artifacts
            if found.policy == FORMATION_9
            and judge(found, running, evidence.corpora, evidence.release).refusal is None
        ),
        None,
    )
    if matching is None:
        return fallback(TupleReason.ALTERNATIVE_UNEVIDENCED)
    return TupleDecision(
        reason=TupleReason.EVIDENCED,
        model_policy=choice.model_policy,
        reasoning_effort=choice.reasoning_effort,
        model=model,
        artifact=matching,
    )
