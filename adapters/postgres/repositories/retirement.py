"""The retirement sweep's SQL: the expiry scan and conditional close of the by-facts sweep, and the
one-statement page (rows, closes and audits) over beliefs_expires_live with the horizon rendered as SQL."""

from datetime import datetime
from typing import Any, Final, Literal

from sqlalchemy import Connection, case, false, or_, text

from adapters.postgres.tables import beliefs
from domain.beliefs.lifecycle import (
    DURABLE_HORIZON_DAYS,
    HYPOTHESIS_HORIZON,
    ONGOING_HORIZON,
    SWEEP_PAGE_SIZE,
    ExpiryCursor,
    ExpiryCutoffs,
    ExpiryFacts,
    SweepLane,
    SweepPage,
)
from domain.beliefs.records import Authority, ClosedReason
from domain.candidates import ClaimKind, Derivation, Longevity
from domain.policy.versions import LIFECYCLE
from domain.telemetry import AuditKind

FACT_COLUMNS = (
    beliefs.c.id,
    beliefs.c.tenant_id,
    beliefs.c.principal_id,
    beliefs.c.last_evidence_at,
    beliefs.c.valid_from,
    beliefs.c.authority,
    beliefs.c.derivation,
    beliefs.c.longevity,
    beliefs.c.claim_kind,
)


def expiry_facts_of(row: Any) -> ExpiryFacts:
    return ExpiryFacts(
        id=row.id,
        tenant_id=row.tenant_id,
        principal_id=row.principal_id,
        last_evidence_at=row.last_evidence_at,
        valid_from=row.valid_from,
        authority=Authority(row.authority),
        derivation=Derivation(row.derivation),
        longevity=Longevity(row.longevity),
        claim_kind=ClaimKind(row.claim_kind),
    )


def expired_sql(cutoffs: ExpiryCutoffs) -> Any:
    """ExpiryCutoffs.expired rendered as SQL; the contract suite holds the two to the same answers."""
    evidence = beliefs.c.last_evidence_at
    durable_cutoff = case(
        {kind.value: cutoff for kind, cutoff in cutoffs.durable.items()}, value=beliefs.c.claim_kind
    )
    return case(
        (beliefs.c.authority == Authority.EXPLICIT_REMEMBER.value, false()),
        (
            or_(
                beliefs.c.derivation == Derivation.HYPOTHESIS.value,
                beliefs.c.longevity == Longevity.TENTATIVE.value,
            ),
            evidence <= cutoffs.hypothesis,
        ),
        (beliefs.c.longevity == Longevity.ONGOING.value, evidence <= cutoffs.ongoing),
        (beliefs.c.longevity == Longevity.DURABLE.value, evidence <= durable_cutoff),
        else_=false(),
    )


# Conditional on every deciding fact: a belief closed, re-evidenced, promoted or edited since the page was
# read keeps its row; two sweeps racing on one row serialize on its lock and the second finds it closed.
RETIRE = text(
    """
    UPDATE beliefs AS b
       SET valid_to = v.valid_to, closed_reason = v.reason, updated_at = v.valid_to, version = b.version + 1
      FROM unnest(CAST(:ids AS uuid[]), CAST(:tenants AS text[]), CAST(:principals AS text[]),
                  CAST(:valid_tos AS timestamptz[]), CAST(:reasons AS text[]),
                  CAST(:evidence AS timestamptz[]), CAST(:authorities AS text[]),
                  CAST(:derivations AS text[]), CAST(:longevities AS text[]), CAST(:kinds AS text[]))
           AS v(id, tenant_id, principal_id, valid_to, reason, last_evidence_at, authority, derivation,
                longevity, claim_kind)
     WHERE b.id = v.id
       AND b.tenant_id = v.tenant_id
       AND b.principal_id = v.principal_id
       AND b.valid_to IS NULL
       AND b.last_evidence_at = v.last_evidence_at
       AND b.authority = v.authority
       AND b.derivation = v.derivation
       AND b.longevity = v.longevity
       AND b.claim_kind = v.claim_kind
    RETURNING b.id
    """
)


