"""What the memory page offers its one signed-in person besides the agent surface's reads and governed
writes: what they removed, the turns around a cited span, their formation tuple choice (ADR-0119),
export, and erasure. Every call is scoped by the person's key (adapters.api.auth.Scope) and, for
beliefs, by its sensitivity ceiling, exactly as the agent surface is.

Results are plain JSON-ready values. Nothing here logs: statements, spans and turns go back to their owner.
"""

from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any, Final
from uuid import UUID

from adapters.api.auth import Scope
from adapters.api.surface import MAX_LIST_PAGE, AgentSurface
from domain.beliefs.governed import Erasure, GovernedMemory
from domain.beliefs.provenance import explain
from domain.beliefs.records import USER_CLOSED_REASONS, MemoryRecord
from domain.beliefs.relevance import within
from domain.events import EventRef, SourceEvent
from domain.owner import Owner
from domain.policy.alternatives import (
    AlternativeEvidence,
    FormationChoice,
    TupleDecision,
    TupleReason,
    choose_formation_tuple,
)
from domain.ports import UnitOfWorkFactory

# The turns shown on each side of a cited one.
CONTEXT_TURNS: Final = 3
# What the page reads of a principal's beliefs to list what they removed: a bounded number of id pages.
MAX_CLOSED_PAGES: Final = 20
EXPORT_PAGE: Final = 1_000
EXPORT_VERSION: Final = 1


@dataclass(frozen=True)
class TupleOption:
    """A tuple the person may move their formation to: the configured one, or an evidenced alternative."""

    model_policy: str
    model: str
    reasoning_effort: str | None
    artifact: str | None

    @property
    def value(self) -> str:
        return f"{self.model_policy}@{self.reasoning_effort or ''}"


@dataclass(frozen=True)
class FormationView:
    chosen: FormationChoice | None
    runs: TupleDecision
    # The configured tuple first, then each evidenced alternative.
    options: tuple[TupleOption, ...]
    # No model forms memories here (no artifact activated a provider policy): the rule-based former does.
    by_rules: bool

    @property
    def current(self) -> TupleOption:
        """The offered tuple formation runs on now."""
        return next(
            (
                o
                for o in self.options
                if (o.model_policy, o.reasoning_effort)
                == (self.runs.model_policy, self.runs.reasoning_effort)
            ),
            self.options[0],
        )


def _turn(event: SourceEvent) -> dict[str, Any]:
    return {
        "session_id": str(event.session_id),
        "seq": event.seq,
        "kind": event.kind.value,
        "text": event.text,
        "occurred_at": event.occurred_at.isoformat(),
    }


