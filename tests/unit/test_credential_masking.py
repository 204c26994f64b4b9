"""A user's own password, PIN, national id or card number forms no belief, and no derived narrative or
staged integration document repeats it: both are masked with what the credential detector flags."""

from datetime import UTC, datetime
from uuid import uuid4

import pytest

from domain.formation.grounding import REDACTED, holds_credential, mask_credentials
from domain.formation.integration import integration_outcome
from domain.providers import ProviderResponse, ProviderUsage
from domain.staging import IntegrationDocument
from domain.telemetry import StageOutcome
from tests.builders import event
from tests.commit_support import segment

NOW = datetime(2026, 9, 2, 12, 0, tzinfo=UTC)
SECRETS = ("hunter2zz", "4412", "123-45-6789", "4111 1111 1111 1111")
TEXTS = (
    "My password is hunter2zz and I am building a personal AI agent.",
    "My bank PIN: 4412, do not forget it.",
    "My SSN is 123-45-6789 for the tax form.",
    "Charge my card 4111 1111 1111 1111 for the flute lessons.",
)


@pytest.mark.parametrize("text", TEXTS)
def test_masking_removes_what_the_detector_flags_and_keeps_the_rest(text: str) -> None:
    masked = mask_credentials(text)
    assert holds_credential(text) and not holds_credential(masked)
    assert REDACTED in masked
    assert not any(secret in masked for secret in SECRETS)
    assert mask_credentials(masked) == masked
    assert mask_credentials("I am building a personal AI agent.") == "I am building a personal AI agent."


def _narratives(document: IntegrationDocument) -> str:
    return " ".join(episode.narrative for episode in document.episodes)


def test_the_fallback_narrative_and_its_staged_document_are_masked() -> None:
    session = uuid4()
    events = [event(seq, text, session_id=session) for seq, text in enumerate(TEXTS, start=1)]
    result = integration_outcome(segment(session, [e.seq for e in events]), events, None, now=NOW)
    assert result.report.outcome is StageOutcome.FALLBACK
    staged = result.staged
    assert isinstance(staged, IntegrationDocument)
    assert "personal AI agent" in _narratives(staged)
    assert not any(secret in _narratives(staged) for secret in SECRETS)
    assert not any(secret in str(staged.staged_output(segment(session, [1])).document) for secret in SECRETS)


def test_a_provider_narrative_is_masked_before_it_is_staged() -> None:
    session = uuid4()
    events = [event(seq, text, session_id=session) for seq, text in enumerate(TEXTS, start=1)]
    document = {
        "episodes": [
            {
                "subjects": ["project:personal-ai-agent"],
                "sentences": [{"text": e.text, "source_event_ids": [e.seq]} for e in events],
            }
        ]
    }
    answer = ProviderResponse(
        document=document, usage=ProviderUsage(), cost_usd=0.0, latency_ms=1, model="scripted"
    )
    result = integration_outcome(segment(session, [e.seq for e in events]), events, answer, now=NOW)
    staged = result.staged
    assert result.report.outcome is StageOutcome.OK
    assert isinstance(staged, IntegrationDocument) and staged.episodes
    assert not any(secret in _narratives(staged) for secret in SECRETS)
