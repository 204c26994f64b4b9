"""The formation-choice repository: at most one chosen alternative tuple per owner (ADR-0119).

Before the formation-choices revision the table is absent: no owner has a choice, and setting one is refused.
"""

from sqlalchemy import Connection, delete, select
from sqlalchemy.dialects.postgresql import insert

from adapters.postgres.repositories.rows import Repo, owned
from adapters.postgres.tables import formation_choices
from domain.errors import WrongSchemaRevision
from domain.owner import Owner
from domain.policy.alternatives import FormationChoice


class PostgresFormationChoices(Repo):
    def __init__(self, connection: Connection, *, with_table: bool) -> None:
        super().__init__(connection)
        self._with_table = with_table

    def get(self, owner: Owner) -> FormationChoice | None:
        if not self._with_table:
            return None
        row = self._c.execute(select(formation_choices).where(owned(formation_choices, owner))).first()
        return FormationChoice.model_validate(row._mapping) if row is not None else None

    def put(self, choice: FormationChoice) -> None:
        if not self._with_table:
            raise WrongSchemaRevision("formation choices need the 0012_formation_choices revision")
        statement = insert(formation_choices).values(choice.model_dump())
        self._c.execute(
            statement.on_conflict_do_update(
                constraint="formation_choices_pkey",
                set_={
                    "model_policy": statement.excluded.model_policy,
                    "reasoning_effort": statement.excluded.reasoning_effort,
                    "chosen_at": statement.excluded.chosen_at,
                },
            )
        )

    def clear(self, owner: Owner) -> bool:
        if not self._with_table:
            return False
        return self._c.execute(delete(formation_choices).where(owned(formation_choices, owner))).rowcount > 0
