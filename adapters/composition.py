"""The composition root: the one place that turns Settings into adapters (store, provider, worker ports)."""

import logging
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from adapters.settings import Settings
from domain.ports import UnitOfWorkFactory
from domain.providers import Provider

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from adapters.temporal.worker import WorkerPorts

# The PostgreSQL, provider and Temporal adapters are imported on first use, not here: every `agent`
# command imports this module, and most never open a database or start a worker.

log = logging.getLogger(__name__)


def database_url(settings: Settings, *, embedded: bool = False) -> str:
    """DATABASE_URL, or the embedded server in the dev data dir when asked for or when it is unset."""
    if settings.database_url and not embedded:
        return settings.database_url.get_secret_value()
    from adapters.embedded.postgres import start_embedded_postgres

    # Stopped when the last process holding it exits, so a one-off command leaves no server behind.
    return start_embedded_postgres(settings.embedded_postgres_dir.resolve())


@dataclass
class Composition:
    """Builds each adapter once, on first use, from one Settings."""

    settings: Settings = field(default_factory=Settings)
    embedded: bool = False

    @cached_property
    def database_url(self) -> str:
        return database_url(self.settings, embedded=self.embedded)

    @cached_property
    def engine(self) -> "Engine":
        from adapters.postgres.engine import create_store_engine

        return create_store_engine(self.database_url, pool_size=self.settings.database_pool_size)

    @cached_property
    def unit_of_work_factory(self) -> UnitOfWorkFactory:
        """The store, after checking the database is at a revision this release runs against."""
        from adapters.postgres.schema import require_expected_revision
        from adapters.postgres.uow import PostgresStore

        require_expected_revision(self.engine)
        store: UnitOfWorkFactory = PostgresStore(self.engine)
        return store

    @cached_property
    def provider(self) -> Provider | None:
        """The shipped memory model's provider; None (deterministic formation, audited as not_configured)
        unless the model's API key is set."""
        from adapters.providers.factory import provider_for
        from adapters.providers.policy_documents import load_memory_model

        model = load_memory_model(self.settings.memory_model_profile)
        api_key = self.settings.provider_api_key(model.provider)
        if api_key is None:
            log.info("no provider configured; stages fall back to deterministic formation")
            return None
        return provider_for(model, api_key=api_key)

    @cached_property
    def worker_ports(self) -> "WorkerPorts":
        """What a worker's activities run against: the store (revision checked) and the provider."""
        from adapters.temporal.worker import WorkerPorts

        return WorkerPorts(uow_factory=self.unit_of_work_factory, provider=self.provider)

    def close(self) -> None:
        if "engine" in self.__dict__:
            self.engine.dispose()
