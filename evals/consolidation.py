"""One session's consolidation as production runs it, without Temporal: the same activities, in order.

Mirrors ConsolidateSessionWorkflow's round (workflows/consolidate_session.py): load_batch plans the
segments; each segment runs its policy's stages as workflows/stages.py does (integrate_episodes,
anticipate and distill for formation@9, extract alone for formation@8 and formation@10) and then
commit_segment; advance_watermark records the round's ConsolidationRun with the watermark move. The
activity methods are called directly, so what the evaluation counts (provider calls, dispositions,
reason categories) is what production records. Rounds repeat while the plan says more is pending.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Final, Protocol, TypeVar
from uuid import uuid4

from activities.batch import BatchActivities
from activities.commit import CommitActivities
from activities.contracts import AdvanceWatermarkInput, CommitInput, LoadBatchInput, SessionKey, StageInput
from activities.stages import StageActivities
from domain.beliefs.commit import CommitReport
from domain.consolidation import summarize_round
from domain.formation.segments import SegmentRef
from domain.formation.stage_results import StageReport
from domain.policy.model_policy import MemoryModel
from domain.policy.versions import ONE_CALL_POLICIES
from domain.ports import UnitOfWorkFactory
from domain.providers import Provider
from domain.telemetry import ConsolidationRun

# A case is a conversation, not a backlog: more rounds than this means the plan never drains.
MAX_ROUNDS: Final = 16

In = TypeVar("In")
Out = TypeVar("Out")


class StepRunner(Protocol):
    """Runs one activity step by name: directly, or measured (benchmarks/activity_steps.py)."""

    def __call__(self, name: str, step: Callable[[In], Out], arg: In, /) -> Out: ...


def run_directly(name: str, step: Callable[[In], Out], arg: In, /) -> Out:
    return step(arg)


@dataclass
class SessionRounds:
    """What one idle did: the runs its rounds recorded and the segments they planned."""

    runs: list[ConsolidationRun] = field(default_factory=list)
    segments: list[SegmentRef] = field(default_factory=list)


def consolidate_session(
    uow_factory: UnitOfWorkFactory,
    provider: Provider | None,
    session: SessionKey,
    formation_policy: str,
    now: datetime,
    model: MemoryModel | None = None,
    run_step: StepRunner = run_directly,
) -> SessionRounds:
    """Every round of one idle on `session`, consolidated at `now`; `model` is what `provider` calls, the
    model formation@8 and formation@10 budget their one call at; `run_step` runs each activity step."""

    def clock() -> datetime:
        return now

    batch = BatchActivities(uow_factory, clock)
    activities = StageActivities(uow_factory, provider, clock, model=model)
    stages = (
        (activities.extract,)
        if formation_policy in ONE_CALL_POLICIES
        else (activities.integrate_episodes, activities.anticipate, activities.distill)
    )
    commit = CommitActivities(uow_factory, clock)
    rounds = SessionRounds()
    resume = None
    for _ in range(MAX_ROUNDS):
        plan = run_step(
            "load_batch",
            batch.load_batch,
            LoadBatchInput(session=session, formation_policy=formation_policy, resume=resume),
        )
        # A round that stopped inside an event planned in pieces: the next plans it from there.
        resume = plan.resume
        if plan.empty:
            break
        run_id = uuid4()
        reports: list[StageReport] = []
        commits: list[CommitReport] = []
        admitted = 0
        for ref in plan.segments:
            stage_input = StageInput(ref=ref, run_id=run_id)
            reports += [run_step(stage.__name__, stage, stage_input) for stage in stages]
            report = run_step(
                "commit_segment",
                commit.commit_segment,
                CommitInput(ref=ref, run_id=run_id, admitted_before=admitted),
            )
            admitted += report.admitted
            commits.append(report)
        run = summarize_round(
            run_id=run_id,
            owner=session.owner,
            session_id=session.session_id,
            formation_policy=formation_policy,
            from_seq=plan.watermark,
            to_seq=plan.last_seq,
            stage_reports=reports,
            commits=commits,
            started_at=now,
            completed_at=now,
        )
        run_step(
            "advance_watermark",
            batch.advance_watermark,
            AdvanceWatermarkInput(session=session, expected=plan.watermark, new=plan.last_seq, run=run),
        )
        rounds.runs.append(run)
        rounds.segments += plan.segments
        if not plan.more_pending:
            break
    return rounds
