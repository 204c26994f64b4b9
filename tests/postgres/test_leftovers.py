"""Nothing of the sessions' content lingers where it should not, after consolidating ten generated sessions
on PostgreSQL through the real activities: no staged document of a committed segment, no sprinkled e-mail
address or phone number in an episode's narrative, no sprinkled secret in any table but source_events.
benchmarks/leftovers.py runs the same count over 200 sessions."""

import pytest
from sqlalchemy import Engine

from benchmarks.leftovers import consolidate_all
from domain.owner import Owner

pytestmark = [pytest.mark.postgres]


def test_nothing_lingers_after_ten_sessions(clean_postgres: Engine) -> None:
    found = consolidate_all(clean_postgres, Owner(tenant_id="t1", principal_id="leftovers"), 10)

    # The search finds what was sprinkled where it belongs: in the events, and only there.
    assert found.events_with_sprinkled >= 10
    assert all(found.sprinkled.values())
    assert found.staged_committed == 0
    assert found.staged_rows == 0
    assert found.narratives_with_contacts == 0
    assert found.secret_rows and not any(found.secret_rows.values()), found.secret_rows