def _seconds(delta: Any) -> int:
    return int(delta.total_seconds())


def _horizon_sql() -> tuple[str, str]:
    """domain.beliefs.lifecycle.horizon_of rendered as SQL over the row's current facts: (seconds, reason).
    Built from the domain's constants; the contract suite holds this store's sweep to the domain's answers."""
    durable = " ".join(
        f"WHEN '{kind.value}' THEN {days * 86400}" for kind, days in DURABLE_HORIZON_DAYS.items()
    )
    guard = (
        f"b.authority = '{Authority.EXPLICIT_REMEMBER.value}' THEN NULL "
        f"WHEN b.derivation = '{Derivation.HYPOTHESIS.value}' OR b.longevity = '{Longevity.TENTATIVE.value}'"
    )
    seconds = (
        f"CASE WHEN {guard} THEN {_seconds(HYPOTHESIS_HORIZON)}"
        f" WHEN b.longevity = '{Longevity.ONGOING.value}' THEN {_seconds(ONGOING_HORIZON)}"
        f" WHEN b.longevity = '{Longevity.DURABLE.value}' THEN CASE b.claim_kind {durable} END END"
    )
    reason = (
        f"CASE WHEN {guard} THEN '{ClosedReason.RETIRED_HYPOTHESIS.value}'"
        f" WHEN b.longevity = '{Longevity.ONGOING.value}' THEN '{ClosedReason.RETIRED_ONGOING.value}'"
        f" WHEN b.longevity = '{Longevity.DURABLE.value}' THEN '{ClosedReason.RETIRED_DURABLE.value}' END"
    )
    return seconds, reason


# The lane's next expired live rows after the cursor, straight from beliefs_expires_live.
SWEEP_PAGE_CTE: Final = """page AS (
          SELECT id, expires_at FROM beliefs
           WHERE valid_to IS NULL AND expires_at IS NOT NULL AND expires_at <= :now
             AND id >= CAST(:lane_first AS uuid) AND (CAST(:lane_end AS uuid) IS NULL OR id < CAST(:lane_end AS uuid))
             AND (CAST(:after_id AS uuid) IS NULL
                  OR (expires_at, id) > (CAST(:after_expires AS timestamptz), CAST(:after_id AS uuid)))
           ORDER BY expires_at, id
           LIMIT :limit
        )"""


def _sweep_statement() -> Any:
    """One retirement page in one statement: read the lane's next expired live rows from beliefs_expires_live
    (the lane's id range filters inside the index scan), close
    each that is still live and expired on its *current* facts (the UPDATE re-checks a row changed under it),
    and write one memory.retired audit per closed row; returns the page's size, cursor and counts by reason.

    The boundary and reason come from the row's facts (expires_at only chooses the page), so a stale
    expires_at can delay a retirement but never bring one forward, and validity ends at the horizon (never
    before valid_from), as domain.beliefs.lifecycle.decide says. The audit is
    domain.beliefs.lifecycle.retirement_audit."""
    seconds, reason = _horizon_sql()
    boundary = f"(b.last_evidence_at + make_interval(secs => {seconds}))"
    # datetime.isoformat() of a UTC instant: microseconds only when there are any.
    iso = (
        "to_char(r.valid_to AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS')"
        " || CASE WHEN mod(date_part('microseconds', r.valid_to)::bigint, 1000000) <> 0"
        " THEN to_char(r.valid_to AT TIME ZONE 'UTC', '.US') ELSE '' END || '+00:00'"
    )
    return text(
        f"""
        /* retirement sweep page */
        WITH {SWEEP_PAGE_CTE}, retired AS (
          UPDATE beliefs AS b
             SET valid_to = greatest({boundary}, b.valid_from),
                 closed_reason = {reason},
                 updated_at = greatest({boundary}, b.valid_from),
                 version = b.version + 1
            FROM page
           WHERE b.id = page.id AND b.valid_to IS NULL AND {boundary} <= :now
          RETURNING b.id, b.tenant_id, b.principal_id, b.derivation, b.longevity, b.claim_kind, b.valid_to,
                    b.closed_reason
        ), audited AS (
          INSERT INTO formation_audits (id, tenant_id, principal_id, session_id, kind, dedupe_key, details,
                                        created_at)
          SELECT gen_random_uuid(), r.tenant_id, r.principal_id, NULL, CAST(:audit_kind AS text), 'retired/' || r.id,
                 jsonb_build_object('belief_id', r.id::text, 'reason', r.closed_reason,
                                    'derivation', r.derivation, 'longevity', r.longevity,
                                    'claim_kind', r.claim_kind, 'valid_to', {iso}, 'policy', CAST(:policy AS text)),
                 CAST(:now AS timestamptz)
            FROM retired AS r
          ON CONFLICT DO NOTHING
        )
        SELECT p.examined, p.last_expires, p.last_id, r.reason, r.n
          FROM (SELECT count(*) AS examined,
                       (array_agg(expires_at ORDER BY expires_at DESC, id DESC))[1] AS last_expires,
                       (array_agg(id ORDER BY expires_at DESC, id DESC))[1] AS last_id
                  FROM page) AS p
          LEFT JOIN (SELECT closed_reason AS reason, count(*) AS n FROM retired GROUP BY closed_reason) AS r
            ON true
        """
    )


