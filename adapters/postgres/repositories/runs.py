"""The consolidation-run repository: one row per run, idempotent on run id."""

from typing import Any
from uuid import UUID

from sqlalchemy import Connection, Row, select
from sqlalchemy.dialects.postgresql import insert

from adapters.postgres.repositories.rows import Repo, owned
from adapters.postgres.tables import consolidation_runs
from domain.owner import Owner
from domain.telemetry import (
    ConsolidationRun,
    CoverageDisposition,
    ReasonCategory,
    RunOutcome,
    Stage,
    StageMetrics,
)


def _run(row: Row[Any], with_metrics: bool) -> ConsolidationRun:
    metrics = row.stage_metrics if with_metrics else []
    return ConsolidationRun(
        id=row.id,
        tenant_id=row.tenant_id,
        principal_id=row.principal_id,
        session_id=row.session_id,
        formation_policy=row.formation_policy,
        from_seq=row.from_seq,
        to_seq=row.to_seq,
        outcome=RunOutcome(row.outcome),
        segment_count=row.segment_count,
        episode_count=row.episode_count,
        provider_call_count=row.provider_call_count,
        fallback_stages=tuple(Stage(s) for s in row.fallback_stages),
        categories={ReasonCategory(k): int(v) for k, v in row.categories.items()},
        direct_proposed=row.direct_proposed,
        direct_committed=row.direct_committed,
        hypothesis_proposed=row.hypothesis_proposed,
        hypothesis_committed=row.hypothesis_committed,
        attributed_redundancies=row.attributed_redundancies,
        coverage={CoverageDisposition(k): int(v) for k, v in row.coverage.items()},
        rejected_provider_candidates=row.rejected_provider_candidates,
        stage_metrics=tuple(StageMetrics.model_validate(m) for m in metrics),
        started_at=row.started_at,
        completed_at=row.completed_at,
    )


class PostgresRuns(Repo):
    def __init__(self, connection: Connection, *, with_stage_metrics: bool) -> None:
        super().__init__(connection)
        self._with_metrics = with_stage_metrics
        self._columns = [c for c in consolidation_runs.c if with_stage_metrics or c.name != "stage_metrics"]

    def record(self, run: ConsolidationRun) -> bool:
        values: dict[str, Any] = {
            "id": run.id,
            "tenant_id": run.tenant_id,
            "principal_id": run.principal_id,
            "session_id": run.session_id,
            "formation_policy": run.formation_policy,
            "from_seq": run.from_seq,
            "to_seq": run.to_seq,
            "outcome": run.outcome.value,
            "segment_count": run.segment_count,
            "episode_count": run.episode_count,
            "provider_call_count": run.provider_call_count,
            "fallback_stages": [s.value for s in run.fallback_stages],
            "categories": {k.value: v for k, v in run.categories.items()},
            "direct_proposed": run.direct_proposed,
            "direct_committed": run.direct_committed,
            "hypothesis_proposed": run.hypothesis_proposed,
            "hypothesis_committed": run.hypothesis_committed,
            "attributed_redundancies": run.attributed_redundancies,
            "coverage": {k.value: v for k, v in run.coverage.items()},
            "rejected_provider_candidates": run.rejected_provider_candidates,
            "started_at": run.started_at,
            "completed_at": run.completed_at,
        }
        if self._with_metrics:
            values["stage_metrics"] = [m.model_dump(mode="json") for m in run.stage_metrics]
        recorded = self._c.execute(
            insert(consolidation_runs)
            .values(values)
            .on_conflict_do_nothing(index_elements=[consolidation_runs.c.id])
            .returning(consolidation_runs.c.id)
        ).first()
        return recorded is not None

    def for_session(self, owner: Owner, session_id: UUID) -> list[ConsolidationRun]:
        rows = self._c.execute(
            select(*self._columns).where(
                owned(consolidation_runs, owner), consolidation_runs.c.session_id == session_id
            )
        )
        return sorted(
            (_run(row, self._with_metrics) for row in rows), key=lambda r: (r.started_at, str(r.id))
        )
