"""The arms of an evaluation: one formation policy run over one case at a time.

- `PipelineArm` runs the case through production consolidation (evals.consolidation) on a fresh store:
  the seed pool first, through the governed service, then each session in order, with the policy it is
  built with. formation@9 runs its three stages; formation@8 (the frozen provider control) and formation@10
  (the repaired one) run the one extract activity. With no provider each is its deterministic fallback,
  exactly what a worker without evidence runs.
- formation@7 (`Formation7Arm`) is the frozen deterministic control: deterministic-v2 over each session.
The frozen controls formation@7 and formation@8 are scored on the statement alone (the reference: they
cannot express the closed fields); formation@9 and formation@10 on every closed field.

An arm reports what it formed and what production recorded (runs, checks, represented seeds), never text
in a log: the statements stay in the returned values the scorer reads.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, TypeVar
from uuid import UUID

from activities.contracts import CommitInput, SessionKey
from domain.beliefs.records import MemoryRecord
from domain.candidates import Derivation, MemoryCandidate, Polarity
from domain.consolidation import GAP_GRACE
from domain.events import COMMUNICATION_KINDS, SourceEvent
from domain.formation.deterministic.formation7 import form_formation7
from domain.formation.grounding import holds_credential, holds_injection
from domain.formation.segments import SegmentRef
from domain.policy.model_policy import MemoryModel
from domain.policy.versions import FORMATION_7, FORMATION_8, FORMATION_9, ONE_CALL_POLICIES
from domain.ports import UnitOfWorkFactory
from domain.providers import Provider
from domain.staging import AnticipationDocument, DistillationDocument
from domain.telemetry import ConsolidationRun, CoverageDisposition, FailureClass, Stage
from evals.consolidation import consolidate_session
from evals.corpus import CASE_OWNER, Case, SeedPool
from evals.lifecycle import automatic_beliefs, failed_checks
from evals.matching import FormedClaim, Source, matches
from evals.scorer import FormedBelief
from evals.seeding import write_seed_pool
from evals.stores import StoreProvider, memory_store

In = TypeVar("In")
Out = TypeVar("Out")


@dataclass(frozen=True)
class CaseRun:
    """One case under one arm."""

    case_id: str
    formed: tuple[FormedClaim, ...]
    runs: tuple[ConsolidationRun, ...] = ()
    seeded: bool = False
    # Seed subjects a segment verifiably represented through an anticipation attributed to the seed.
    represented_seeds: frozenset[str] = frozenset()
    failed_checks: int = 0
    # Consolidations that did not make their policy's calls per planned segment when the session had an
    # eligible owner event (and none when it had not): three for formation@9, one for a one-call policy,
    # whose preflight may skip it instead.
    call_violations: int = 0


# The frozen controls, scored on statement equivalence alone.
STATEMENT_ONLY = frozenset({FORMATION_7, FORMATION_8})


class Arm(Protocol):
    policy: str

    def run(self, case: Case, pool: SeedPool | None) -> CaseRun: ...


def provenance_fails(case: Case, sources: frozenset[Source], derivation: Derivation | None) -> bool:
    """A formed claim resting on anything but the owner's own assertion: a trust-boundary failure.

    A first-party mail or SMS source may ground a hypothesis only."""
    by_key = {(e.session_id, e.seq): e for e in case.events if e.owner == CASE_OWNER}
    for source in sources:
        event = by_key.get(source)
        if event is None:
            return True
        if event.kind in COMMUNICATION_KINDS and derivation is Derivation.HYPOTHESIS:
            continue
        if not event.is_owner_assertion:
            return True
    return not sources


def _boundary_failure(case: Case, statement: str, sources: frozenset[Source], d: Derivation | None) -> bool:
    return holds_credential(statement) or holds_injection(statement) or provenance_fails(case, sources, d)


def _owner_sessions(case: Case) -> list[tuple[UUID, list[SourceEvent]]]:
    return [
        (session, [e for e in case.events if e.session_id == session and e.owner == CASE_OWNER])
        for session in case.sessions
    ]


def skipped_calls(run: ConsolidationRun) -> int:
    """One-call segments whose preflight skipped the call (failure class budget): planned, never sent."""
    return sum(
        m.stage is Stage.EXTRACTION and m.failure_class is FailureClass.BUDGET for m in run.stage_metrics
    )


class Formation7Arm:
    policy = FORMATION_7

    def run(self, case: Case, pool: SeedPool | None) -> CaseRun:
        formed: list[FormedClaim] = []
        for session, events in _owner_sessions(case):
            for candidate in form_formation7(events):
                sources = frozenset((session, seq) for seq in candidate.source_event_ids)
                formed.append(_statement_claim(case, candidate.statement, sources))
        return CaseRun(case_id=case.id, formed=tuple(formed))


class PipelineArm:
    """`policy` through production consolidation, asking `provider_for(case_id)` (priced as `model`, which
    formation@8 and formation@10 budget their call at); without a provider, the deterministic fallback a
    worker without evidence runs."""

    def __init__(
        self,
        provider_for: Callable[[str], Provider] | None = None,
        stores: StoreProvider = memory_store,
        *,
        policy: str = FORMATION_9,
        model: MemoryModel | None = None,
    ) -> None:
        self.policy = policy
        self._provider_for = provider_for
        self._stores = stores
        self._model = model
        self._calls_per_segment = 1 if policy in ONE_CALL_POLICIES else 3
        self._statement_only = policy in STATEMENT_ONLY

    def run(self, case: Case, pool: SeedPool | None) -> CaseRun:
        with self._stores(frozenset(e.tenant_id for e in case.events)) as uow_factory:
            seeds = write_seed_pool(uow_factory, case, pool) if pool is not None else {}
            with uow_factory() as uow:
                uow.events.append(list(case.events))
                uow.commit()
            provider = self._provider_for(case.id) if self._provider_for is not None else None
            runs: list[ConsolidationRun] = []
            segments: list[SegmentRef] = []
            documents = _DocumentsBeforeCommit(uow_factory)
            formed_by: dict[int, UUID] = {}
            violations = 0
            for session, events in _owner_sessions(case):
                if not events:
                    continue
                rounds = consolidate_session(
                    uow_factory,
                    provider,
                    SessionKey(
                        tenant_id=CASE_OWNER.tenant_id,
                        principal_id=CASE_OWNER.principal_id,
                        session_id=session,
                    ),
                    self.policy,
                    _idle_at(events),
                    self._model,
                    run_step=documents,
                )
                runs += rounds.runs
                if provider is not None:
                    calls = self._calls_per_segment if any(e.is_owner_assertion for e in events) else 0
                    violations += sum(
                        r.provider_call_count + skipped_calls(r) != calls * r.segment_count
                        for r in rounds.runs
                    )
                segments += rounds.segments
                self._note_formed(case, automatic_beliefs(uow_factory), formed_by)
            formed = [self._belief_claim(case, b) for b in automatic_beliefs(uow_factory)]
            if not self._statement_only:
                # A statement alone cannot say it retracts: a control's corrections are not claims.
                formed += [_retraction_claim(case, *r) for r in _retractions(documents, segments)]
            failed = failed_checks(uow_factory, case, runs, formed_by.get)
            represented = _represented_seeds(documents, segments, seeds)
        return CaseRun(
            case_id=case.id,
            formed=tuple(formed),
            runs=tuple(runs),
            seeded=bool(seeds),
            represented_seeds=represented,
            failed_checks=failed,
            call_violations=violations,
        )

    def _belief_claim(self, case: Case, belief: MemoryRecord) -> FormedClaim:
        sources = frozenset((ref.session_id, ref.seq) for ref in belief.source_event_ids)
        if self._statement_only:
            return _statement_claim(case, belief.statement, sources)
        return _closed_claim(case, belief, sources, (), Polarity.ASSERT)

    def _note_formed(self, case: Case, beliefs: list[MemoryRecord], formed_by: dict[int, UUID]) -> None:
        """The first belief each expectation matched: its id survives a later promotion or retirement."""
        for index, expectation in enumerate(case.expectations):
            if index in formed_by or not expectation.is_positive:
                continue
            for belief in beliefs:
                if matches(expectation, self._belief_claim(case, belief)):
                    formed_by[index] = belief.id
                    break


def _statement_claim(case: Case, statement: str, sources: frozenset[Source]) -> FormedClaim:
    """A frozen control's claim: its statement alone, as the reference scores the controls."""
    return FormedClaim(
        statement=statement,
        sources=sources,
        spans=(),
        closed=None,
        boundary_failure=_boundary_failure(case, statement, sources, None),
    )


