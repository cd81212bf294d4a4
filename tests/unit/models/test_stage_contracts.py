"""Stage contracts: what is sent to a model, and how its replies are read."""

from __future__ import annotations

from typing import Any

import pytest

from memwarden.models.base import ModelOutputError
from memwarden.models.contracts import (
    CONTRACTS,
    MAX_ITEMS,
    REASON_CODES,
    SHORT_CHARS,
    VERDICTS,
    AdjudicationOutput,
    ExtractionOutput,
    JudgeOutput,
    RowJudgeOutput,
    first_json_object,
    schema_for,
    validate_output,
)


def _walk(node: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        found.append(node)
        for value in node.values():
            found += _walk(value)
    elif isinstance(node, list):
        for value in node:
            found += _walk(value)
    return found


@pytest.mark.parametrize("name", sorted(CONTRACTS))
def test_every_array_and_string_in_a_sent_schema_is_capped(name: str) -> None:
    nodes = _walk(schema_for(name))
    arrays = [n for n in nodes if n.get("type") == "array"]
    strings = [n for n in nodes if n.get("type") == "string" and "enum" not in n]
    assert arrays or name in ("adjudication", "consolidation", "summary")  # no list fields
    assert all("maxItems" in n for n in arrays)
    assert all("maxLength" in n for n in strings)


@pytest.mark.parametrize("name", sorted(CONTRACTS))
def test_sent_schemas_are_self_contained_and_require_every_declared_field(name: str) -> None:
    schema = schema_for(name)
    assert "$defs" not in schema and "$ref" not in str(schema)
    for node in _walk(schema):
        if node.get("type") == "object" and "properties" in node:
            assert node["required"] == list(node["properties"])


def test_the_judge_schema_lists_exactly_the_contract_verdicts_and_reason_codes() -> None:
    schema = schema_for("judge")
    assert tuple(schema["properties"]["verdict"]["enum"]) == VERDICTS
    assert tuple(schema["properties"]["reasons"]["items"]["enum"]) == REASON_CODES
    assert VERDICTS == ("pass", "warn", "fail", "deny")
    assert REASON_CODES == (
        "payment_card",
        "credential",
        "personal_data",
        "sensitive_inference",
        "prompt_injection",
        "policy",
    )


def test_the_extraction_schema_uses_the_contract_field_names() -> None:
    props = schema_for("extraction")["properties"]
    assert list(props) == [
        "entities",
        "attributes",
        "relations",
        "actions",
        "instructions",
        "uncertainties",
        "corrections",
    ]
    item = props["corrections"]["items"]["properties"]
    assert list(item) == ["entity", "key", "oldValue", "newValue"]
    assert list(props["entities"]["items"]["properties"]) == [
        "name",
        "entityType",
        "memoryCategory",
    ]


def test_a_memory_category_outside_the_three_becomes_context() -> None:
    data = validate_output(
        ExtractionOutput,
        {
            "entities": [
                {"name": "A", "entityType": "person", "memoryCategory": "Identity"},
                {"name": "B", "entityType": "group", "memoryCategory": "group"},
                {"name": "C", "entityType": "person"},
            ]
        },
    )
    assert [e["memoryCategory"] for e in data["entities"]] == ["identity", "context", "context"]


def test_missing_extraction_arrays_read_as_empty() -> None:
    data = validate_output(ExtractionOutput, {"entities": []})
    assert data["corrections"] == [] and data["uncertainties"] == []


def test_overlong_lists_and_strings_are_cut_rather_than_failing_the_window() -> None:
    many = [{"name": "x" * 500, "entityType": "t", "memoryCategory": "knowledge"}] * 80
    data = validate_output(ExtractionOutput, {"entities": many})
    assert len(data["entities"]) == MAX_ITEMS
    assert len(data["entities"][0]["name"]) == SHORT_CHARS


def test_numbers_in_string_fields_are_read_as_text() -> None:
    data = validate_output(
        ExtractionOutput,
        {
            "attributes": [
                {"entity": "user", "key": "age", "value": 34, "memoryCategory": "identity"}
            ]
        },
    )
    assert data["attributes"][0]["value"] == "34"


def test_a_missing_required_field_is_an_output_error() -> None:
    with pytest.raises(ModelOutputError):
        validate_output(ExtractionOutput, {"entities": [{"name": "A"}]})


def test_extra_fields_a_model_adds_are_allowed() -> None:
    data = validate_output(JudgeOutput, {"verdict": "pass", "reasons": [], "explanation": "ok"})
    assert data["explanation"] == "ok"


def test_an_unknown_verdict_is_an_output_error() -> None:
    with pytest.raises(ModelOutputError):
        validate_output(JudgeOutput, {"verdict": "allow", "reasons": []})


def test_unknown_reason_codes_become_policy_so_the_verdict_is_kept() -> None:
    data = validate_output(
        JudgeOutput, {"verdict": "FAIL", "reasons": ["pii", "Credential", "pii"]}
    )
    assert data == {"verdict": "fail", "reasons": ["policy", "credential"]}


def test_row_judge_replies_keep_each_caller_assigned_id() -> None:
    data = validate_output(
        RowJudgeOutput,
        {"rows": [{"id": "r1", "verdict": "pass", "reasons": []}, {"id": 2, "verdict": "deny"}]},
    )
    assert [(r["id"], r["verdict"]) for r in data["rows"]] == [("r1", "pass"), ("2", "deny")]


@pytest.mark.parametrize(
    ("raw", "superseding", "confidence"),
    [("A", "a", 0.7), ("none", None, 0.0), (None, None, 1.0)],
)
def test_adjudication_normalises_superseding_and_clamps_confidence(
    raw: str | None, superseding: str | None, confidence: float
) -> None:
    given = {"none": -0.2, None: 1.7}.get(raw, 0.7)  # type: ignore[call-overload]
    data = validate_output(
        AdjudicationOutput, {"verdict": "supersedes", "superseding": raw, "confidence": given}
    )
    assert data["superseding"] == superseding and data["confidence"] == confidence


def test_the_first_json_object_is_found_inside_prose_and_fences() -> None:
    assert first_json_object('x {"a": {"b": 1}} y {"c": 2}') == {"a": {"b": 1}}
    assert first_json_object('{broken {"ok": true}') == {"ok": True}
    with pytest.raises(ModelOutputError):
        first_json_object("[1, 2] no object")
