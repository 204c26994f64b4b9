"""What the wire tests of every provider adapter share: a stage's request, and a failure that leaks nothing."""

import pytest

from domain.formation.stage_schemas import stage_request as domain_stage_request
from domain.providers import Provider, ProviderFailure, ProviderRequest
from domain.telemetry import Stage


def stage_request(stage: Stage, stable: str, content: str, timeout_s: float) -> ProviderRequest:
    """The stages' own request, with a test's short timeout."""
    return domain_stage_request(stage, stable, content).model_copy(update={"timeout_s": timeout_s})


def content_free_failure(provider: Provider, request: ProviderRequest) -> ProviderFailure:
    """The failure the call raises, which carries nothing the server said (its error text echoes user
    content) and no chained SDK exception."""
    with pytest.raises(ProviderFailure) as caught:
        provider.complete(request)
    err = caught.value
    assert "secret" not in str(err)
    assert err.__cause__ is None and (err.__context__ is None or err.__suppress_context__)
    return err
