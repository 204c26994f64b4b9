"""Response shapes of the three stage calls and their strict structured-output JSON schemas.

These models describe what a provider may answer, not what is valid: citation, coverage and span checks
belong to local validation, which is why no field carries a length or range constraint here. The schema
subset below is the one both OpenAI strict structured outputs and Anthropic structured outputs accept.
"""

import copy
import functools
from enum import StrEnum
from typing import Any, Final

from pydantic import BaseModel, ConfigDict

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


STAGE_RESPONSES: Final[dict[Stage, type[BaseModel]]] = {
    Stage.INTEGRATION: IntegrationResponse,
    Stage.ANTICIPATION: AnticipationResponse,
    Stage.DISTILLATION: DistillationResponse,
}

STAGE_SCHEMA_NAMES: Final[dict[Stage, str]] = {
    Stage.INTEGRATION: "episode_integration",
    Stage.ANTICIPATION: "blinded_anticipation",
    Stage.DISTILLATION: "prediction_error_distillation",
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


# --- conformance of an answer to a strict schema -----------------------------------------------

_PY_TYPES: Final[dict[str, tuple[type, ...]]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


def schema_violations(document: Any, schema: dict[str, Any], limit: int = 20) -> list[str]:
    """Paths where a document leaves the strict-subset schema. Reports paths only, never values,
    because a document holds user text."""
    problems: list[str] = []
    _conform(document, schema, "$", problems, limit)
    return problems[:limit]


def _type_matches(value: Any, json_type: str) -> bool:
    if json_type == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if json_type == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, _PY_TYPES.get(json_type, ()))


def _conform(value: Any, node: dict[str, Any], path: str, problems: list[str], limit: int) -> None:
    if len(problems) >= limit:
        return
    if "anyOf" in node:
        for branch in node["anyOf"]:
            trial: list[str] = []
            _conform(value, branch, path, trial, limit)
            if not trial:
                return
        problems.append(f"{path}: matches no alternative")
        return
    if "const" in node and value != node["const"]:
        problems.append(f"{path}: not the constant")
        return
    if "enum" in node and value not in node["enum"]:
        problems.append(f"{path}: not an allowed value")
        return
    types = node.get("type")
    if types is None:
        return
    type_list = types if isinstance(types, list) else [types]
    if not any(_type_matches(value, t) for t in type_list):
        problems.append(f"{path}: expected {'|'.join(type_list)}")
        return
    if isinstance(value, dict):
        properties = node.get("properties", {})
        for name in node.get("required", []):
            if name not in value:
                problems.append(f"{path}: missing {name}")
        if node.get("additionalProperties") is False:
            for name in value:
                if name not in properties:
                    problems.append(f"{path}: unexpected property")
        for name, sub in properties.items():
            if name in value:
                _conform(value[name], sub, f"{path}.{name}", problems, limit)
    elif isinstance(value, list) and "items" in node:
        for i, item in enumerate(value):
            _conform(item, node["items"], f"{path}[{i}]", problems, limit)