@dataclass(frozen=True)
class PersonSurface:
    agent: AgentSurface
    # What an alternative tuple is judged against (the composition's); None: only the configured tuple.
    alternatives: AlternativeEvidence | None = None
    clock: Callable[[], datetime] = lambda: datetime.now(UTC)

    @property
    def store(self) -> UnitOfWorkFactory:
        return self.agent.store

    def removed(self, scope: Scope) -> list[dict[str, Any]]:
        """The beliefs the person closed (rejected, forgotten, retracted, or replaced by an edit), within
        the key's ceiling, most recently closed first: they stay visible, and they stay closed."""
        now = self.clock()
        allowed = within(scope.ceiling)
        found: list[MemoryRecord] = []
        after: UUID | None = None
        with self.store() as uow:
            for _ in range(MAX_CLOSED_PAGES):
                rows = uow.beliefs.page(scope.owner, after, MAX_LIST_PAGE, live_only=False)
                found += [
                    r for r in rows if r.closed_reason in USER_CLOSED_REASONS and r.sensitivity in allowed
                ]
                if len(rows) < MAX_LIST_PAGE:
                    break
                after = rows[-1].id
            found.sort(key=lambda r: (r.valid_to or now, r.id), reverse=True)
            return explain(uow, scope.owner, found, now)

    def surrounding(self, scope: Scope, reference: str, cited: EventRef) -> list[dict[str, Any]] | None:
        """The turns around one event a belief of the person's cites, in order; None when the person holds
        no such belief or it does not cite that event (nothing else of a session is reachable)."""
        belief = self.agent.get(scope, reference)
        if belief is None or not any(
            (p["session_id"], p["seq"]) == (str(cited.session_id), cited.seq)
            for p in belief["belief"]["provenance"]
        ):
            return None
        with self.store() as uow:
            before = uow.events.read_before(scope.owner, cited.session_id, cited.seq, CONTEXT_TURNS)
            from_cited = uow.events.read_range(
                scope.owner, cited.session_id, cited.seq - 1, CONTEXT_TURNS + 1
            )
        return [_turn(e) for e in (*before, *from_cited)]

    def formation(self, scope: Scope) -> FormationView:
        with self.store() as uow:
            chosen = uow.formation_choices.get(scope.owner)
        configured = self._configured()
        runs = (
            choose_formation_tuple(chosen, self.alternatives)
            if self.alternatives is not None
            else TupleDecision(
                reason=TupleReason.CONFIGURED,
                model_policy=configured.model_policy,
                reasoning_effort=configured.reasoning_effort,
            )
        )
        by_rules = self.alternatives is None or self.alternatives.activation.policy is None
        return FormationView(chosen=chosen, runs=runs, options=self._options(scope.owner), by_rules=by_rules)

    def choose_formation(self, scope: Scope, value: str) -> TupleDecision | None:
        """Move the person's formation to one of the offered tuples (the configured one withdraws the
        choice); None when value names no offered tuple."""
        option = next((o for o in self._options(scope.owner) if o.value == value), None)
        if option is None:
            return None
        with self.store() as uow:
            if option.artifact is None:
                uow.formation_choices.clear(scope.owner)
            else:
                uow.formation_choices.put(
                    self._choice(scope.owner, option.model_policy, option.reasoning_effort)
                )
            uow.commit()
        return self.formation(scope).runs

    def _configured(self) -> TupleOption:
        if self.alternatives is None:
            return TupleOption(model_policy="configured", model="", reasoning_effort=None, artifact=None)
        configured = self.alternatives.configured
        return TupleOption(configured.model_policy, configured.model, configured.reasoning_effort, None)

    def _choice(self, owner: Owner, profile: str, effort: str | None) -> FormationChoice:
        return FormationChoice(
            tenant_id=owner.tenant_id,
            principal_id=owner.principal_id,
            model_policy=profile,
            reasoning_effort=effort,
            chosen_at=self.clock(),
        )

    def _options(self, owner: Owner) -> tuple[TupleOption, ...]:
        """The configured tuple and every alternative an artifact evidences on this tree (ADR-0119: no
        other is offered)."""
        configured = self._configured()
        evidence = self.alternatives
        if evidence is None:
            return (configured,)
        offered = [configured]
        for name, profile in sorted(evidence.profiles.items()):
            for effort in (None, *sorted(profile.accepted_efforts)):
                decision = choose_formation_tuple(self._choice(owner, name, effort), evidence)
                if decision.reason is TupleReason.EVIDENCED:
                    offered.append(TupleOption(name, profile.model, effort, decision.artifact))
        return tuple(offered)

    def export(self, scope: Scope) -> dict[str, Any]:
        """Everything the product holds about the person: every event of every session, the episodes and
        consolidation runs formed from them, their beliefs (live and closed, with provenance) within the
        key's ceiling, their formation choice and the audit trail."""
        now = self.clock()
        owner = scope.owner
        allowed = within(scope.ceiling)
        events: list[SourceEvent] = []
        beliefs: list[dict[str, Any]] = []
        with self.store() as uow:
            after_event: EventRef | None = None
            while page := uow.events.page(owner, after_event, EXPORT_PAGE):
                events += page
                after_event = EventRef(session_id=page[-1].session_id, seq=page[-1].seq)
            after: UUID | None = None
            while rows := uow.beliefs.page(owner, after, EXPORT_PAGE, live_only=False):
                beliefs += explain(uow, owner, [r for r in rows if r.sensitivity in allowed], now)
                after = rows[-1].id
            sessions = sorted({e.session_id for e in events})
            episodes = [e for s in sessions for e in uow.episodes.for_session(owner, s)]
            runs = [r for s in sessions for r in uow.runs.for_session(owner, s)]
            choice = uow.formation_choices.get(owner)
            audits = uow.audits.for_owner(owner)
        return {
            "export_version": EXPORT_VERSION,
            "exported_at": now.isoformat(),
            "tenant_id": owner.tenant_id,
            "principal_id": owner.principal_id,
            "events": [_turn(e) for e in events],
            "episodes": [e.model_dump(mode="json") for e in episodes],
            "beliefs": beliefs,
            "consolidation_runs": [r.model_dump(mode="json") for r in runs],
            "formation_choice": choice.model_dump(mode="json") if choice else None,
            "audits": [a.model_dump(mode="json") for a in audits],
        }

    def erase(self, scope: Scope, request_id: UUID) -> dict[str, Any]:
        erasure: Erasure = GovernedMemory(self.store).erase(
            scope.owner, request_id=request_id, now=self.clock()
        )
        return {
            "outcome": erasure.outcome.value,
            "counts": asdict(erasure.counts) if erasure.counts else None,
        }
