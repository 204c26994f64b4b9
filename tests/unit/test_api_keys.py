"""Authenticator.resolve: personal and service keys, user_id rules with reason codes, revocation without a
restart, and the tokens file beside the store."""

from datetime import timedelta

import pytest

from adapters.api.auth import Authenticator, TokenEntry, TokenRegistry, issue_key, token_digest
from adapters.memory.keys import InMemoryKeyStore
from domain.candidates import Sensitivity
from domain.keys import KeyRefusal, KeyRefused
from domain.owner import Owner
from tests.builders import T0


def _refusal(authenticator: Authenticator, bearer: str | None, user_id: str | None = None) -> KeyRefusal:
    with pytest.raises(KeyRefused) as refused:
        authenticator.resolve(bearer, user_id)
    return refused.value.reason


def test_a_personal_key_acts_for_its_principal_and_refuses_a_user_id() -> None:
    store = InMemoryKeyStore()
    issued = issue_key(
        store, tenant_id="t1", principal_id="alice", name="a", ceiling=Sensitivity.INTERNAL, now=T0
    )
    authenticator = Authenticator(store)
    scope = authenticator.resolve(issued.secret)
    assert scope.owner == Owner(tenant_id="t1", principal_id="alice")
    assert scope.ceiling is Sensitivity.INTERNAL
    assert _refusal(authenticator, issued.secret, "bob") is KeyRefusal.USER_ID_NOT_ALLOWED
    assert _refusal(authenticator, issued.secret, "alice") is KeyRefusal.USER_ID_NOT_ALLOWED


def test_a_service_key_acts_for_the_named_principal_of_its_own_tenant_only() -> None:
    store = InMemoryKeyStore()
    issued = issue_key(
        store, tenant_id="t1", principal_id=None, name="svc", ceiling=Sensitivity.SENSITIVE, now=T0
    )
    authenticator = Authenticator(store)
    assert authenticator.resolve(issued.secret, "bob").owner == Owner(tenant_id="t1", principal_id="bob")
    # A user_id is a principal id: it never names a tenant, whatever it looks like.
    assert authenticator.resolve(issued.secret, "t2:bob").owner.tenant_id == "t1"
    assert _refusal(authenticator, issued.secret) is KeyRefusal.USER_ID_REQUIRED
    assert _refusal(authenticator, issued.secret, "../bob") is KeyRefusal.USER_ID_INVALID
    assert _refusal(authenticator, issued.secret, "") is KeyRefusal.USER_ID_INVALID


def test_issued_and_revoked_keys_count_from_the_next_call() -> None:
    store = InMemoryKeyStore()
    authenticator = Authenticator(store)
    assert not authenticator.configured()
    issued = issue_key(
        store, tenant_id="t1", principal_id="p1", name="k", ceiling=Sensitivity.SENSITIVE, now=T0
    )
    assert authenticator.configured()
    assert authenticator.resolve(issued.secret).owner.principal_id == "p1"
    store.revoke(issued.key.key_id, T0 + timedelta(minutes=1))
    assert _refusal(authenticator, issued.secret) is KeyRefusal.UNAUTHENTICATED
    assert not authenticator.configured()


def test_the_secret_is_never_stored_and_unknown_or_missing_secrets_are_unauthenticated() -> None:
    store = InMemoryKeyStore()
    issued = issue_key(
        store, tenant_id="t1", principal_id="p1", name="k", ceiling=Sensitivity.SENSITIVE, now=T0
    )
    assert issued.secret.startswith("mk_") and len(issued.secret) > 40
    assert issued.secret not in repr(store.__dict__)
    authenticator = Authenticator(store)
    for bearer in (None, "", "mk_guess", token_digest(issued.secret)):
        assert _refusal(authenticator, bearer) is KeyRefusal.UNAUTHENTICATED


def test_the_tokens_file_keeps_working_beside_the_store() -> None:
    tokens = TokenRegistry(
        (TokenEntry(sha256=token_digest("file-token"), tenant_id="t9", principal_id="p9"),)
    )
    authenticator = Authenticator(InMemoryKeyStore(), tokens)
    assert authenticator.configured()
    assert authenticator.resolve("file-token").owner == Owner(tenant_id="t9", principal_id="p9")
    assert _refusal(authenticator, "file-token", "p1") is KeyRefusal.USER_ID_NOT_ALLOWED


def test_a_tokens_file_key_resolves_without_the_key_store_and_any_other_bearer_is_left_to_it() -> None:
    store = InMemoryKeyStore()
    stored = issue_key(
        store, tenant_id="t1", principal_id="p2", name="laptop", ceiling=Sensitivity.SENSITIVE, now=T0
    )
    listed = TokenRegistry(
        (TokenEntry(sha256=token_digest("file-token"), tenant_id="t1", principal_id="p1"),)
    )
    authenticator = Authenticator(store, listed)
    scope = authenticator.resolve_listed("file-token")
    assert scope is not None and scope.owner == Owner(tenant_id="t1", principal_id="p1")
    with pytest.raises(KeyRefused) as refused:
        authenticator.resolve_listed("file-token", "p9")
    assert refused.value.reason is KeyRefusal.USER_ID_NOT_ALLOWED
    # a stored key, an unknown one and none at all: not the tokens file's to answer
    assert authenticator.resolve_listed(stored.secret) is None
    assert authenticator.resolve_listed("unknown") is None
    assert authenticator.resolve_listed(None) is None
    assert authenticator.resolve(stored.secret).owner == Owner(tenant_id="t1", principal_id="p2")
