"""The evidence artifact schemas refuse what could never have been published."""

import json

import pytest
from pydantic import ValidationError

from domain.policy.evidence import TUPLE_FIELDS, EvidenceTuple, parse_artifact
from tests.evidence_builders import distillation, distillation_dict, formation, formation_dict


def test_both_schemas_parse_by_their_artifact_field() -> None:
    comparative = parse_artifact(json.dumps(distillation_dict()).encode())
    single = parse_artifact(json.dumps(formation_dict()).encode())
    assert comparative == distillation()
    assert single == formation()


def test_formation10_artifact_with_no_seeded_case_is_refused() -> None:
    with pytest.raises(ValidationError, match="populated store"):
        formation(seeded_case_count=0)
    # The frozen control's historical evidence predates seed pools.
    assert formation("formation@8", seeded_case_count=0).seeded_case_count == 0


@pytest.mark.parametrize("build_ref", ["HEAD", "main", "0123456", "0123456789ABCDEF0123456789ABCDEF01234567"])
def test_build_ref_is_forty_lowercase_hex(build_ref: str) -> None:
    with pytest.raises(ValidationError, match="build_ref"):
        distillation(build_ref=build_ref)


def test_schema7_is_provider_default_evidence() -> None:
    assert distillation(schema_version=7).evidence_tuple.reasoning_effort is None
    with pytest.raises(ValidationError, match="schema 7"):
        distillation(schema_version=7, reasoning_effort="medium")
    assert distillation(reasoning_effort="medium").evidence_tuple.reasoning_effort == "medium"


def test_formation_artifact_records_no_effort_and_matches_only_null() -> None:
    with pytest.raises(ValidationError):
        formation(reasoning_effort="medium")
    assert formation().evidence_tuple.reasoning_effort is None


def test_extractor_must_be_the_policys() -> None:
    with pytest.raises(ValidationError, match="extractor_version"):
        formation("formation@10", extractor_version="provider-assisted-v2")


def test_runs_match_repeats_and_calls_are_three_per_segment() -> None:
    with pytest.raises(ValidationError, match="repeats"):
        distillation(repeats=3)
    document = distillation_dict()
    document["runs"][0]["holdout"]["arms"][2]["provider_calls"] += 1
    with pytest.raises(ValidationError, match="three provider calls"):
        parse_artifact(json.dumps(document).encode())


def test_cost_ceilings() -> None:
    with pytest.raises(ValidationError):
        distillation(cost_usd=1_000.0)
    with pytest.raises(ValidationError):
        formation(cost_usd=10.0)


def test_tuple_differences_name_every_differing_field_in_order() -> None:
    base = formation().evidence_tuple
    assert base.differences(base) == ()
    changed = base.model_copy(update={name: "x" for name in TUPLE_FIELDS})
    assert isinstance(changed, EvidenceTuple)
    assert base.differences(changed) == TUPLE_FIELDS
