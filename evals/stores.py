"""Where a case consolidates: a fresh in-memory store, or PostgreSQL emptied of the case's tenants.

Every case speaks for the one corpus owner, so on PostgreSQL cases run one at a time and each starts and
ends with its tenants erased (the erasure path production uses); the in-memory store is simply dropped.
"""

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

from adapters.memory.store import InMemoryStore
from domain.ports import UnitOfWorkFactory
from evals.corpus import CASE_OWNER

StoreProvider = Callable[[frozenset[str]], AbstractContextManager[UnitOfWorkFactory]]


@contextmanager
def memory_store(tenants: frozenset[str]) -> Iterator[UnitOfWorkFactory]:
    yield InMemoryStore()


def postgres_stores(uow_factory: UnitOfWorkFactory) -> StoreProvider:
    @contextmanager
    def store(tenants: frozenset[str]) -> Iterator[UnitOfWorkFactory]:
        _erase(uow_factory, tenants | {CASE_OWNER.tenant_id})
        try:
            yield uow_factory
        finally:
            _erase(uow_factory, tenants | {CASE_OWNER.tenant_id})

    return store


def _erase(uow_factory: UnitOfWorkFactory, tenants: frozenset[str]) -> None:
    with uow_factory() as uow:
        for tenant in sorted(tenants):
            uow.erase_tenant(tenant)
        uow.commit()
