"""Runs the three stages and the commit of one segment in process, the way the activities do."""

from datetime import datetime
from uuid import UUID, uuid4

from domain.beliefs.commit import CommitReport, commit_segment
from domain.events import SourceEvent
from domain.formation.anticipation import (
    CUE_SENSITIVITIES,
    MEMORY_POOL,
    anticipation_outcome,
    anticipation_request,
    earliest_evidence_seq,
    select_cue_memories,
)
from domain.formation.clauses import count_coverage_units
from domain.formation.distillation import distillation_outcome, distillation_request
from domain.formation.integration import integration_outcome, integration_request, staged_episodes
from domain.formation.segments import EventFootprint, SegmentRef, plan_segments
from domain.formation.stage_results import ProviderAnswer, StageReport
from domain.owner import Owner
from domain.policy.versions import FORMATION_9
from domain.ports import UnitOfWorkFactory
from domain.providers import Provider, ProviderFailure, ProviderRequest
from domain.staging import StagedKind, StagedOutput


def call(provider: Provider | None, request: ProviderRequest | None) -> ProviderAnswer:
    if provider is None or request is None:
        return None
    try:
        return provider.complete(request)
    except ProviderFailure as failure:
        return failure


def consolidate(
    uow_factory: UnitOfWorkFactory,
    owner: Owner,
    session_id: UUID,
    provider: Provider | None,
    *,
    now: datetime,
    run_id: UUID | None = None,
) -> tuple[list[StageReport], list[CommitReport]]:
    run_id = run_id or uuid4()
    with uow_factory() as uow:
        after = uow.watermarks.get(owner, session_id)
        batch = uow.events.read_range(owner, session_id, after, 10_000)
    footprints = [
        EventFootprint(seq=e.seq, size_bytes=e.size_bytes, coverage_units=count_coverage_units(e.text))
        for e in batch
    ]
    reports: list[StageReport] = []
    commits: list[CommitReport] = []
    admitted = 0
    for ref in plan_segments(owner, session_id, FORMATION_9, footprints):
        events = [e for e in batch if ref.first_seq <= e.seq <= ref.last_seq]
        integration = integration_outcome(
            ref, events, call(provider, integration_request(ref, events)), now=now
        )
        with uow_factory() as uow:
            before = earliest_evidence_seq(ref, events)
            cue = uow.events.read_before(owner, session_id, before, 1_000)
            memories = select_cue_memories(
                uow.beliefs.most_recent(owner, MEMORY_POOL, CUE_SENSITIVITIES),
                " ".join(e.text for e in events if e.is_owner_assertion),
            )
        anticipation = anticipation_outcome(
            ref,
            memories,
            call(
                provider, anticipation_request(ref, cue, memories, before_seq=before, segment_events=events)
            ),
        )
        predictions = anticipation.document["predictions"]
        distill_req = distillation_request(ref, events, staged_episodes(integration.document), predictions)
        distillation = distillation_outcome(ref, events, predictions, memories, call(provider, distill_req))
        reports += [integration.report, anticipation.report, distillation.report]
        with uow_factory() as uow:
            for kind, result in (
                (StagedKind.INTEGRATION, integration),
                (StagedKind.ANTICIPATION, anticipation),
                (StagedKind.DISTILLATION, distillation),
            ):
                uow.staged.put(_staged(ref, kind, result.document))
            commit = commit_segment(uow, ref, run_id, now=now, admitted_before=admitted)
            uow.commit()
        admitted += commit.admitted
        commits.append(commit)
    with uow_factory() as uow:
        if batch:
            uow.watermarks.compare_and_set(owner, session_id, after, batch[-1].seq)
        uow.commit()
    return reports, commits


def _staged(ref: SegmentRef, kind: StagedKind, document: dict[str, object]) -> StagedOutput:
    return StagedOutput(
        tenant_id=ref.tenant_id,
        principal_id=ref.principal_id,
        session_id=ref.session_id,
        segment_key=ref.segment_key,
        stage=kind,
        document=document,
    )


def append(uow_factory: UnitOfWorkFactory, events: list[SourceEvent]) -> None:
    with uow_factory() as uow:
        uow.events.append(events)
        uow.commit()
