"""ConsolidateSession's input and results.

They live outside workflows/consolidate_session.py, built once per process: while that workflow ran in the
sandbox, which re-ran its module for every workflow it started, rebuilding these pydantic schemas each time
was a visible share of the worker's CPU per consolidation (the workflow now runs unsandboxed).
"""

from uuid import UUID

from pydantic import BaseModel, ConfigDict, NonNegativeInt, PositiveFloat, PositiveInt

from activities.contracts import Quarantine, SessionKey
from domain.formation.segments import PieceResume, SeqRange
from domain.telemetry import RunOutcome
from workflows.policies import HISTORY_EVENT_BUDGET


class ConsolidateSessionInput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    session: SessionKey
    formation_policy: str
    # Carried across continue-as-new: an idle seen by the previous run still owes a round.
    idle_pending: bool = True
    rounds_before: NonNegativeInt = 0
    history_event_budget: PositiveInt = HISTORY_EVENT_BUDGET
    # The first wait of a re-pass this session starts (an operator setting); None: the provider control's.
    repass_initial_backoff_s: PositiveFloat | None = None
    # The command sequence this execution takes (workflows/revisions.py), carried across continue-as-new;
    # 0: started before revisions, so patches are asked of workflow.patched.
    revision: NonNegativeInt = 0
    # Carried across continue-as-new: the last round stopped inside an event planned in pieces.
    resume: PieceResume | None = None


class RoundResult(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    run_id: UUID
    outcome: RunOutcome
    from_seq: NonNegativeInt
    to_seq: NonNegativeInt
    segment_count: NonNegativeInt
    held_back: NonNegativeInt
    watermark_advanced: bool
    repass_segments: tuple[NonNegativeInt, ...] = ()
    quarantine: Quarantine | None = None
    # The late events' ranges (below from_seq) the round consolidated; empty in older histories.
    late: tuple[SeqRange, ...] = ()


class ConsolidationProgress(BaseModel):
    """Where a consolidation is, for a waiting caller: counts only."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # Rounds completed, those of earlier runs (before continue-as-new) included, as in the summary.
    rounds: NonNegativeInt
    # The running round's: None until its batch is planned, and again once the round has ended.
    segments_planned: NonNegativeInt | None = None
    segments_committed: NonNegativeInt = 0


class ConsolidationSummary(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    rounds: NonNegativeInt
    last_round: RoundResult | None = None
