"""Every stage schema is valid strict structured output; the checker catches what providers reject."""

from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError

from domain.candidates import ClaimKind, Derivation, Longevity, Polarity
from domain.formation.stage_schemas import (
    STAGE_RESPONSES,
    AnticipationResponse,
    DistillationResponse,
    IntegrationResponse,
    LedgerDisposition,
    check_strict,
    schema_violations,
    stage_schema,
    strict_schema,
)
from domain.telemetry import Stage


def _walk(node: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        found.append(node)
        for value in node.values():
            found.extend(_walk(value))
    elif isinstance(node, list):
        for value in node:
            found.extend(_walk(value))
    return found


@pytest.mark.parametrize("stage", list(Stage))
def test_every_stage_schema_is_strict(stage: Stage) -> None:
    name, schema = stage_schema(stage)
    assert check_strict(schema) == []
    assert name
    for node in _walk(schema):
        assert "default" not in node
        assert "$ref" not in node and "$defs" not in node
        if node.get("type") == "object":
            assert node["additionalProperties"] is False
            assert sorted(node["required"]) == sorted(node["properties"])


def test_every_stage_has_a_response_model() -> None:
    assert set(STAGE_RESPONSES) == set(Stage)


class Defaulted(BaseModel):
    model_config = ConfigDict(extra="forbid")

    statement: str
    polarity: Polarity = Polarity.ASSERT


class Optional_(BaseModel):
    note: str | None = None


def test_a_defaulted_model_fails_the_check() -> None:
    problems = check_strict(strict_schema(Defaulted))
    assert any("has a default" in p for p in problems)
    assert any("not required: polarity" in p for p in problems)


def test_an_optional_field_fails_the_check() -> None:
    problems = check_strict(strict_schema(Optional_))
    assert any("has a default" in p for p in problems)


def test_check_names_open_objects_unknown_keywords_and_untyped_arrays() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "array"},
            "b": {
                "type": "object",
                "properties": {"c": {"type": "string", "minLength": 1}},
                "required": ["c"],
            },
            "d": {"type": "strin"},
        },
        "required": ["a", "b", "d", "zz"],
        "additionalProperties": False,
    }
    problems = check_strict(schema)
    assert "$.a: array without items" in problems
    assert "$.b: additionalProperties must be false" in problems
    assert "$.b.c: keyword minLength is not allowed in strict mode" in problems
    assert "$.d: unknown type strin" in problems
    assert "$: required names unknown properties: zz" in problems
    assert check_strict({"anyOf": [{"type": "object"}]})[0] == "$: root must be an object"


def test_distillation_enums_come_from_the_candidate_language() -> None:
    schema = stage_schema(Stage.DISTILLATION)[1]
    candidate = schema["properties"]["candidates"]["items"]["properties"]
    assert candidate["claim_kind"]["enum"] == [k.value for k in ClaimKind]
    assert candidate["derivation"]["enum"] == [d.value for d in Derivation]
    assert candidate["longevity"]["enum"] == [v.value for v in Longevity]
    assert candidate["polarity"]["enum"] == [p.value for p in Polarity]
    disposition = schema["properties"]["coverage"]["items"]["properties"]["disposition"]
    assert disposition["enum"] == ["formed", "represented", "transient", "unsafe", "not_memory"]
    assert {d.value for d in LedgerDisposition} == set(disposition["enum"])
    prediction_index = schema["properties"]["coverage"]["items"]["properties"]["prediction_index"]
    assert prediction_index == {"anyOf": [{"type": "integer"}, {"type": "null"}]}


def test_a_prediction_can_name_at_most_one_memory() -> None:
    schema = stage_schema(Stage.ANTICIPATION)[1]
    memory_id = schema["properties"]["predictions"]["items"]["properties"]["memory_id"]
    assert memory_id == {"anyOf": [{"type": "string"}, {"type": "null"}]}
    for node in _walk(memory_id):
        assert node.get("type") != "array"
    one = {"predictions": [{"cue_before_seq": 2, "statement": "s", "memory_id": "m-1"}]}
    two = {"predictions": [{"cue_before_seq": 2, "statement": "s", "memory_id": ["m-1", "m-2"]}]}
    assert schema_violations(one, schema) == []
    assert schema_violations(two, schema) == ["$.predictions[0].memory_id: matches no alternative"]
    with pytest.raises(ValidationError):
        AnticipationResponse.model_validate(two)


def test_integration_sentences_carry_citations() -> None:
    schema = stage_schema(Stage.INTEGRATION)[1]
    sentence = schema["properties"]["episodes"]["items"]["properties"]["sentences"]["items"]
    assert sentence["required"] == ["text", "source_event_ids"]
    assert sentence["properties"]["source_event_ids"] == {"type": "array", "items": {"type": "integer"}}
    doc = {"episodes": [{"subjects": ["agent"], "sentences": [{"text": "t", "source_event_ids": [1, 2]}]}]}
    assert schema_violations(doc, schema) == []
    assert IntegrationResponse.model_validate(doc).episodes[0].sentences[0].source_event_ids == [1, 2]


def test_violations_report_paths_never_values() -> None:
    schema = stage_schema(Stage.DISTILLATION)[1]
    bad = {
        "coverage": [
            {"unit_id": "u1", "disposition": "secret", "candidate_indexes": [True], "prediction_index": None}
        ],
        "candidates": [],
        "secret key": 1,
    }
    problems = schema_violations(bad, schema)
    assert problems == [
        "$: unexpected property",
        "$.coverage[0].disposition: not an allowed value",
        "$.coverage[0].candidate_indexes[0]: expected integer",
    ]
    assert all("secret" not in p for p in problems)


def test_response_models_accept_a_full_distillation_answer() -> None:
    doc = {
        "coverage": [
            {"unit_id": "u1", "disposition": "formed", "candidate_indexes": [0], "prediction_index": None}
        ],
        "candidates": [
            {
                "subject": "personal AI agent",
                "claim_kind": "ongoing_project",
                "derivation": "direct",
                "longevity": "ongoing",
                "polarity": "assert",
                "statement": "User is building a personal AI agent.",
                "source_event_ids": [1],
                "evidence_spans": [{"seq": 1, "text": "building a personal AI agent"}],
            }
        ],
    }
    assert schema_violations(doc, stage_schema(Stage.DISTILLATION)[1]) == []
    parsed = DistillationResponse.model_validate(doc)
    assert parsed.candidates[0].claim_kind is ClaimKind.ONGOING_PROJECT
