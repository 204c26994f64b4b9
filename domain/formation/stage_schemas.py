"""Response shapes of the stage calls (formation@9's three, formation@8/@10's one extraction), their strict structured-output JSON schemas, and the check
of an answer against them (the same models, in strict mode).

These models describe what a provider may answer, not what is valid: citation, coverage and span checks
belong to local validation, which is why no field carries a length or range constraint here. The schema
subset below is the one both OpenAI strict structured outputs and Anthropic structured outputs accept.
"""

import copy
import functools
import json
from enum import StrEnum
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from domain.candidates import ClaimKind, Derivation, Longevity, Polarity
from domain.providers import ProviderRequest
from domain.telemetry import CoverageDisposition, Stage


class _Response(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --- call 1: episode integration ---------------------------------------------------------------


class NarrativeSentence(_Response):
    text: str
    source_event_ids: list[int]


class EpisodeFragment(_Response):
    subjects: list[str]
    sentences: list[NarrativeSentence]


class IntegrationResponse(_Response):
    episodes: list[EpisodeFragment]


# --- call 2: causally blinded anticipation -----------------------------------------------------


class Prediction(_Response):
    cue_before_seq: int
    statement: str
    # One scalar, never a list: a compound prediction cannot combine independently stored memories.
    memory_id: str | None


class AnticipationResponse(_Response):
    predictions: list[Prediction]


# --- call 3: prediction-error distillation -----------------------------------------------------


class LedgerDisposition(StrEnum):
    """What a provider may say about a coverage unit; represented_unverified is a local verdict only."""

    FORMED = CoverageDisposition.FORMED.value
    REPRESENTED = CoverageDisposition.REPRESENTED.value
    TRANSIENT = CoverageDisposition.TRANSIENT.value
    UNSAFE = CoverageDisposition.UNSAFE.value
    NOT_MEMORY = CoverageDisposition.NOT_MEMORY.value


class CoverageEntry(_Response):
    unit_id: str
    disposition: LedgerDisposition
    candidate_indexes: list[int]
    prediction_index: int | None


class ProposedEvidenceSpan(_Response):
    seq: int
    text: str


class ProposedCandidate(_Response):
    subject: str
    claim_kind: ClaimKind
    derivation: Derivation
    longevity: Longevity
    polarity: Polarity
    statement: str
    source_event_ids: list[int]
    evidence_spans: list[ProposedEvidenceSpan]


class DistillationResponse(_Response):
    coverage: list[CoverageEntry]
    candidates: list[ProposedCandidate]


# --- formation@8 / formation@10: one provider-assisted extraction call ---------------------------

# The frozen controls' claim vocabulary, spelled out rather than read from ClaimKind: a kind added for
# formation@9 must not silently widen what formation@8 may answer (its schema is part of its recorded
# request). Every value is a ClaimKind.
ExtractedKind = Literal[
    "ongoing_project",
    "goal",
    "role",
    "skill",
    "interest",
    "habit",
    "constraint",
    "recurring_state",
    "relationship",
    "preference",
    "resource",
    "project_fact",
]


class ExtractedSpan(_Response):
    seq: int
    text: str


class ExtractedMemory(_Response):
    """What the controls can express: a stated claim, its kind and lifetime, and its exact evidence. No
    derivation or polarity: every extracted memory is a direct assertion."""

    subject: str
    claim_kind: ExtractedKind
    longevity: Literal["ongoing", "durable"]
    statement: str
    evidence_spans: list[ExtractedSpan]


class ExtractionResponse(_Response):
    memories: list[ExtractedMemory]


STAGE_RESPONSES: Final[dict[Stage, type[BaseModel]]] = {
    Stage.INTEGRATION: IntegrationResponse,
    Stage.ANTICIPATION: AnticipationResponse,
    Stage.DISTILLATION: DistillationResponse,
    Stage.EXTRACTION: ExtractionResponse,
}

STAGE_SCHEMA_NAMES: Final[dict[Stage, str]] = {
    Stage.INTEGRATION: "episode_integration",
    Stage.ANTICIPATION: "blinded_anticipation",
    Stage.DISTILLATION: "prediction_error_distillation",
    Stage.EXTRACTION: "provider_assisted_extraction",
}


# --- strict schema generation and checking -----------------------------------------------------

_ALLOWED_KEYWORDS: Final = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "const",
        "anyOf",
        "description",
    }
)
_JSON_TYPES: Final = frozenset({"object", "array", "string", "integer", "number", "boolean", "null"})
# Cosmetic keys pydantic emits that carry no constraint and only cost prompt tokens.
_DROPPED: Final = frozenset({"title"})


def strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema in strict structured-output form: references inlined, titles dropped,
    every object closed. It does not paper over a default or an optional property: those survive so
    check_strict reports them, because a provider rejects them on every call."""
    raw = model.model_json_schema(mode="validation")
    defs = raw.pop("$defs", {})
    schema = _inline(raw, defs, ())
    assert isinstance(schema, dict)
    return schema


def _inline(node: Any, defs: dict[str, Any], seen: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        return [_inline(item, defs, seen) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        if name in seen:
            raise ValueError(f"recursive schema reference {name} cannot be inlined")
        target = _inline(copy.deepcopy(defs[name]), defs, (*seen, name))
        # A class docstring explains code to its readers, not the task to a model.
        target.pop("description", None)
        siblings = {k: v for k, v in node.items() if k != "$ref"}
        merged = {**target, **_inline(siblings, defs, seen)}
        return {k: v for k, v in merged.items() if k not in _DROPPED}
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _DROPPED:
            continue
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: _inline(sub, defs, seen) for name, sub in value.items()}
        else:
            out[key] = _inline(value, defs, seen)
    if out.get("type") == "object" and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


def check_strict(schema: dict[str, Any]) -> list[str]:
    """Every rule the schema breaks, as 'path: problem'. Empty means providers accept it as strict."""
    problems: list[str] = []
    if schema.get("type") != "object":
        problems.append("$: root must be an object")
    _check_node(schema, "$", problems)
    return problems


def _check_node(node: Any, path: str, problems: list[str]) -> None:
    if not isinstance(node, dict):
        problems.append(f"{path}: schema must be an object")
        return
    for key in node:
        if key == "default":
            problems.append(f"{path}: has a default")
        elif key not in _ALLOWED_KEYWORDS:
            problems.append(f"{path}: keyword {key} is not allowed in strict mode")
    if "anyOf" in node:
        branches = node["anyOf"]
        if not isinstance(branches, list) or not branches:
            problems.append(f"{path}: anyOf must be a non-empty list")
        else:
            for i, branch in enumerate(branches):
                _check_node(branch, f"{path}.anyOf[{i}]", problems)
        return
    types = node.get("type")
    type_list = types if isinstance(types, list) else [types]
    if types is None:
        if "enum" not in node and "const" not in node:
            problems.append(f"{path}: needs a type")
        return
    for t in type_list:
        if t not in _JSON_TYPES:
            problems.append(f"{path}: unknown type {t}")
    if "object" in type_list:
        properties = node.get("properties")
        if not isinstance(properties, dict):
            problems.append(f"{path}: object without properties")
            properties = {}
        if node.get("additionalProperties") is not False:
            problems.append(f"{path}: additionalProperties must be false")
        required = node.get("required", [])
        missing = [name for name in properties if name not in required]
        if missing:
            problems.append(f"{path}: properties not required: {', '.join(missing)}")
        extra = [name for name in required if name not in properties]
        if extra:
            problems.append(f"{path}: required names unknown properties: {', '.join(extra)}")
        for name, sub in properties.items():
            _check_node(sub, f"{path}.{name}", problems)
    if "array" in type_list:
        if "items" not in node:
            problems.append(f"{path}: array without items")
        else:
            _check_node(node["items"], f"{path}[]", problems)


@functools.cache
def stage_schema(stage: Stage) -> tuple[str, dict[str, Any]]:
    """(schema name, strict schema) for a stage's request; refuses a schema a provider would reject.

    Cached: the schema is a constant of the release, and building it costs every provider request."""
    schema = strict_schema(STAGE_RESPONSES[stage])
    problems = check_strict(schema)
    if problems:
        raise ValueError(f"{stage.value} schema is not strict: {'; '.join(problems)}")
    return STAGE_SCHEMA_NAMES[stage], schema


def stage_request(stage: Stage, instructions: str, content: str) -> ProviderRequest:
    """One stage call: its cacheable instructions, the content, and the stage's strict response schema."""
    name, schema = stage_schema(stage)
    return ProviderRequest(
        stage=stage,
        stable_instructions=instructions,
        content=content,
        schema_name=name,
        json_schema=schema,
    )


# --- conformance of an answer to its stage's schema --------------------------------------------


def schema_violations(document: Any, schema: dict[str, Any], limit: int = 20) -> list[str]:
    """Where a document leaves a stage's strict schema, as 'path: problem', nearest the root first.

    The check is the stage's response model in strict mode (no coercion, as the strict schema allows
    none), so the schema sent to the provider and the check of its answer come from one definition.
    Reports paths only, never values or unexpected keys, because a document holds user text."""
    try:
        _response_model(schema).model_validate_json(json.dumps(document), strict=True)
    except ValidationError as invalid:
        found = [_violation(error["type"], error["loc"], schema) for error in invalid.errors()]
        ordered = sorted(dict.fromkeys(found), key=lambda violation: violation[0])
        return [problem for _, problem in ordered][:limit]
    return []


def _response_model(schema: dict[str, Any]) -> type[BaseModel]:
    for stage, model in STAGE_RESPONSES.items():
        if stage_schema(stage)[1] == schema:
            return model
    raise ValueError("not the strict schema of a stage's response")


def _violation(kind: str, loc: tuple[int | str, ...], schema: dict[str, Any]) -> tuple[int, str]:
    """(depth, 'path: problem') for one model error, phrased from the schema node it happened at."""
    if kind in ("missing", "extra_forbidden"):
        # Both are faults of the object holding the property; an unexpected key may be user text.
        depth, path, _ = _locate(schema, loc[:-1])
        return depth, f"{path}: missing {loc[-1]}" if kind == "missing" else f"{path}: unexpected property"
    depth, path, node = _locate(schema, loc)
    if "anyOf" in node:
        return depth, f"{path}: matches no alternative"
    if "const" in node:
        return depth, f"{path}: not the constant"
    if "enum" in node:
        return depth, f"{path}: not an allowed value"
    types = node.get("type")
    return depth, f"{path}: expected {'|'.join(types) if isinstance(types, list) else types}"


def _locate(schema: dict[str, Any], loc: tuple[int | str, ...]) -> tuple[int, str, dict[str, Any]]:
    """Follow a model error's location through the schema: (depth, path, node). It stops at a union,
    where the value matched no alternative whichever branch the model tried last."""
    node, path, depth = schema, "$", 0
    for step in loc:
        if "anyOf" in node:
            break
        if isinstance(step, int) and "items" in node:
            node, path = node["items"], f"{path}[{step}]"
        elif isinstance(step, str) and step in node.get("properties", {}):
            node, path = node["properties"][step], f"{path}.{step}"
        else:
            break
        depth += 1
    return depth, path, node
