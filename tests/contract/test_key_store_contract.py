"""One contract, both key stores: the same test functions run against memory and PostgreSQL."""

from collections.abc import Iterator
from datetime import timedelta
from uuid import uuid4

import pytest
from sqlalchemy import text

from adapters.memory.keys import InMemoryKeyStore
from domain.candidates import Sensitivity
from domain.keys import ApiKey, KeyStore, secret_digest
from tests.builders import T0


@pytest.fixture(params=["memory", pytest.param("postgres", marks=pytest.mark.postgres)])
def keys(request: pytest.FixtureRequest) -> Iterator[KeyStore]:
    if request.param == "memory":
        yield InMemoryKeyStore()
        return
    from adapters.postgres.keys import PostgresKeyStore

    engine = request.getfixturevalue("postgres_engine")
    with engine.begin() as connection:
        connection.execute(text("TRUNCATE api_keys"))
    yield PostgresKeyStore(engine)


def _key(tenant: str = "t1", principal: str | None = "p1", minutes: int = 0) -> ApiKey:
    return ApiKey(
        key_id=uuid4(),
        name=f"{tenant}/{principal}",
        tenant_id=tenant,
        principal_id=principal,
        ceiling=Sensitivity.INTERNAL,
        created_at=T0 + timedelta(minutes=minutes),
    )


def test_a_key_is_found_by_its_digest_only(keys: KeyStore) -> None:
    personal, service = _key(), _key(principal=None, minutes=1)
    keys.add(personal, secret_digest("secret-1"))
    keys.add(service, secret_digest("secret-2"))
    assert keys.by_digest(secret_digest("secret-1")) == personal
    assert keys.by_digest(secret_digest("secret-2")) == service
    assert keys.by_digest(secret_digest("secret-3")) is None
    assert keys.by_digest("secret-1") is None


def test_a_secret_digest_is_stored_once(keys: KeyStore) -> None:
    keys.add(_key(), secret_digest("same"))
    with pytest.raises(ValueError):
        keys.add(_key(tenant="t2"), secret_digest("same"))
    assert [k.tenant_id for k in keys.listed()] == ["t1"]


def test_keys_are_listed_oldest_first_and_by_tenant(keys: KeyStore) -> None:
    later, earlier, other = _key(minutes=5), _key(principal="p2"), _key(tenant="t2", minutes=1)
    for number, key in enumerate((later, earlier, other)):
        keys.add(key, secret_digest(f"s{number}"))
    assert keys.listed() == [earlier, other, later]
    assert keys.listed("t1") == [earlier, later]
    assert keys.listed("t3") == []


def test_revoking_keeps_the_key_listed_with_its_first_revocation_time(keys: KeyStore) -> None:
    key = _key()
    keys.add(key, secret_digest("s"))
    revoked = keys.revoke(key.key_id, T0 + timedelta(hours=1))
    again = keys.revoke(key.key_id, T0 + timedelta(hours=2))
    assert revoked is not None and revoked.revoked_at == T0 + timedelta(hours=1)
    assert again == revoked
    found = keys.by_digest(secret_digest("s"))
    assert found is not None and not found.active
    assert keys.listed() == [revoked]
    assert keys.revoke(uuid4(), T0) is None