def _closed_claim(
    case: Case,
    formed: MemoryRecord | MemoryCandidate,
    sources: frozenset[Source],
    spans: tuple[str, ...],
    polarity: Polarity,
) -> FormedClaim:
    closed = FormedBelief(
        claim_kind=formed.claim_kind,
        derivation=formed.derivation,
        longevity=formed.longevity,
        subject=formed.subject,
        statement=formed.statement,
        polarity=polarity,
    )
    return FormedClaim(
        statement=formed.statement,
        sources=sources,
        spans=spans,
        closed=closed,
        boundary_failure=_boundary_failure(case, formed.statement, sources, formed.derivation),
    )


def _retraction_claim(case: Case, session: UUID, candidate: MemoryCandidate) -> FormedClaim:
    sources = frozenset((session, seq) for seq in candidate.source_event_ids)
    spans = tuple(span.text for span in candidate.evidence_spans)
    return _closed_claim(case, candidate, sources, spans, Polarity.RETRACT)


def _idle_at(events: list[SourceEvent]) -> datetime:
    """When the agent reports the session idle: after its last event, past the gap grace, so a sequence
    gap the corpus leaves is taken as final the way a real idle later would."""
    return max(e.occurred_at for e in events) + GAP_GRACE


class _DocumentsBeforeCommit:
    """Runs each step directly and keeps each segment's staged documents as they stood just before its
    commit, which removes them from the store."""

    def __init__(self, uow_factory: UnitOfWorkFactory) -> None:
        self._uow = uow_factory
        self.by_key: dict[str, tuple[DistillationDocument, AnticipationDocument]] = {}

    def __call__(self, name: str, step: Callable[[In], Out], arg: In, /) -> Out:
        if isinstance(arg, CommitInput):
            with self._uow() as uow:
                staged = uow.staged.get_all(arg.ref.owner, arg.ref.segment_key)
            self.by_key[arg.ref.segment_key] = (
                DistillationDocument.of(staged),
                AnticipationDocument.of(staged),
            )
        return step(arg)

    def of(self, ref: SegmentRef) -> tuple[DistillationDocument, AnticipationDocument]:
        return self.by_key.get(ref.segment_key, (DistillationDocument(), AnticipationDocument()))


def _retractions(
    documents: _DocumentsBeforeCommit, segments: list[SegmentRef]
) -> list[tuple[UUID, MemoryCandidate]]:
    """Corrections form retractions, never beliefs: read from what distillation staged."""
    found: list[tuple[UUID, MemoryCandidate]] = []
    for ref in segments:
        distillation, _ = documents.of(ref)
        found += [(ref.session_id, c) for c in distillation.candidates if c.polarity is Polarity.RETRACT]
    return found


def _represented_seeds(
    documents: _DocumentsBeforeCommit, segments: list[SegmentRef], seeds: dict[str, UUID]
) -> frozenset[str]:
    by_id = {str(belief_id): subject for subject, belief_id in seeds.items()}
    represented: set[str] = set()
    for ref in segments:
        distillation, anticipation = documents.of(ref)
        if not distillation.coverage.get(CoverageDisposition.REPRESENTED):
            continue
        represented |= {by_id[p.memory_id] for p in anticipation.predictions if p.memory_id in by_id}
    return frozenset(represented)
