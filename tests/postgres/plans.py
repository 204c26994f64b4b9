"""What the query-plan tests share: a database at head seeded by one statement, and a plan's nodes."""

from collections.abc import Iterator, Mapping
from typing import Any

from sqlalchemy import Engine, TextClause

from adapters.postgres import schema
from adapters.postgres.engine import create_store_engine


def seeded_engine(url: str, seed: TextClause, params: Mapping[str, Any]) -> Engine:
    """The database at url migrated to head, seeded, vacuumed and analyzed (the planner's statistics)."""
    engine = create_store_engine(url, pool_size=1)
    schema.upgrade(engine, "head")
    with engine.begin() as connection:
        connection.execute(seed, dict(params))
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.exec_driver_sql("VACUUM ANALYZE beliefs")
    return engine


def plan_nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every node of an EXPLAIN (FORMAT JSON) plan, depth first."""
    yield plan
    for child in plan.get("Plans", []):
        yield from plan_nodes(child)
