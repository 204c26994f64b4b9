"""The composition root: the one place that turns Settings into adapters (store, provider, worker ports, the
agent-facing surface and its token registry) and decides, from the evidence the tree and the operator supply, which
formation policy runs."""

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cached_property
from typing import TYPE_CHECKING, Final
from uuid import UUID, uuid4

from activities.formation_tuple import AlternativeTuples
from adapters.settings import ConfigurationError, Settings
from domain.beliefs.embedding import Embedder
from domain.keys import KeyStore
from domain.owner import Owner
from domain.policy.activation import (
    ActivationDecision,
    FormationMode,
    FoundArtifact,
    Release,
    RunningComposition,
    ShippedCorpora,
    select_formation_policy,
    selection_audit,
)
from domain.policy.alternatives import AlternativeEvidence
from domain.policy.model_policy import MemoryModel
from domain.policy.versions import FORMATION_10
from domain.ports import UnitOfWorkFactory
from domain.providers import Provider

if TYPE_CHECKING:
    from sqlalchemy import Engine
    from temporalio.client import Client

    from adapters.api.auth import Authenticator
    from adapters.api.surface import AgentSurface
    from adapters.evidence import SkippedArtifact
    from adapters.temporal.worker import WorkerPorts

# The PostgreSQL, provider and Temporal adapters are imported on first use, not here: every `agent`
# command imports this module, and most never open a database or start a worker.

log = logging.getLogger(__name__)

# The people policy profile the shipped documents define; evaluation modes may name another.
POLICY_PROFILE: Final = "default"

NO_DATABASE: Final = (
    "no database chosen: set DATABASE_URL (postgresql://...), or pass --embedded for the embedded server "
    "in DEV_DATA_DIR (`agent dev` runs one)"
)


def database_url(settings: Settings, *, embedded: bool = False) -> str:
    """The one rule every command follows: the embedded server in the dev data dir when asked for
    (--embedded), else DATABASE_URL, else a ConfigurationError saying so (never a silent embedded one)."""
    if embedded:
        from adapters.embedded.postgres import start_embedded_postgres

        # Stopped when the last process holding it exits, so a one-off command leaves no server behind.
        return start_embedded_postgres(settings.embedded_postgres_dir.resolve())
    if not settings.database_url:
        raise ConfigurationError(NO_DATABASE)
    return settings.database_url.get_secret_value()


