"""The integrated-episode repository: idempotent on derivation key; a re-derivation with other content
keeps what is stored. Before the episode source-chars revision a piece's episode cannot be stored with what
its key is derived from, so it is kept out and reported as a derivation conflict."""

from typing import Any
from uuid import UUID

from sqlalchemy import Connection, Row, Select, delete, select
from sqlalchemy.dialects.postgresql import insert

from adapters.postgres.repositories.rows import Repo, owned
from adapters.postgres.tables import integrated_episodes
from domain.episodes import IntegratedEpisode
from domain.owner import Owner
from domain.ports import EpisodePut

# Built once, the row given as the execution's parameters: building the insert cost more than running it.
_PUT = insert(integrated_episodes).on_conflict_do_nothing().returning(integrated_episodes.c.id)


def _episode(row: Row[Any]) -> IntegratedEpisode:
    return IntegratedEpisode(
        id=row.id,
        tenant_id=row.tenant_id,
        principal_id=row.principal_id,
        session_id=row.session_id,
        source_event_ids=tuple(int(seq) for seq in row.source_event_ids),
        # Absent before the source-chars revision, NULL for an episode over whole events.
        source_chars=_chars(row._mapping.get("source_chars")),
        source_started_at=row.source_started_at,
        source_ended_at=row.source_ended_at,
        narrative=row.narrative,
        subjects=tuple(str(s) for s in row.subjects),
        integration_policy_version=row.integration_policy_version,
        derivation_key=row.derivation_key,
        created_at=row.created_at,
    )


def _chars(stored: Any) -> tuple[int, int] | None:
    return None if stored is None else (int(stored[0]), int(stored[1]))


class PostgresEpisodes(Repo):
    def __init__(self, connection: Connection, *, with_source_chars: bool = True) -> None:
        super().__init__(connection)
        self._source_chars = with_source_chars

    def _select(self) -> Select[Any]:
        if self._source_chars:
            return select(integrated_episodes)
        return select(*(c for c in integrated_episodes.c if c.name != "source_chars"))

    def put(self, episode: IntegratedEpisode) -> EpisodePut:
        if episode.source_chars is not None and not self._source_chars:
            return EpisodePut.DERIVATION_CONFLICT
        pieced = {"source_chars": list(episode.source_chars)} if episode.source_chars is not None else {}
        stored_id = self._c.execute(
            _PUT,
            {
                "id": episode.id,
                "tenant_id": episode.tenant_id,
                "principal_id": episode.principal_id,
                "session_id": episode.session_id,
                "source_event_ids": list(episode.source_event_ids),
                "source_started_at": episode.source_started_at,
                "source_ended_at": episode.source_ended_at,
                "narrative": episode.narrative,
                "subjects": list(episode.subjects),
                "integration_policy_version": episode.integration_policy_version,
                "derivation_key": episode.derivation_key,
                "created_at": episode.created_at,
            }
            | pieced,
        ).scalar()
        if stored_id is not None:
            return EpisodePut.STORED
        owner = Owner(tenant_id=episode.tenant_id, principal_id=episode.principal_id)
        stored = self.get_by_derivation(owner, episode.derivation_key)
        if stored is not None and stored.same_content(episode):
            return EpisodePut.UNCHANGED
        # Either different content under the key, or the id is taken by another episode: keep what is stored.
        return EpisodePut.DERIVATION_CONFLICT

    def get(self, owner: Owner, episode_id: UUID) -> IntegratedEpisode | None:
        row = self._c.execute(
            self._select().where(owned(integrated_episodes, owner), integrated_episodes.c.id == episode_id)
        ).first()
        return _episode(row) if row else None

    def get_by_derivation(self, owner: Owner, derivation_key: str) -> IntegratedEpisode | None:
        row = self._c.execute(
            self._select().where(
                owned(integrated_episodes, owner), integrated_episodes.c.derivation_key == derivation_key
            )
        ).first()
        return _episode(row) if row else None

    def for_session(self, owner: Owner, session_id: UUID) -> list[IntegratedEpisode]:
        rows = self._c.execute(
            self._select().where(
                owned(integrated_episodes, owner), integrated_episodes.c.session_id == session_id
            )
        )
        return sorted((_episode(row) for row in rows), key=lambda e: (e.source_event_ids[0], str(e.id)))

    def delete_for_session(self, owner: Owner, session_id: UUID) -> int:
        result = self._c.execute(
            delete(integrated_episodes).where(
                owned(integrated_episodes, owner), integrated_episodes.c.session_id == session_id
            )
        )
        return result.rowcount
