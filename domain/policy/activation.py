"""Activation selection: which provider-assisted formation policy a running composition may run, and why.

A pure function of the running composition's tuple, the artifacts found, the corpus digests the running
tree ships, the mode (auto | required | off), the operator pin and the release identity. A provider policy
activates only on an artifact whose eight-field tuple equals the running one exactly, whose digests are the
shipped corpora's, whose scorer is the current one and, for an operator-supplied file, whose build ref is
the running release's commit (outside production the file is accepted and the gap recorded). auto prefers
formation@9, then formation@10, then formation@8; a pin narrows the search to that one policy; required
judges the pinned policy (formation@9 without a pin) and refuses rather than claim an unevaluated policy.
Anything else forms deterministically: formation@9's pipeline with no provider, every stage falling back.
"""

from datetime import datetime
from enum import StrEnum
from typing import Final, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict

from domain.errors import DomainError
from domain.owner import Owner
from domain.policy.evidence import (
    BuildRef,
    Digest,
    EvidenceTuple,
    FormationPolicyEvidence,
    MemoryDistillationEvidence,
)
from domain.policy.versions import (
    DISTILLATION_SCORER,
    EXTRACTOR_BY_FORMATION,
    FORMATION_8,
    FORMATION_9,
    FORMATION_10,
)
from domain.telemetry import AuditKind, AuditValue, FormationAudit

# auto's order (ADR-0086 decision 3): the candidate, the repaired control, the frozen control.
AUTO_ORDER: Final = (FORMATION_9, FORMATION_10, FORMATION_8)
PinnablePolicy = Literal["formation@8", "formation@9", "formation@10"]
# What the search attribute and the audit say when no provider policy is active.
DETERMINISTIC: Final = "deterministic"
# A selection belongs to a worker, not to anyone's memory: its audits live under this reserved owner.
SELECTION_AUDIT_OWNER: Final = Owner(tenant_id="system", principal_id="formation-selection")


class FormationMode(StrEnum):
    AUTO = "auto"
    REQUIRED = "required"
    OFF = "off"


class ArtifactSource(StrEnum):
    BUNDLED = "bundled"
    OPERATOR = "operator"


class Refusal(StrEnum):
    """Why one artifact cannot activate its policy."""

    TUPLE_MISMATCH = "tuple_mismatch"
    CORPUS_MISSING = "corpus_missing"
    CORPUS_DIGEST_MISMATCH = "corpus_digest_mismatch"
    SCORER_WITHDRAWN = "scorer_withdrawn"
    BUILD_REF_NOT_RELEASE = "build_ref_not_release"


class SelectionReason(StrEnum):
    EVIDENCED = "evidenced"
    MODE_OFF = "mode_off"
    CORPORA_MISSING = "corpora_missing"
    NO_EVIDENCED_POLICY = "no_evidenced_policy"
    PINNED_POLICY_UNEVIDENCED = "pinned_policy_unevidenced"
    PROVIDER_NOT_CONFIGURED = "provider_not_configured"


class ActivationRefused(DomainError):
    """required mode and no evidence for the judged policy: a worker must not start."""

    reason_code = "activation_refused"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RunningComposition(_Frozen):
    """The six fields a running composition knows besides the policy and its extractor."""

    model_policy: str
    provider: str
    model: str
    policy_profile: str
    compiled_policy_version: str
    reasoning_effort: str | None

    def tuple_for(self, policy: str) -> EvidenceTuple:
        return EvidenceTuple(
            extractor_version=EXTRACTOR_BY_FORMATION[policy],
            formation_policy_version=policy,
            **self.model_dump(),
        )


class ShippedCorpora(_Frozen):
    """Digests of the corpora the running tree ships; None where the file is absent."""

    corpus_digest: Digest | None
    holdout_digest: Digest | None
    formation_corpus_digest: Digest | None

    @property
    def any_shipped(self) -> bool:
        return any((self.corpus_digest, self.holdout_digest, self.formation_corpus_digest))


class Release(_Frozen):
    """The running release's identity: its commit when known, and whether this is production."""

    commit: BuildRef | None = None
    production: bool = False


# A tree run from a checkout with no release identity: not production, commit unknown.
UNRELEASED: Final = Release()


class FoundArtifact(_Frozen):
    name: str
    source: ArtifactSource
    evidence: MemoryDistillationEvidence | FormationPolicyEvidence

    @property
    def policy(self) -> str:
        return self.evidence.formation_policy_version


class ArtifactVerdict(_Frozen):
    """One artifact judged against the running composition; `fields` names what did not match."""

    name: str
    source: ArtifactSource
    policy: str
    refusal: Refusal | None
    fields: tuple[str, ...] = ()
    # An operator file accepted outside production, whose build ref nothing could check.
    build_ref_unverified: bool = False


