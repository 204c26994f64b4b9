"""The agent-facing operations, each scoped by the caller's token (adapters.api.auth.Scope): what the HTTP
API and the MCP server both expose. Read-first over the governed service: recall, get, list and cite read
or touch only the caller's memories; remember, edit, reject and delete go through GovernedMemory, which
keeps them authoritative and durable.

Results are plain JSON-ready values. Nothing here logs: statements and spans go back to their owner only.
"""

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final
from uuid import UUID, uuid4

from adapters.api.append import append_session_events
from adapters.api.auth import Scope
from domain.beliefs.embedding import Embedder
from domain.beliefs.governed import GovernedMemory, GovernedResult
from domain.beliefs.provenance import explain
from domain.beliefs.recall import belief_by_reference, recall, user_trace_view
from domain.beliefs.records import MemoryRecord
from domain.beliefs.relevance import within
from domain.beliefs.retrieval import project, render_context
from domain.beliefs.usage import complete_run
from domain.candidates import ClaimKind, Sensitivity
from domain.errors import AmbiguousReference
from domain.events import MAX_SEQ, EventRef
from domain.owner import Owner
from domain.ports import UnitOfWork, UnitOfWorkFactory

MAX_RECALL: Final = 100
MAX_QUERY_CHARS: Final = 2_000
MAX_LIST_PAGE: Final = 500

# Signal-with-start of a session's consolidation; answers the workflow id.
IdleSignal = Callable[[Owner, UUID], Awaitable[str]]
# Whether a session's consolidation is idle, running or quarantined.
ConsolidationState = Callable[[Owner, UUID], Awaitable[str]]
# Returns when the session's consolidation is done, or after the timeout (seconds).
ConsolidationWait = Callable[[Owner, UUID, float], Awaitable[None]]


async def _unknown(_: Owner, __: UUID) -> str:
    return "unknown"


async def _no_wait(_: Owner, __: UUID, ___: float) -> None:
    return None


