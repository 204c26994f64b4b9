"""The governed memory service: writes that are not automatic formation.

Explicit remember, user edit, rejection, retraction and deletion are the user's own acts. They are
authoritative (an automatic candidate under a subject the user holds is a conflict, never an overwrite) and
durable: what they close stays closed as a tombstone (domain.beliefs.records.USER_CLOSED_REASONS), and commit_segment
refuses any candidate that restates a tombstoned claim from evidence no later than the user's act, so no
integration, distillation, retry, replay or re-pass recreates it. Audits carry ids and action codes only."""

import uuid
from dataclasses import asdict, dataclass
from datetime import datetime
from enum import StrEnum
from uuid import UUID

from domain.beliefs.records import Authority, ClosedReason, MemoryRecord
from domain.candidates import ClaimKind, Derivation, Longevity, Sensitivity
from domain.events import OWNER_ASSERTION_KINDS, EventRef
from domain.formation.grounding import holds_credential, holds_injection
from domain.owner import Owner
from domain.policy.versions import LIFECYCLE
from domain.ports import ErasureCounts, UnitOfWork, UnitOfWorkFactory
from domain.telemetry import AuditKind, FormationAudit

EXPLICIT_CONFIDENCE = 0.95
GOVERNED_FORMATION = "governed"
_GOVERNED_NAMESPACE = uuid.UUID("0d6c2f0e-8f8e-4b59-9a53-2b1d7f3f6a11")


class GovernedAction(StrEnum):
    REMEMBER = "remember"
    EDIT = "edit"
    REJECT = "reject"
    RETRACT = "retract"
    DELETE = "delete"
    CONFIRM = "confirm"
    ERASE = "erase"


class GovernedOutcome(StrEnum):
    APPLIED = "applied"
    ALREADY_APPLIED = "already_applied"
    # An act on a belief another act already closed (closed_as says which): nothing changed.
    ALREADY_CLOSED = "already_closed"
    NOT_FOUND = "not_found"
    REFUSED_CREDENTIAL = "refused_credential"
    REFUSED_INJECTION = "refused_injection"
    # A remember must rest on the user's own words: an assistant reply, a tool result or read mail is not.
    SOURCE_NOT_USER = "source_not_user"


# The outcomes that refuse a request and store nothing, each its own reason code.
REFUSALS: frozenset[GovernedOutcome] = frozenset(
    {GovernedOutcome.REFUSED_CREDENTIAL, GovernedOutcome.REFUSED_INJECTION, GovernedOutcome.SOURCE_NOT_USER}
)

_CLOSING: dict[GovernedAction, ClosedReason] = {
    GovernedAction.REJECT: ClosedReason.REJECTED,
    GovernedAction.RETRACT: ClosedReason.RETRACTED,
    GovernedAction.DELETE: ClosedReason.DELETED,
}


# What each replacing act closes the old belief as, and the authority of the one filed in its place.
_REPLACING: dict[GovernedAction, tuple[ClosedReason, Authority]] = {
    GovernedAction.EDIT: (ClosedReason.EDITED, Authority.USER_EDIT),
    GovernedAction.CONFIRM: (ClosedReason.SUPERSEDED, Authority.EXPLICIT_REMEMBER),
}


@dataclass(frozen=True)
class GovernedResult:
    outcome: GovernedOutcome
    belief_id: UUID | None = None
    # With ALREADY_CLOSED: how the belief was closed (rejected, deleted, edited, superseded, retired...).
    closed_as: ClosedReason | None = None


@dataclass(frozen=True)
class Erasure:
    outcome: GovernedOutcome
    # What this erasure removed; None when the request had already been carried out.
    counts: ErasureCounts | None