class ActivationDecision(_Frozen):
    mode: FormationMode
    pin: str | None
    policy: str | None
    reason: SelectionReason
    running: EvidenceTuple
    artifact: str | None = None
    verdicts: tuple[ArtifactVerdict, ...] = ()
    refused: bool = False

    @property
    def formation_policy(self) -> str:
        """The pipeline that runs: the activated policy, or formation@9 with its stages falling back."""
        return self.policy or FORMATION_9

    @property
    def label(self) -> str:
        """The FormationPolicy search attribute's value and the start-up line's subject."""
        return self.policy or DETERMINISTIC

    def explanation(self) -> str:
        """One content-free sentence: what runs and why, naming the fields that did not match."""
        if self.policy is not None:
            gap = " (operator artifact, build ref unverified outside production)" if self._unverified else ""
            return f"{self.policy} active: artifact {self.artifact} matches the exact tuple{gap}"
        judged = self.pin or (FORMATION_9 if self.mode is FormationMode.REQUIRED else None)
        why = {
            SelectionReason.MODE_OFF: "formation mode is off",
            SelectionReason.CORPORA_MISSING: "the tree ships none of the evaluation corpora",
            SelectionReason.NO_EVIDENCED_POLICY: "no artifact matches the running tuple",
            SelectionReason.PINNED_POLICY_UNEVIDENCED: f"the pinned {self.pin} has no matching artifact",
            SelectionReason.PROVIDER_NOT_CONFIGURED: "the memory model's API key is not set",
        }.get(self.reason, self.reason.value)
        judged_verdicts = [v for v in self.verdicts if judged is None or v.policy == judged]
        details = "; ".join(
            f"{v.name}: {v.refusal.value}" + (f" ({', '.join(v.fields)})" if v.fields else "")
            for v in judged_verdicts
            if v.refusal is not None
        )
        if judged is not None and not judged_verdicts:
            details = f"no {judged} artifact found"
        lead = f"{judged} required but not evidenced" if self.refused else "deterministic formation"
        return f"{lead}: {why}" + (f"; {details}" if details else "")

    def summary(self) -> str:
        """What forms memories now and what to do to change it, in plain words for the person running the
        service; explanation() carries the reference design's terms and the per-artifact details."""
        running = self.running
        key = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}.get(
            running.provider, "its API key"
        )
        evaluate = (
            f"RUN_LIVE_MODEL_TESTS=1 agent eval memory-distillation --model-policy {running.model_policy} "
            "--output evidence.json, then MEMORY_EVIDENCE_PATH=evidence.json"
        )
        if self.refused:
            judged = self.pin or FORMATION_9
            return (
                f"MEMORY_FORMATION_MODE=required asks for {judged}, and no evaluation of {judged} on this "
                f"release matches the configured model, so a worker will not start. To start anyway, set "
                f"MEMORY_FORMATION_MODE=auto (memories are then formed by the built-in rule-based former); to "
                f"evaluate your model: {evaluate}."
            )
        if self.policy is not None:
            return (
                f"Memories are formed by {running.provider} {running.model} ({self.policy}), evaluated on this "
                f"release (evidence: {self.artifact})."
            )
        lead = "Memories are formed by the built-in rule-based former"
        if self.reason is SelectionReason.MODE_OFF:
            return (
                f"{lead}: MEMORY_FORMATION_MODE is off. To use an evaluated provider model, set it to auto."
            )
        if self.reason is SelectionReason.CORPORA_MISSING:
            return (
                f"{lead}: this installation does not ship the evaluation sets, so no provider model can be "
                "evaluated or activated. Install from the project's source tree to evaluate one."
            )
        if self.reason is SelectionReason.PROVIDER_NOT_CONFIGURED:
            return (
                f"{lead}: {running.provider} {running.model} has been evaluated on this release, but {key} "
                f"is not set. Set {key} to use it."
            )
        if self.reason is SelectionReason.PINNED_POLICY_UNEVIDENCED:
            return (
                f"{lead}: AGENT_MEMORY_FORMATION_POLICY_PIN holds {self.pin}, which has not been evaluated on "
                f"this release with the configured model. Unset the pin, or evaluate your model: {evaluate}."
            )
        why = (
            "no provider model has been evaluated for this release"
            if not self.verdicts
            else f"no evaluation on this release matches the configured model ({running.provider} {running.model})"
        )
        return f"{lead}; {why}. To use yours ({key} set): {evaluate}."

    @property
    def _unverified(self) -> bool:
        return any(v.build_ref_unverified for v in self.verdicts if v.name == self.artifact)

    def audit_details(self) -> dict[str, AuditValue]:
        """The content-free selection audit: the chosen policy, why, and the tuple it was judged on."""
        details: dict[str, AuditValue] = {
            "chosen_policy": self.label,
            "reason": self.reason.value,
            "mode": self.mode.value,
            "pin": self.pin,
            "artifact": self.artifact,
            "refused": self.refused,
            "build_ref_unverified": self._unverified,
        }
        details.update(self.running.model_dump())
        return details

    def require(self) -> None:
        if self.refused:
            raise ActivationRefused(f"{self.summary()} ({self.explanation()})")


