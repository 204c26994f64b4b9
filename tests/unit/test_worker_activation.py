"""The worker's composition applies activation: with an API key and no artifact it forms deterministically,
says so once and audits why; required refuses before anything polls; a matching artifact builds the
provider; a pin without evidence falls back with a pinned_policy_unevidenced audit."""

import json
import logging
from pathlib import Path
from typing import cast

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

import adapters.evidence
from adapters.cli.main import app
from adapters.composition import Composition
from adapters.memory.store import InMemoryStore
from adapters.settings import Settings
from domain.policy.activation import (
    SELECTION_AUDIT_OWNER,
    ActivationRefused,
    ArtifactSource,
    FormationMode,
    FoundArtifact,
)
from domain.policy.versions import FORMATION_9
from domain.ports import UnitOfWorkFactory
from domain.telemetry import AuditKind, AuditValue
from tests.evidence_builders import CORPORA, distillation

pytestmark = pytest.mark.usefixtures("api_key")


@pytest.fixture
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    monkeypatch.delenv("MEMORY_MODEL_PROFILE", raising=False)


def composition(store: InMemoryStore, **settings: object) -> Composition:
    built = Composition(settings=Settings(_env_file=None, **settings))  # type: ignore[call-arg, arg-type]
    # The store is the composition's to build; an in-memory one stands in for PostgreSQL here.
    built.__dict__["unit_of_work_factory"] = cast(UnitOfWorkFactory, store)
    return built


def selection_audits(store: InMemoryStore) -> list[dict[str, AuditValue]]:
    with store() as uow:
        return [a.details for a in uow.audits.for_owner(SELECTION_AUDIT_OWNER, AuditKind.SELECTION)]