class GovernedMemory:
    """Each call is one unit of work, idempotent on its request id."""

    def __init__(self, uow_factory: UnitOfWorkFactory) -> None:
        self._uow_factory = uow_factory

    def remember(
        self,
        owner: Owner,
        *,
        request_id: UUID,
        subject: str,
        statement: str,
        claim_kind: ClaimKind,
        source: EventRef,
        now: datetime,
        sensitivity: Sensitivity = Sensitivity.INTERNAL,
    ) -> GovernedResult:
        """Explicit remember: confidence 0.95, durable, outside automatic expiry (authority says so).
        Sourced from one of the owner's own events (NOT_FOUND otherwise) in which the owner speaks: a user
        message or a paired-surface message (SOURCE_NOT_USER otherwise)."""
        refused = _refusal(statement)
        if refused is not None:
            return GovernedResult(refused)
        belief_id = _written_id(owner, request_id)
        with self._uow_factory() as uow:
            if uow.beliefs.get(owner, belief_id) is not None:
                return GovernedResult(GovernedOutcome.ALREADY_APPLIED, belief_id)
            facts = uow.events.facts(owner, [source])
            if not facts:
                return GovernedResult(GovernedOutcome.NOT_FOUND)
            if facts[0].kind not in OWNER_ASSERTION_KINDS:
                return GovernedResult(GovernedOutcome.SOURCE_NOT_USER)
            uow.beliefs.upsert(
                _record(owner, belief_id, subject, statement, claim_kind, sensitivity, (source,), now)
            )
            _audit(uow, owner, GovernedAction.REMEMBER, request_id, belief_id, now)
            uow.commit()
        return GovernedResult(GovernedOutcome.APPLIED, belief_id)

    def edit(
        self, owner: Owner, belief_id: UUID, *, request_id: UUID, statement: str, now: datetime
    ) -> GovernedResult:
        """Close the old wording as an edit tombstone and file the user's wording in its place."""
        refused = _refusal(statement)
        if refused is not None:
            return GovernedResult(refused)
        return self._replace(owner, belief_id, GovernedAction.EDIT, request_id, now, statement=statement)

    def confirm(self, owner: Owner, belief_id: UUID, *, request_id: UUID, now: datetime) -> GovernedResult:
        """The user says a formed belief (a hypothesis, typically) is true: it is superseded, not
        tombstoned, by a remembered belief with the same words, sources and cited spans."""
        return self._replace(owner, belief_id, GovernedAction.CONFIRM, request_id, now, statement=None)

    def _replace(
        self,
        owner: Owner,
        belief_id: UUID,
        action: GovernedAction,
        request_id: UUID,
        now: datetime,
        *,
        statement: str | None,
    ) -> GovernedResult:
        """Close a live belief and file the user's version in its place: their wording (an edit, whose
        tombstone keeps the old wording from forming again) or the same words confirmed (which supersedes
        it, spans and all)."""
        closing, authority = _REPLACING[action]
        new_id = _written_id(owner, request_id)
        with self._uow_factory() as uow:
            if uow.beliefs.get(owner, new_id) is not None:
                return GovernedResult(GovernedOutcome.ALREADY_APPLIED, new_id)
            old = uow.beliefs.close_validity(owner, belief_id, now, closing)
            if old is None:
                # Not this request again (its replacement would exist above): another act closed it.
                return _not_live(uow, owner, belief_id, same=None)
            replacement = _record(
                owner,
                new_id,
                old.subject,
                old.statement if statement is None else statement,
                old.claim_kind,
                old.sensitivity,
                old.source_event_ids,
                now,
                authority=authority,
            )
            # A confirmation keeps the spans it rests on; new wording is no longer what they said.
            spans = old.evidence_spans if statement is None else ()
            uow.beliefs.upsert(
                replacement.model_copy(
                    update={"corroboration_count": old.corroboration_count, "evidence_spans": spans}
                )
            )
            _audit(uow, owner, action, request_id, belief_id, now)
            uow.commit()
        return GovernedResult(GovernedOutcome.APPLIED, new_id)

    def erase(self, owner: Owner, *, request_id: UUID, now: datetime) -> Erasure:
        """Principal erasure at the principal's own request: everything held about them goes, except the
        content-free audits of their erasures (ids, action and counts), one more of which says this one
        happened. Waits for a commit of theirs in flight, so nothing it forms lands after the erasure."""
        key = f"governed/{GovernedAction.ERASE.value}/{request_id}"
        with self._uow_factory() as uow:
            uow.serialize_principal(owner)
            earlier = [
                a
                for a in uow.audits.for_owner(owner, AuditKind.GOVERNED_WRITE)
                if a.details.get("action") == GovernedAction.ERASE.value
            ]
            if any(a.dedupe_key == key for a in earlier):
                return Erasure(GovernedOutcome.ALREADY_APPLIED, None)
            counts = uow.erase_principal(owner)
            done = FormationAudit(
                id=uuid.uuid4(),
                tenant_id=owner.tenant_id,
                principal_id=owner.principal_id,
                session_id=None,
                kind=AuditKind.GOVERNED_WRITE,
                dedupe_key=key,
                details={"action": GovernedAction.ERASE.value, **asdict(counts)},
                created_at=now,
            )
            uow.audits.record_many([*earlier, done])
            uow.commit()
        return Erasure(GovernedOutcome.APPLIED, counts)

    def reject(self, owner: Owner, belief_id: UUID, *, request_id: UUID, now: datetime) -> GovernedResult:
        return self._close(owner, belief_id, GovernedAction.REJECT, request_id, now)

    def retract(self, owner: Owner, belief_id: UUID, *, request_id: UUID, now: datetime) -> GovernedResult:
        return self._close(owner, belief_id, GovernedAction.RETRACT, request_id, now)

    def delete(self, owner: Owner, belief_id: UUID, *, request_id: UUID, now: datetime) -> GovernedResult:
        return self._close(owner, belief_id, GovernedAction.DELETE, request_id, now)

    def _close(
        self, owner: Owner, belief_id: UUID, action: GovernedAction, request_id: UUID, now: datetime
    ) -> GovernedResult:
        with self._uow_factory() as uow:
            closed = uow.beliefs.close_validity(owner, belief_id, now, _CLOSING[action])
            if closed is None:
                return _not_live(uow, owner, belief_id, same=_CLOSING[action])
            _audit(uow, owner, action, request_id, belief_id, now)
            uow.commit()
        return GovernedResult(GovernedOutcome.APPLIED, belief_id)