_SWEEP = _sweep_statement()


def _page_parameters(
    now: datetime, after: ExpiryCursor | None, limit: int, lane: SweepLane
) -> dict[str, Any]:
    return {
        "now": now,
        "limit": max(limit, 0),
        "after_id": after.id if after else None,
        "after_expires": after.expires_at if after else None,
        "lane_first": lane.first_id,
        "lane_end": lane.end_id,
        "audit_kind": AuditKind.MEMORY_RETIRED.value,
        "policy": LIFECYCLE,
    }


def _probe_by_primary_key(connection: Connection) -> None:
    """The page's rows are fetched by primary key, one probe each. Around a million rows and with default cost
    settings the planner prices a hash join over a scan of the whole table close to that and sometimes picks
    it, which reads every belief for every page (measured: 0.9 s instead of 0.2 s a page). Set for the rest
    of the transaction, which is the page's own."""
    connection.exec_driver_sql(
        "SELECT set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)"
    )


SweepPlanFormat = Literal["ANALYZE, BUFFERS", "FORMAT JSON"]


def explain_sweep_page(
    connection: Connection, now: datetime, lane: SweepLane, options: SweepPlanFormat = "FORMAT JSON"
) -> list[Any]:
    """The first page's plan as the sweep runs it: EXPLAIN's rows (text lines, or one JSON document). With
    ANALYZE the page really runs, so the caller rolls back."""
    _probe_by_primary_key(connection)
    statement = text(f"EXPLAIN ({options}) " + str(_SWEEP.text))
    return [
        row[0] for row in connection.execute(statement, _page_parameters(now, None, SWEEP_PAGE_SIZE, lane))
    ]


def retire_expired_page(
    connection: Connection, now: datetime, after: ExpiryCursor | None, limit: int, lane: SweepLane
) -> SweepPage:
    """UnitOfWork.retire_expired_page at the expires_at revision: the page in (expires_at, id) order."""
    if after is not None and after.expires_at is None:
        # A cursor in expiry_candidates' (last_evidence_at, id) order: start over (only re-examines skips).
        after = None
    _probe_by_primary_key(connection)
    rows = connection.execute(_SWEEP, _page_parameters(now, after, limit, lane)).all()
    first = rows[0]
    by_reason = {ClosedReason(row.reason): int(row.n) for row in rows if row.reason is not None}
    retired = sum(by_reason.values())
    cursor = after
    if first.last_id is not None:
        # last_evidence_at is not this order's key; it carries the horizon instant to satisfy the model.
        cursor = ExpiryCursor(
            last_evidence_at=first.last_expires, id=first.last_id, expires_at=first.last_expires
        )
    return SweepPage(
        examined=first.examined,
        retired=retired,
        skipped_changed=first.examined - retired,
        by_reason=by_reason,
        next_cursor=cursor,
        done=first.examined < limit,
    )