def with_evidence(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tree ships its corpora and a formation@9 artifact evaluated on this very tuple."""
    comp = Composition(settings=Settings(_env_file=None))  # type: ignore[call-arg]
    running = comp.running_composition
    evidence = distillation(compiled_policy_version=running.compiled_policy_version)
    found = (
        FoundArtifact(name="memory-distillation.json", source=ArtifactSource.BUNDLED, evidence=evidence),
    )
    monkeypatch.setattr(adapters.evidence, "read_artifacts", lambda _path: (found, ()))
    monkeypatch.setattr(adapters.evidence, "shipped_corpora", lambda: CORPORA)


def test_api_key_and_no_artifact_forms_deterministically_and_says_so_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = InMemoryStore()
    with caplog.at_level(logging.INFO, logger="adapters.composition"):
        ports = composition(store).worker_ports
    assert ports.provider is None
    assert ports.activation is not None and ports.activation.label == "deterministic"
    said = [r for r in caplog.records if "formation policy selection" in r.getMessage()]
    assert len(said) == 1 and "deterministic formation" in said[0].getMessage()
    # In plain words first: what forms memories now, and the command that evaluates a model.
    assert said[0].getMessage().startswith("Memories are formed by the built-in rule-based former")
    assert "agent eval memory-distillation --model-policy balanced" in said[0].getMessage()
    [audit] = selection_audits(store)
    # The tree ships its corpora (evals/capability) but no artifact.
    assert audit["chosen_policy"] == "deterministic" and audit["reason"] == "no_evidenced_policy"
    assert audit["formation_policy_version"] == FORMATION_9 and audit["provider"] == "openai"


def test_required_refuses_before_touching_the_store() -> None:
    store = InMemoryStore()
    with pytest.raises(ActivationRefused, match="formation@9 required but not evidenced"):
        _ = composition(store, memory_formation_mode=FormationMode.REQUIRED).worker_ports
    assert selection_audits(store) == []


def test_agent_worker_formation_mode_required_refuses_to_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://nobody@127.0.0.1:9/none")
    result = CliRunner().invoke(app, ["worker", "--formation-mode", "required"])
    assert result.exit_code == 4
    assert "worker refused to start" in result.output and "no formation@9 artifact found" in result.output
    # What to do, in plain words: the way to start anyway and the command that evaluates a model.
    assert "set MEMORY_FORMATION_MODE=auto" in result.output
    assert "agent eval memory-distillation" in result.output


def test_a_matching_artifact_builds_the_provider(monkeypatch: pytest.MonkeyPatch) -> None:
    with_evidence(monkeypatch)
    store = InMemoryStore()
    ports = composition(store, memory_formation_mode=FormationMode.REQUIRED).worker_ports
    assert ports.provider is not None
    assert ports.activation is not None and ports.activation.label == FORMATION_9
    assert selection_audits(store)[0]["artifact"] == "memory-distillation.json"


def test_a_pin_without_evidence_falls_back_with_its_audit(monkeypatch: pytest.MonkeyPatch) -> None:
    with_evidence(monkeypatch)
    monkeypatch.setenv("AGENT_MEMORY_FORMATION_POLICY_PIN", "formation@10")
    store = InMemoryStore()
    ports = composition(store).worker_ports
    assert ports.provider is None
    [audit] = selection_audits(store)
    assert audit["reason"] == "pinned_policy_unevidenced" and audit["pin"] == "formation@10"


def test_agent_memory_policy_prints_the_tuple_and_why() -> None:
    result = CliRunner().invoke(app, ["memory", "policy"])
    assert result.exit_code == 0
    assert "nemori-assisted-v1" in result.output and "compiled_policy_version" in result.output
    assert "deterministic formation" in result.output
    assert "Memories are formed by the built-in rule-based former" in result.output


def test_plain_words_say_what_to_change(monkeypatch: pytest.MonkeyPatch) -> None:
    off = composition(InMemoryStore(), memory_formation_mode=FormationMode.OFF).activation
    assert off.summary() == (
        "Memories are formed by the built-in rule-based former: MEMORY_FORMATION_MODE is off. "
        "To use an evaluated provider model, set it to auto."
    )
    with_evidence(monkeypatch)
    monkeypatch.delenv("OPENAI_API_KEY")
    unkeyed = composition(InMemoryStore()).activation
    assert unkeyed.reason.value == "provider_not_configured"
    assert unkeyed.summary().endswith("but OPENAI_API_KEY is not set. Set OPENAI_API_KEY to use it.")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    evidenced = composition(InMemoryStore()).activation
    assert evidenced.summary().startswith("Memories are formed by openai ")
    assert (
        "(formation@9), evaluated on this release (evidence: memory-distillation.json)" in evidenced.summary()
    )


def test_settings_default_to_auto_without_a_pin_and_refuse_an_unknown_pin(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("MEMORY_FORMATION_MODE", "AGENT_MEMORY_FORMATION_POLICY_PIN"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.memory_formation_mode is FormationMode.AUTO and settings.formation_policy_pin is None
    monkeypatch.setenv("AGENT_MEMORY_FORMATION_POLICY_PIN", "formation@7")
    with pytest.raises(ValidationError, match="formation@8"):
        Settings(_env_file=None)  # type: ignore[call-arg]


def test_agent_memory_policy_names_an_operator_artifact_it_could_not_use(tmp_path: Path) -> None:
    """A mistyped MEMORY_EVIDENCE_PATH, an empty directory or a file that is no artifact is named with why,
    instead of the table saying no artifact was found."""
    unparsable = tmp_path / "evidence.json"
    unparsable.write_text('{"formation_policy_version": "formation@9"}')
    empty = tmp_path / "empty"
    empty.mkdir()
    for path, reason in (
        (tmp_path / "evidnce.json", "not_found"),
        (empty, "no_artifact_file"),
        (unparsable, "does_not_validate"),
    ):
        env = {"MEMORY_EVIDENCE_PATH": str(path), "COLUMNS": "400"}
        shown = CliRunner().invoke(app, ["memory", "policy"], env=env)
        assert shown.exit_code == 0, shown.output
        assert path.name in shown.output and reason in shown.output, shown.output
        as_json = CliRunner().invoke(app, ["memory", "policy", "--json"], env=env)
        skipped = json.loads(as_json.stdout)["skipped"]
        assert [(s["name"], s["source"], s["reason"]) for s in skipped] == [(path.name, "operator", reason)]