def _not_live(uow: UnitOfWork, owner: Owner, belief_id: UUID, *, same: ClosedReason | None) -> GovernedResult:
    """The answer to an act on a belief that is not live: unknown, or closed. The same act again (a retried
    request, or a second delete) is done already; another act's close stands and is named, so a delete
    never reads as done after a reject, nor an edit of a rejected belief as not found."""
    existing = uow.beliefs.get(owner, belief_id)
    if existing is None:
        return GovernedResult(GovernedOutcome.NOT_FOUND)
    if same is not None and existing.closed_reason is same:
        return GovernedResult(GovernedOutcome.ALREADY_APPLIED, belief_id)
    return GovernedResult(GovernedOutcome.ALREADY_CLOSED, belief_id, existing.closed_reason)


def _written_id(owner: Owner, request_id: UUID) -> UUID:
    """The id of the belief a remember or edit request writes: the same on every retry of the request."""
    return uuid.uuid5(_GOVERNED_NAMESPACE, f"{owner.tenant_id}/{owner.principal_id}/{request_id}")


def _refusal(statement: str) -> GovernedOutcome | None:
    # The trust exclusions bind the user's own writes too: a secret or an injected instruction is not memory.
    if holds_credential(statement):
        return GovernedOutcome.REFUSED_CREDENTIAL
    if holds_injection(statement):
        return GovernedOutcome.REFUSED_INJECTION
    return None


def _record(
    owner: Owner,
    belief_id: UUID,
    subject: str,
    statement: str,
    claim_kind: ClaimKind,
    sensitivity: Sensitivity,
    sources: tuple[EventRef, ...],
    now: datetime,
    *,
    authority: Authority = Authority.EXPLICIT_REMEMBER,
) -> MemoryRecord:
    return MemoryRecord(
        id=belief_id,
        tenant_id=owner.tenant_id,
        principal_id=owner.principal_id,
        subject=subject,
        statement=statement,
        belief_type=claim_kind.value,
        claim_kind=claim_kind,
        derivation=Derivation.DIRECT,
        longevity=Longevity.DURABLE,
        confidence=EXPLICIT_CONFIDENCE,
        sensitivity=sensitivity,
        authority=authority,
        source_event_ids=sources,
        formation_version=GOVERNED_FORMATION,
        lifecycle_policy_version=LIFECYCLE,
        valid_from=now,
        last_evidence_at=now,
        evidence_count=max(1, len(sources)),
        corroboration_count=max(1, len({s.session_id for s in sources})),
        updated_at=now,
    )


def _audit(
    uow: UnitOfWork, owner: Owner, action: GovernedAction, request_id: UUID, belief_id: UUID, now: datetime
) -> None:
    uow.audits.record(
        FormationAudit(
            id=uuid.uuid4(),
            tenant_id=owner.tenant_id,
            principal_id=owner.principal_id,
            session_id=None,
            kind=AuditKind.GOVERNED_WRITE,
            dedupe_key=f"governed/{action.value}/{request_id}",
            details={"action": action.value, "belief_id": str(belief_id)},
            created_at=now,
        )
    )