def judge(
    found: FoundArtifact,
    running: RunningComposition,
    corpora: ShippedCorpora,
    release: Release,
    *,
    scorer: str = DISTILLATION_SCORER,
) -> ArtifactVerdict:
    """One artifact against the running composition, the shipped corpora and the release."""
    evidence = found.evidence

    def refused(refusal: Refusal, *fields: str) -> ArtifactVerdict:
        return ArtifactVerdict(
            name=found.name, source=found.source, policy=found.policy, refusal=refusal, fields=fields
        )

    differences = running.tuple_for(found.policy).differences(evidence.evidence_tuple)
    if differences:
        return refused(Refusal.TUPLE_MISMATCH, *differences)
    if evidence.scorer_version != scorer:
        return refused(Refusal.SCORER_WITHDRAWN, "scorer_version")
    for field, bound, shipped in _digests(evidence, corpora):
        if shipped is None:
            return refused(Refusal.CORPUS_MISSING, field)
        if bound != shipped:
            return refused(Refusal.CORPUS_DIGEST_MISMATCH, field)
    unverified = False
    if found.source is ArtifactSource.OPERATOR:
        if release.production and evidence.build_ref != release.commit:
            return refused(Refusal.BUILD_REF_NOT_RELEASE, "build_ref")
        unverified = not release.production and evidence.build_ref != release.commit
    return ArtifactVerdict(
        name=found.name,
        source=found.source,
        policy=found.policy,
        refusal=None,
        build_ref_unverified=unverified,
    )


def _digests(
    evidence: MemoryDistillationEvidence | FormationPolicyEvidence, corpora: ShippedCorpora
) -> list[tuple[str, str, str | None]]:
    if isinstance(evidence, MemoryDistillationEvidence):
        return [
            ("corpus_digest", evidence.corpus_digest, corpora.corpus_digest),
            ("holdout_digest", evidence.holdout_digest, corpora.holdout_digest),
        ]
    return [("corpus_digest", evidence.corpus_digest, corpora.formation_corpus_digest)]


def select_formation_policy(
    *,
    running: RunningComposition,
    artifacts: tuple[FoundArtifact, ...],
    corpora: ShippedCorpora,
    mode: FormationMode,
    pin: str | None = None,
    release: Release = UNRELEASED,
    provider_configured: bool = True,
) -> ActivationDecision:
    """The decision. A refusal (required, not evidenced) is a decision too: it says why, and require()
    raises it. Only a pin outside the three provider policies is a ValueError (settings refuse it first)."""
    if pin is not None and pin not in AUTO_ORDER:
        raise ValueError(f"a pin holds one of {', '.join(AUTO_ORDER)}")
    candidates = (pin,) if pin else AUTO_ORDER
    judged = pin or FORMATION_9
    if mode is FormationMode.OFF:
        return ActivationDecision(
            mode=mode,
            pin=pin,
            policy=None,
            reason=SelectionReason.MODE_OFF,
            running=running.tuple_for(judged),
        )
    verdicts = tuple(judge(found, running, corpora, release) for found in artifacts)
    chosen = next(
        (
            (policy, verdict)
            for policy in candidates
            if mode is FormationMode.AUTO or policy == judged
            for verdict in verdicts
            if verdict.policy == policy and verdict.refusal is None
        ),
        None,
    )
    if chosen is not None and provider_configured:
        policy, verdict = chosen
        return ActivationDecision(
            mode=mode,
            pin=pin,
            policy=policy,
            reason=SelectionReason.EVIDENCED,
            running=running.tuple_for(policy),
            artifact=verdict.name,
            verdicts=verdicts,
        )
    if chosen is not None:
        reason = SelectionReason.PROVIDER_NOT_CONFIGURED
    elif not corpora.any_shipped:
        reason = SelectionReason.CORPORA_MISSING
    elif pin:
        reason = SelectionReason.PINNED_POLICY_UNEVIDENCED
    else:
        reason = SelectionReason.NO_EVIDENCED_POLICY
    return ActivationDecision(
        mode=mode,
        pin=pin,
        policy=None,
        reason=reason,
        running=running.tuple_for(judged),
        verdicts=verdicts,
        refused=mode is FormationMode.REQUIRED,
    )


def selection_audit(decision: ActivationDecision, *, at: datetime, audit_id: UUID) -> FormationAudit:
    """One start-up's selection audit (pinned_policy_unevidenced among its reasons)."""
    return FormationAudit(
        id=audit_id,
        tenant_id=SELECTION_AUDIT_OWNER.tenant_id,
        principal_id=SELECTION_AUDIT_OWNER.principal_id,
        session_id=None,
        kind=AuditKind.SELECTION,
        dedupe_key=f"selection/{audit_id}",
        details=decision.audit_details(),
        created_at=at,
    )
