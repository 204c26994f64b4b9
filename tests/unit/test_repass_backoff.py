"""domain.policy.repass.backoff: the first wait is an operator setting; the coefficient and the cap are fixed."""

from datetime import timedelta

from domain.policy.repass import PROVIDER_INITIAL_BACKOFF, PROVIDER_MAX_BACKOFF, backoff


def test_default_first_wait_is_the_provider_controls() -> None:
    assert backoff(1) == PROVIDER_INITIAL_BACKOFF
    assert backoff(2) == PROVIDER_INITIAL_BACKOFF * 4


def test_shortened_first_wait_keeps_the_coefficient() -> None:
    initial = timedelta(seconds=0.5)
    assert [backoff(a, initial) for a in range(1, 4)] == [
        timedelta(seconds=0.5),
        timedelta(seconds=2),
        timedelta(seconds=8),
    ]


def test_the_cap_holds_whatever_the_first_wait() -> None:
    assert backoff(10, timedelta(hours=1)) == PROVIDER_MAX_BACKOFF
