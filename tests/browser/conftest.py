"""The memory page in a real browser: Debian's Chromium driven by Playwright, the API process served by
uvicorn on a free local port, real PostgreSQL, and beliefs formed by real consolidation on the Temporal dev
server (the workflow tests' harness).

Chromium missing is a failure, not a skip: CI installs it (.ci/run) and counts a skip as not passing."""

import asyncio
import json
import shutil
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import Engine

from adapters.api.auth import Authenticator, issue_key
from adapters.api.http import create_app
from adapters.api.surface import AgentSurface
from adapters.cli.dev import demo_lines
from adapters.postgres.keys import PostgresKeyStore
from adapters.postgres.uow import PostgresStore
from adapters.temporal.client import session_idle
from adapters.temporal.worker import WorkerPorts
from domain.events import SourceEvent, SourceEventKind
from domain.keys import DEFAULT_CEILING
from domain.owner import Owner
from tests.api_server import serving
from tests.evidence_builders import ASTRA_MEDIUM, SOL, alternative_evidence
from tests.workflows.conftest import harness  # noqa: F401  (the session's Temporal dev server)
from tests.workflows.harness import Harness
from tests.workflows.support import append, consolidate

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
PERSON = Owner(tenant_id="t1", principal_id="p1")
OTHER = Owner(tenant_id="t1", principal_id="p2")
OTHER_WORDS = (
    "I work night shifts as a nurse at the Santa Maria hospital.",
    "I'm learning to play the cello, slowly.",
)


@pytest.fixture(scope="module")
def browser() -> Iterator["Browser"]:
    if not CHROMIUM.exists() or shutil.which(str(CHROMIUM)) is None:
        pytest.fail(
            f"the browser tests drive Debian's Chromium at {CHROMIUM}, which is missing: "
            "install it with `apt-get install -y chromium` (.ci/run does)",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where each test saves a screenshot of every state it reaches (looked at by whoever changes the page)."""
    return tmp_path_factory.mktemp("memory-page-screens")


def _demo_events(owner: Owner, now: datetime) -> list[SourceEvent]:
    """The sample conversation `agent dev --demo` imports, as the owner's, its last turn a minute ago."""
    rows = [json.loads(line) for line in demo_lines(now - timedelta(minutes=1))]
    return [SourceEvent.model_validate({**row, **owner.model_dump()}) for row in rows]


def _other_events(owner: Owner, now: datetime) -> list[SourceEvent]:
    session = uuid.uuid4()
    return [
        SourceEvent(
            tenant_id=owner.tenant_id,
            principal_id=owner.principal_id,
            session_id=session,
            seq=seq,
            kind=SourceEventKind.USER_MESSAGE,
            text=text,
            occurred_at=now - timedelta(minutes=5 - seq),
        )
        for seq, text in enumerate(OTHER_WORDS, start=1)
    ]


@dataclass(frozen=True)
class Served:
    url: str
    store: PostgresStore
    demo_session: uuid.UUID
    # Issued by the key store as `agent keys issue` does: two people's personal keys and a service key.
    person_key: str
    other_key: str
    service_key: str


@pytest.fixture
def served(clean_postgres: Engine, harness: Harness) -> Iterator[Served]:  # noqa: F811
    """Two people's conversations consolidated on Temporal into PostgreSQL, keys issued into the PostgreSQL
    key store, and the API process (with the memory page) serving them on a free port."""
    store = PostgresStore(clean_postgres)
    now = datetime.now(UTC)
    person_events = _demo_events(PERSON, now)
    append(store, person_events)
    append(store, _other_events(OTHER, now))
    task_queue = f"tq-page-{uuid.uuid4().hex[:8]}"
    with harness.worker(WorkerPorts(uow_factory=store, provider=None), task_queue=task_queue):
        consolidate(harness, task_queue, person_events[0].session_id, PERSON)
        with store() as uow:
            [other_session] = {e.session_id for e in uow.events.page(OTHER, None, 10)}
        consolidate(harness, task_queue, other_session, OTHER)

    async def idle(owner: Owner, session_id: uuid.UUID) -> str:
        # The client lives on the harness's loop, not on the server's.
        started = session_idle(
            harness.client, owner.tenant_id, owner.principal_id, session_id, task_queue=task_queue
        )
        handle = await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(started, harness.loop))
        return handle.id

    keys = PostgresKeyStore(clean_postgres)
    issued = {
        name: issue_key(keys, tenant_id="t1", principal_id=owner, name=name, ceiling=DEFAULT_CEILING, now=now)
        for name, owner in (("person", PERSON.principal_id), ("other", OTHER.principal_id), ("service", None))
    }
    app = create_app(
        AgentSurface(store=store, idle_signal=idle),
        Authenticator(keys),
        {},
        alternative_evidence(SOL, ASTRA_MEDIUM),
    )
    with serving(app) as url:
        yield Served(
            url=url,
            store=store,
            demo_session=person_events[0].session_id,
            person_key=issued["person"].secret,
            other_key=issued["other"].secret,
            service_key=issued["service"].secret,
        )
