"""Leftovers: after consolidating many realistic sessions on PostgreSQL, what of their content lingers where
it should not.

    .venv/bin/python -m benchmarks.leftovers                       # 200 sessions, embedded PostgreSQL
    .venv/bin/python -m benchmarks.leftovers --sessions 50
    DATABASE_URL=postgresql://... .venv/bin/python -m benchmarks.leftovers

Sessions are generated (tests.leftover_sessions): user turns with asides, lists, typos and questions, with
e-mail addresses, phone numbers and API-key-like secrets sprinkled in, and assistant replies. Each session
is consolidated through the real activities (load_batch, the three stages on the deterministic fallback,
commit_segment, advance_watermark). Then counted, from the database, against the generator's own record of
what it sprinkled (not the masking's patterns):
  * staged_outputs rows of segments that committed                       goal 0
  * episode narratives holding a sprinkled e-mail address or phone number  goal 0
  * rows outside source_events holding a sprinkled secret, by table        goal 0
"""

import argparse
import json
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from rich.progress import Progress
from sqlalchemy import Engine, text

from activities.contracts import SessionKey
from adapters.postgres.tables import OWNED_TABLES, source_events
from adapters.postgres.uow import PostgresStore
from benchmarks.scratch_database import migrated_scratch
from domain.owner import Owner
from domain.policy.versions import FORMATION_9
from evals.consolidation import consolidate_session
from tests.builders import T0
from tests.leftover_sessions import Sprinkled, leftover_sessions

RESULTS_DIR = Path(__file__).parent / "results"


@dataclass(frozen=True)
class Leftovers:
    sessions: int
    events: int
    staged_committed: int
    staged_rows: int
    narratives_with_contacts: int
    secret_rows: dict[str, int]
    # The search's own check: how much was sprinkled, and how many source events it finds it in.
    sprinkled: dict[str, int]
    events_with_sprinkled: int
    # No goal (a belief may hold a contact the user stated, as sensitive): reported, not judged.
    beliefs_with_contacts: int

    @property
    def clean(self) -> bool:
        return (
            self.staged_committed == 0
            and self.narratives_with_contacts == 0
            and not any(self.secret_rows.values())
        )


def consolidate_all(engine: Engine, owner: Owner, sessions: int, seed: int = 11) -> Leftovers:
    """Append and consolidate `sessions` generated sessions of owner, then count what lingers."""
    store = PostgresStore(engine)
    generated = leftover_sessions(owner, sessions, seed=seed)
    with store() as uow:
        for events in generated.sessions.values():
            uow.events.append(events)
        uow.commit()
    with Progress(transient=True) as progress:
        task = progress.add_task("consolidating sessions", total=sessions)
        for session_id in generated.sessions:
            key = SessionKey(
                tenant_id=owner.tenant_id, principal_id=owner.principal_id, session_id=session_id
            )
            consolidate_session(store, None, key, FORMATION_9, T0 + timedelta(days=1))
            progress.advance(task)
    return count_leftovers(engine, owner, generated.sprinkled, sessions, generated.event_count)


def count_leftovers(
    engine: Engine, owner: Owner, sprinkled: Sprinkled, sessions: int, events: int
) -> Leftovers:
    """What the database holds of sprinkled content, read with SQL (not through the store's own reads)."""
    owned = {"tenant": owner.tenant_id, "principal": owner.principal_id}
    with engine.connect() as connection:
        staged_rows = connection.execute(
            text(
                "SELECT count(*) FROM staged_outputs WHERE tenant_id = :tenant AND principal_id = :principal"
            ),
            owned,
        ).scalar_one()
        # A committed segment is one with a segment_committed audit ("segment_committed/{run}/{key}").
        staged_committed = connection.execute(
            text(
                "SELECT count(*) FROM staged_outputs s WHERE s.tenant_id = :tenant AND s.principal_id = :principal"
                " AND EXISTS (SELECT 1 FROM formation_audits a WHERE a.tenant_id = s.tenant_id"
                " AND a.principal_id = s.principal_id AND a.kind = 'segment_committed'"
                " AND a.dedupe_key LIKE 'segment_committed/%/' || s.segment_key)"
            ),
            owned,
        ).scalar_one()
        narratives = connection.execute(
            text(
                "SELECT narrative FROM integrated_episodes WHERE tenant_id = :tenant AND principal_id = :principal"
            ),
            owned,
        ).scalars()
        contacts = sprinkled.emails | sprinkled.phones
        narratives_with_contacts = sum(any(c in narrative for c in contacts) for narrative in narratives)
        beliefs_with_contacts = sum(
            any(c in row for c in contacts)
            for row in connection.execute(
                text("SELECT b::text FROM beliefs b WHERE tenant_id = :tenant AND principal_id = :principal"),
                owned,
            ).scalars()
        )
        everything = contacts | sprinkled.secrets
        events_with_sprinkled = sum(
            any(s in row for s in everything)
            for row in connection.execute(
                text(
                    "SELECT text FROM source_events WHERE tenant_id = :tenant AND principal_id = :principal"
                ),
                owned,
            ).scalars()
        )
        secret_rows: dict[str, int] = {}
        for table in OWNED_TABLES:
            if table is source_events:
                continue
            # Every column of the row as text: JSON documents, spans and statements alike.
            rows = connection.execute(
                text(f"SELECT t::text FROM {table.name} t")  # noqa: S608 (a table name from the schema)
            ).scalars()
            secret_rows[table.name] = sum(any(s in row for s in sprinkled.secrets) for row in rows)
    return Leftovers(
        sessions=sessions,
        events=events,
        staged_committed=staged_committed,
        staged_rows=staged_rows,
        narratives_with_contacts=narratives_with_contacts,
        secret_rows=secret_rows,
        sprinkled={
            "emails": len(sprinkled.emails),
            "phones": len(sprinkled.phones),
            "secrets": len(sprinkled.secrets),
        },
        events_with_sprinkled=events_with_sprinkled,
        beliefs_with_contacts=beliefs_with_contacts,
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sessions", type=int, default=200, help="how many sessions to consolidate")
    args = parser.parse_args()
    with migrated_scratch("leftovers") as engine:
        started = time.perf_counter()
        found = consolidate_all(engine, Owner(tenant_id="bench", principal_id="leftovers"), args.sessions)
        elapsed = time.perf_counter() - started
    result = {**found.__dict__, "seconds": round(elapsed, 1), "clean": found.clean}
    print(json.dumps(result, indent=2))
    RESULTS_DIR.mkdir(exist_ok=True)
    (RESULTS_DIR / "leftovers.json").write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
