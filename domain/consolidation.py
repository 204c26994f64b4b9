"""Pure decisions of one consolidation round: which events a batch may take and what the round recorded.

The session watermark is the highest sequence number consolidated. It must never pass an event that was
not consolidated, so a batch stops before a gap in sequence numbers: an event appended out of order fills
the gap later and is consolidated in order by a following round. A gap that stays open longer than the
grace is taken as final (sequence numbers a client skipped), so one lost event cannot stall a session
forever; an event that arrives below the watermark after that is stored as late and the next round
consolidates it in a segment of its own (domain.formation.segments.plan_segments), so it is never
silently unreachable.
"""

from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Final
from uuid import UUID, uuid5

from domain.beliefs.commit import CommitReport
from domain.formation.stage_results import StageReport
from domain.owner import Owner
from domain.telemetry import ConsolidationRun, FailureClass, RunOutcome, Stage, StageOutcome

MAX_BATCH_EVENTS: Final = 4096
# Bounds one round's history (about 8 events per segment) and the text one load_batch reads.
MAX_BATCH_SEGMENTS: Final = 64
GAP_GRACE: Final = timedelta(minutes=10)
_QUIET_ROUND_NAMESPACE: Final = UUID("c3a9e7d4-2f61-4b8a-9d0e-71f5a2b6c8e3")


def consolidatable_prefix(
    watermark: int,
    seqs: Sequence[int],
    arrived_at: Sequence[datetime],
    *,
    now: datetime,
    gap_grace: timedelta = GAP_GRACE,
) -> int:
    """How many of the events (in seq order, all above the watermark) this round may consolidate. A gap's
    grace runs from arrived_at: when the event after it arrived on the server's clock (as now is), or the
    date it states if earlier, never a date ahead of the server."""
    expected = watermark + 1
    for index, (seq, at) in enumerate(zip(seqs, arrived_at, strict=True)):
        if seq != expected and now - at < gap_grace:
            return index
        expected = seq + 1
    return len(seqs)


def quiet_round_id(run: ConsolidationRun) -> UUID:
    """The run id of a round that found nothing to consolidate: one per session and watermark, so any
    number of idles on a session with no new events record one run, not one each."""
    return uuid5(
        _QUIET_ROUND_NAMESPACE, f"{run.tenant_id}/{run.principal_id}/{run.session_id}/{run.from_seq}"
    )


def summarize_round(
    *,
    run_id: UUID,
    owner: Owner,
    session_id: UUID,
    formation_policy: str,
    from_seq: int,
    to_seq: int,
    stage_reports: Sequence[StageReport],
    commits: Sequence[CommitReport],
    started_at: datetime,
    completed_at: datetime,
    poisoned: bool = False,
) -> ConsolidationRun:
    """The ConsolidationRun of one round, from its content-free reports; a poisoned round is one whose
    segment failed deterministically (what committed before it is counted)."""
    fallback_stages: list[Stage] = []
    for report in stage_reports:
        if report.outcome is StageOutcome.FALLBACK and report.stage not in fallback_stages:
            fallback_stages.append(report.stage)
    # A stage that formed deterministically because no provider policy is active did what it was configured
    # to do: only a provider call that was attempted or planned and failed makes the round a fallback.
    provider_fell_back = any(
        report.outcome is StageOutcome.FALLBACK and report.failure_class is not FailureClass.NOT_CONFIGURED
        for report in stage_reports
    )
    if poisoned:
        outcome = RunOutcome.POISONED
    elif not commits:
        outcome = RunOutcome.NOTHING_TO_DO
    elif provider_fell_back:
        outcome = RunOutcome.COMPLETED_WITH_FALLBACK
    else:
        outcome = RunOutcome.COMPLETED
    categories: Counter[str] = Counter()
    coverage: Counter[str] = Counter()
    for commit in commits:
        categories.update(commit.categories)
        coverage.update(commit.coverage)
    return ConsolidationRun.model_validate(
        {
            "id": run_id,
            "tenant_id": owner.tenant_id,
            "principal_id": owner.principal_id,
            "session_id": session_id,
            "formation_policy": formation_policy,
            "from_seq": from_seq,
            "to_seq": to_seq,
            "outcome": outcome,
            "segment_count": len(commits),
            "episode_count": sum(c.episodes_stored for c in commits),
            "provider_call_count": sum(r.provider_called for r in stage_reports),
            "fallback_stages": tuple(fallback_stages),
            "categories": dict(categories),
            "direct_proposed": sum(c.direct_proposed for c in commits),
            "direct_committed": sum(c.direct_committed for c in commits),
            "hypothesis_proposed": sum(c.hypothesis_proposed for c in commits),
            "hypothesis_committed": sum(c.hypothesis_committed for c in commits),
            "attributed_redundancies": sum(c.attributed_redundancies for c in commits),
            "coverage": dict(coverage),
            "rejected_provider_candidates": sum(c.rejected_provider_candidates for c in commits),
            "stage_metrics": tuple(r.metrics for r in stage_reports),
            "started_at": started_at,
            "completed_at": completed_at,
        }
    )