@dataclass
class Composition:
    """Builds each adapter once, on first use, from one Settings."""

    settings: Settings = field(default_factory=Settings)
    embedded: bool = False
    _temporal: "Client | None" = field(default=None, init=False, repr=False)

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
    def memory_model(self) -> MemoryModel:
        from adapters.providers.policy_documents import load_memory_model

        return load_memory_model(self.settings.memory_model_profile)

    @cached_property
    def running_composition(self) -> RunningComposition:
        """The running tuple less the policy and its extractor, which selection fills per policy."""
        from adapters.providers.policy_documents import load_memory_model_policy, shipped_policy_version

        model = self.memory_model
        return RunningComposition(
            model_policy=self.settings.memory_model_profile or load_memory_model_policy().default_profile,
            provider=model.provider,
            model=model.model,
            policy_profile=POLICY_PROFILE,
            compiled_policy_version=shipped_policy_version(),
            reasoning_effort=model.reasoning_effort,
        )

    @property
    def api_key_set(self) -> bool:
        return self.settings.provider_api_key(self.memory_model.provider) is not None

    @cached_property
    def activation(self) -> ActivationDecision:
        """Which formation policy runs and why, decided once from the tree, the operator and the mode."""
        settings = self.settings
        decision = select_formation_policy(
            running=self.running_composition,
            artifacts=self._artifacts,
            corpora=self._corpora,
            mode=settings.memory_formation_mode,
            pin=settings.formation_policy_pin,
            release=self._release,
            provider_configured=self.api_key_set,
        )
        return decision

    @cached_property
    def _evidence(self) -> tuple[tuple[FoundArtifact, ...], tuple["SkippedArtifact", ...]]:
        """The artifacts selection considers (bundled first; it takes the first that matches) and the files
        it could not, read once; none when formation by a provider is off."""
        from adapters.evidence import log_skipped, read_artifacts

        if self.settings.memory_formation_mode is FormationMode.OFF:
            return (), ()
        found, skipped = read_artifacts(self.settings.memory_evidence_path)
        log_skipped(skipped)
        return found, skipped

    @property
    def _artifacts(self) -> tuple[FoundArtifact, ...]:
        return self._evidence[0]

    @property
    def skipped_artifacts(self) -> tuple["SkippedArtifact", ...]:
        """What selection could not even consider: a mistyped MEMORY_EVIDENCE_PATH looks like no evidence."""
        return self._evidence[1]

    @cached_property
    def _corpora(self) -> ShippedCorpora:
        from adapters.evidence import shipped_corpora

        return shipped_corpora()

    @property
    def _release(self) -> Release:
        settings = self.settings
        return Release(commit=settings.release_commit, production=settings.deployment == "production")

    @cached_property
    def alternatives(self) -> AlternativeTuples:
        """What an owner's alternative tuple is judged against at each call, and its providers, built once
        per tuple on first use (ADR-0119)."""
        from adapters.providers.factory import provider_for
        from adapters.providers.policy_documents import load_memory_model_policy

        providers: dict[MemoryModel, Provider | None] = {}

        def provider_of(model: MemoryModel) -> Provider | None:
            if model not in providers:
                key = self.settings.provider_api_key(model.provider)
                providers[model] = None if key is None else provider_for(model, api_key=key)
            return providers[model]

        evidence = AlternativeEvidence(
            activation=self.activation,
            configured=self.running_composition,
            profiles=load_memory_model_policy().profiles,
            artifacts=self._artifacts,
            corpora=self._corpora,
            release=self._release,
        )
        return AlternativeTuples(evidence=evidence, provider_for=provider_of)

    @cached_property
    def provider(self) -> Provider | None:
        """The memory model's provider when activation chose a provider policy; None otherwise
        (deterministic formation, each stage audited as not_configured), even with an API key set."""
        from adapters.providers.factory import provider_for

        if self.activation.policy is None:
            return None
        return provider_for(
            self.memory_model, api_key=self.settings.provider_api_key(self.memory_model.provider)
        )

    @cached_property
    def worker_ports(self) -> "WorkerPorts":
        """What a worker's activities run against: the store (revision checked), the provider and the
        activation decision. required mode refuses here (ActivationRefused) before anything polls; every
        start-up records its content-free selection audit."""
        from adapters.temporal.worker import WorkerPorts
        from domain.formation.extraction import require_sane_cost

        decision = self.activation
        # Said once, at start-up; content-free (versions, file names, reason codes). The built-in former
        # running is the normal state, not a warning; an operator's pin left without evidence is.
        log.log(
            logging.WARNING if decision.policy is None and decision.pin is not None else logging.INFO,
            "%s (formation policy selection: %s)",
            decision.summary(),
            decision.explanation(),
            extra={"selection": decision.audit_details()},
        )
        decision.require()
        if decision.policy == FORMATION_10:
            # Checked before anything polls: a model whose worst-case call passes the sanity ceiling is
            # misconfigured, and the ceiling never shrinks or skips a call once running.
            require_sane_cost(self.memory_model)
        uow_factory = self.unit_of_work_factory
        with uow_factory() as uow:
            uow.audits.record(selection_audit(decision, at=datetime.now(UTC), audit_id=uuid4()))
            uow.commit()
        return WorkerPorts(
            uow_factory=uow_factory,
            provider=self.provider,
            activation=decision,
            memory_model=self.memory_model,
            alternatives=self.alternatives,
            embedder=self.embedder,
        )

    @cached_property
    def embedder(self) -> Embedder:
        """The embedding model the settings name (the bundled WordLlama unless EMBEDDING_PROVIDER=openai)."""
        from adapters.embeddings.factory import embedder_for

        return embedder_for(self.settings)

    @cached_property
    def key_store(self) -> KeyStore:
        from adapters.postgres.keys import PostgresKeyStore

        return PostgresKeyStore(self.engine)

    @cached_property
    def authenticator(self) -> "Authenticator":
        """API_TOKENS_FILE's tokens, then the keys `agent keys` issues into the database."""
        from adapters.api.auth import Authenticator, TokenRegistry

        return Authenticator(self.key_store, TokenRegistry.from_file(self.settings.api_tokens_file))

    @cached_property
    def agent_surface(self) -> "AgentSurface":
        """The agent-facing operations over the store, signalling idle through a Temporal client made on
        first use (on the serving event loop)."""
        from adapters.api.surface import AgentSurface
        from adapters.temporal.client import answered, await_session, session_idle, session_state

        async def idle(owner: Owner, session_id: UUID) -> str:
            client = await self.temporal_client()
            handle = await answered(
                session_idle(
                    client,
                    owner.tenant_id,
                    owner.principal_id,
                    session_id,
                    task_queue=self.settings.temporal_task_queue,
                ),
                self.settings.temporal_address,
            )
            return handle.id

        async def state(owner: Owner, session_id: UUID) -> str:
            client = await self.temporal_client()
            return await answered(
                session_state(client, owner.tenant_id, owner.principal_id, session_id),
                self.settings.temporal_address,
            )

        async def wait(owner: Owner, session_id: UUID, timeout_s: float) -> None:
            client = await self.temporal_client()
            await await_session(client, owner.tenant_id, owner.principal_id, session_id, timeout_s)

        return AgentSurface(
            store=self.unit_of_work_factory,
            idle_signal=idle,
            consolidation_state=state,
            consolidation_wait=wait,
            embedder=self.embedder,
        )

    def share_temporal_client(self, client: "Client") -> None:
        """Serve the agent surface over a client already connected (`agent dev`'s own Temporal server)."""
        self._temporal = client

    async def temporal_client(self) -> "Client":
        if self._temporal is None:
            from adapters.temporal.client import connect
            from adapters.temporal.connection import connect_config

            self._temporal = await connect(connect_config(self.settings))
        return self._temporal

    async def database_ready(self) -> bool:
        from sqlalchemy import text

        def probe() -> bool:
            with self.engine.connect() as connection:
                return connection.execute(text("SELECT 1")).scalar() == 1

        return await asyncio.to_thread(probe)

    async def temporal_ready(self) -> bool:
        client = await self.temporal_client()
        return bool(await client.service_client.check_health(timeout=timedelta(seconds=2)))

    def close(self) -> None:
        if "engine" in self.__dict__:
            self.engine.dispose()