@dataclass(frozen=True)
class AgentSurface:
    store: UnitOfWorkFactory
    idle_signal: IdleSignal
    clock: Callable[[], datetime] = lambda: datetime.now(UTC)
    consolidation_state: ConsolidationState = _unknown
    consolidation_wait: ConsolidationWait = _no_wait
    # Recall by meaning; None: by words and retrieval@3 alone.
    embedder: Embedder | None = None

    @property
    def governed(self) -> GovernedMemory:
        return GovernedMemory(self.store)

    def append(self, scope: Scope, session_id: UUID, events: Sequence[Any]) -> dict[str, Any]:
        report = append_session_events(self.store, scope.owner, session_id, events, self.clock())
        return {
            "session_id": str(session_id),
            "appended": report.appended,
            "late": report.late,
            "already_present": report.already_present,
            "refused": [{"index": r.line, "field": r.field, "reason": r.reason} for r in report.refusals],
        }

    async def idle(self, scope: Scope, session_id: UUID) -> str:
        return await self.idle_signal(scope.owner, session_id)

    async def wait(self, scope: Scope, session_id: UUID, timeout_s: float) -> None:
        await self.consolidation_wait(scope.owner, session_id, timeout_s)

    async def status(self, scope: Scope, session_id: UUID) -> dict[str, Any]:
        """Events stored (up to last_seq), consolidated (up to the watermark), the last round's outcome and
        time, and whether a consolidation is running or quarantined: ids, counts and times only."""
        with self.store() as uow:
            last = uow.events.read_before(scope.owner, session_id, MAX_SEQ + 1, 1)
            watermark = uow.watermarks.get(scope.owner, session_id)
            runs = uow.runs.for_session(scope.owner, session_id)
        last_seq = last[-1].seq if last else 0
        latest = max(runs, key=lambda run: run.completed_at, default=None)
        return {
            "session_id": str(session_id),
            "last_seq": last_seq,
            "watermark": watermark,
            "pending": max(0, last_seq - watermark),
            "last_round": None
            if latest is None
            else {
                "outcome": latest.outcome.value,
                "from_seq": latest.from_seq,
                "to_seq": latest.to_seq,
                "segment_count": latest.segment_count,
                "started_at": latest.started_at.isoformat(),
                "completed_at": latest.completed_at.isoformat(),
            },
            "consolidation": await self.consolidation_state(scope.owner, session_id),
        }

    def recall(self, scope: Scope, query: str | None, k: int) -> dict[str, Any]:
        """The rendered <recalled-memories> block, each memory's projection with provenance, the
        user-safe trace, and the ids to hand back when completing the run."""
        now = self.clock()
        with self.store() as uow:
            recalled = recall(
                uow,
                scope.owner,
                now,
                min(k, MAX_RECALL),
                query=query,
                ceiling=scope.ceiling,
                embedder=self.embedder,
            )
            memories = explain(uow, scope.owner, list(recalled.records), now)
        return {
            "context": render_context(recalled.beliefs),
            "memories": memories,
            "returned_ids": [str(i) for i in recalled.returned_ids],
            "trace": user_trace_view(recalled.trace),
        }

    def get(self, scope: Scope, reference: str) -> dict[str, Any] | None:
        """One belief (live or closed) by id or m:xxxxxxxx reference: its projection with provenance, and the
        block an agent would put into its prompt, which renders a live belief only (a rejected, deleted or
        replaced one is no memory to act on); None when the caller holds no such belief (a foreign id is
        indistinguishable from an unknown one)."""
        now = self.clock()
        with self.store() as uow:
            record = self._find(uow, scope, reference)
            if record is None:
                return None
            [belief] = explain(uow, scope.owner, [record], now)
        shown = [project(record, now)] if record.is_live else []
        return {"context": render_context(shown), "belief": belief}

    def page(self, scope: Scope, after: UUID | None, limit: int) -> dict[str, Any]:
        """The caller's live beliefs within its ceiling in id order, a page at a time (next: the cursor)."""
        now = self.clock()
        allowed = within(scope.ceiling)
        wanted = max(1, min(limit, MAX_LIST_PAGE))
        with self.store() as uow:
            rows = uow.beliefs.page(scope.owner, after, wanted)
            shown = [r for r in rows if r.sensitivity in allowed]
            beliefs = explain(uow, scope.owner, shown, now)
        return {
            "context": render_context([project(r, now) for r in shown]),
            "beliefs": beliefs,
            "next": str(rows[-1].id) if len(rows) == wanted else None,
        }

    def cite(
        self, scope: Scope, run_id: UUID, returned: Sequence[UUID], cited: Sequence[UUID]
    ) -> dict[str, Any]:
        with self.store() as uow:
            report = complete_run(uow, scope.owner, run_id, returned, cited, self.clock())
            uow.commit()
        return report.model_dump(mode="json")

    def remember(
        self,
        scope: Scope,
        *,
        request_id: UUID,
        subject: str,
        statement: str,
        claim_kind: ClaimKind,
        source: EventRef,
        sensitivity: Sensitivity,
    ) -> GovernedResult:
        return self.governed.remember(
            scope.owner,
            request_id=request_id,
            subject=subject,
            statement=statement,
            claim_kind=claim_kind,
            source=source,
            now=self.clock(),
            sensitivity=sensitivity,
        )

    def edit(
        self, scope: Scope, reference: str, *, request_id: UUID, statement: str
    ) -> GovernedResult | None:
        belief_id = self._resolve(scope, reference)
        if belief_id is None:
            return None
        return self.governed.edit(
            scope.owner, belief_id, request_id=request_id, statement=statement, now=self.clock()
        )

    def confirm(self, scope: Scope, reference: str, *, request_id: UUID) -> GovernedResult | None:
        """The person says a formed belief (a guess, typically) is true: remembered in its place."""
        belief_id = self._resolve(scope, reference)
        if belief_id is None:
            return None
        return self.governed.confirm(scope.owner, belief_id, request_id=request_id, now=self.clock())

    def close(
        self, scope: Scope, reference: str, action: str, request_id: UUID | None
    ) -> GovernedResult | None:
        """reject or delete (the governed closes an agent may ask for)."""
        belief_id = self._resolve(scope, reference)
        if belief_id is None:
            return None
        closing = {"reject": self.governed.reject, "delete": self.governed.delete}[action]
        return closing(scope.owner, belief_id, request_id=request_id or uuid4(), now=self.clock())

    def _resolve(self, scope: Scope, reference: str) -> UUID | None:
        with self.store() as uow:
            record = self._find(uow, scope, reference)
        return None if record is None else record.id

    @staticmethod
    def _find(uow: UnitOfWork, scope: Scope, reference: str) -> MemoryRecord | None:
        """The caller's belief a reference names, if it is within the caller's ceiling: above it, a belief
        is as absent to the caller as a foreign one."""
        try:
            found = belief_by_reference(uow, scope.owner, reference)
        except AmbiguousReference:
            raise
        except ValueError:
            return None
        if found is None or found.sensitivity not in within(scope.ceiling):
            return None
        return found
