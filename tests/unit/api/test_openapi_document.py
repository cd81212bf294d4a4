"""/openapi.json describes the API the service answers (issue 15, finding 13): the error
statuses and their schema, no 422 (validation answers 400), and bearer authentication."""

from __future__ import annotations

import re
from typing import Any

import pytest

from memwarden.api.app import create_app

PUBLIC = {"/health", "/metrics", "/openapi.json"}
METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return create_app().openapi()  # no server, no database


def _operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, op)
        for path, item in spec["paths"].items()
        for method, op in item.items()
        if method in METHODS
    ]


def _error_schema(spec: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
    schema = response["content"]["application/json"]["schema"]
    ref = schema["$ref"].rsplit("/", 1)[-1]
    return spec["components"]["schemas"][ref]


def test_bearer_security_scheme_is_declared(spec: dict[str, Any]) -> None:
    schemes = spec["components"]["securitySchemes"]
    assert any(s["type"] == "http" and s["scheme"] == "bearer" for s in schemes.values())


def test_every_api_operation_requires_the_bearer_scheme(spec: dict[str, Any]) -> None:
    name = next(iter(spec["components"]["securitySchemes"]))
    for path, method, op in _operations(spec):
        if path in PUBLIC:
            assert not op.get("security"), (method, path)
        else:
            assert {name: []} in op.get("security", []), (method, path)


@pytest.mark.parametrize("status", ["400", "401"])
def test_every_api_operation_documents_errors_with_the_error_schema(
    spec: dict[str, Any], status: str
) -> None:
    ops = [(p, m, op) for p, m, op in _operations(spec) if p.startswith("/api/v1")]
    assert ops
    for path, method, op in ops:
        response = op["responses"].get(status)
        assert response is not None, (method, path, status)
        schema = _error_schema(spec, response)
        assert schema["required"] == ["error"], (method, path)
        inner = schema["properties"]["error"]
        inner = spec["components"]["schemas"][inner["$ref"].rsplit("/", 1)[-1]]
        assert {"code", "message", "field"} <= set(inner["properties"])
        assert set(inner["required"]) == {"code", "message"}


def test_other_error_statuses_are_documented(spec: dict[str, Any]) -> None:
    statuses = {s for _, _, op in _operations(spec) for s in op["responses"]}
    assert {"403", "404", "413", "429"} <= statuses


def test_no_operation_documents_fastapi_validation_errors(spec: dict[str, Any]) -> None:
    # Validation answers 400; a 422 left is the judge's refusal, in the error schema.
    for path, method, op in _operations(spec):
        if "422" in op["responses"]:
            schema = op["responses"]["422"]["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/ErrorResponse"}, (method, path)
    assert "HTTPValidationError" not in spec.get("components", {}).get("schemas", {})


# The operations whose success answer is described by a named model (*/responses.py).
DESCRIBED = [
    ("post", "/api/v1/{context_id}/facts", "201"),
    ("post", "/api/v1/{context_id}/facts/batch", "200"),
    ("post", "/api/v1/{context_id}/query", "200"),
    ("get", "/api/v1/{context_id}/query", "200"),
    ("get", "/api/v1/{context_id}/profile", "200"),
    ("get", "/api/v1/{context_id}/state", "200"),
    ("post", "/api/v1/{context_id}/chat", "200"),
    ("post", "/api/v1/{context_id}/documents", "202"),
    ("get", "/api/v1/{context_id}/documents", "200"),
    ("get", "/api/v1/{context_id}/documents/{document_id}", "200"),
    ("delete", "/api/v1/{context_id}/documents/{document_id}", "200"),
    ("get", "/api/v1/{context_id}/judgements", "200"),
    ("get", "/api/v1/{context_id}/judgements/{judgement_id}", "200"),
    ("post", "/api/v1/{context_id}/judgements/{judgement_id}/override", "200"),
    ("post", "/api/v1/{context_id}/judgements/{judgement_id}/approve", "200"),
    ("post", "/api/v1/{context_id}/judgements/{judgement_id}/reject", "200"),
    ("post", "/api/v1/{context_id}/judgements/dry-run", "200"),
    ("post", "/api/v1/{context_id}/hygiene/scan", "202"),
    ("get", "/api/v1/{context_id}/hygiene/runs/{run_id}", "200"),
    ("get", "/api/v1/{context_id}/hygiene/queue", "200"),
    ("post", "/api/v1/{context_id}/hygiene/queue/{item_id}/resolve", "200"),
    ("post", "/api/v1/{context_id}/hygiene/memories/{record_id}/restore", "200"),
    ("post", "/api/v1/{context_id}/hygiene/memories/{record_id}/challenge", "200"),
    ("post", "/api/v1/{context_id}/passes/{stage}/run", "202"),
    ("get", "/api/v1/{context_id}/passes/runs/{run_id}", "200"),
    ("post", "/api/v1/memory/commands", "200"),
    ("post", "/api/v1/memory/read", "200"),
    ("post", "/api/v1/memory/search", "200"),
    ("post", "/api/v1/memory/embeddings", "200"),
    ("post", "/api/v1/{context_id}/turns/{turn_id}/reprocess", "200"),
    ("post", "/api/v1/{context_id}/documents/{document_id}/reprocess", "200"),
    ("post", "/api/v1/memory/reviews", "200"),
    ("post", "/api/v1/memory/reviews/state", "200"),
    ("post", "/api/v1/memory/reviews/read", "200"),
    ("post", "/api/v1/contexts", "201"),
    ("get", "/api/v1/contexts", "200"),
    ("get", "/api/v1/contexts/{context_id}", "200"),
    ("post", "/api/v1/contexts/{context_id}/keys", "201"),
    ("get", "/api/v1/contexts/{context_id}/keys", "200"),
    ("delete", "/api/v1/contexts/{context_id}/keys/{key_id}", "200"),
    ("post", "/api/v1/{context_id}/reflect", "200"),
    ("post", "/api/v1/memory/reviews/eligibility", "200"),
    ("get", "/api/v1/memory/changes", "200"),
    ("get", "/api/v1/{context_id}/audit", "200"),
    ("get", "/api/v1/{context_id}/usage", "200"),
    ("get", "/health", "200"),
    ("get", "/health", "503"),
]


@pytest.mark.parametrize(("method", "path", "status"), DESCRIBED)
def test_the_main_operations_describe_their_success_answer_with_a_named_model(
    spec: dict[str, Any], method: str, path: str, status: str
) -> None:
    response = spec["paths"][path][method]["responses"][status]
    schema = response["content"]["application/json"]["schema"]
    assert set(schema) == {"$ref"}, (method, path, schema)  # the model alone, no plain object
    model = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    assert model["type"] == "object" and model["properties"] and model.get("required")


def test_a_documented_model_allows_fields_it_does_not_name(spec: dict[str, Any]) -> None:
    """The models document answers built as dicts; a key added later must not make the
    document wrong for clients that validate strictly."""
    for method, path, status in DESCRIBED:
        schema = spec["paths"][path][method]["responses"][status]["content"]["application/json"]
        model = spec["components"]["schemas"][schema["schema"]["$ref"].rsplit("/", 1)[-1]]
        assert model.get("additionalProperties") is True, (method, path)


# Operations whose success answer may stay without a schema, each with its reason. Empty:
# every 2xx of every operation says what its body holds.
UNDESCRIBED: dict[tuple[str, str, str], str] = {}


def _resolve(schema: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _says_what_it_holds(schema: Any, spec: dict[str, Any]) -> bool:
    """False for `{}`, an object with no named properties (`additionalProperties` alone)
    and anything built only of those; an SSE event's JSON data is judged by its
    `contentSchema`."""
    if not isinstance(schema, dict):
        return False
    schema = _resolve(schema, spec)
    branches = schema.get("oneOf") or schema.get("anyOf")
    if branches:
        return all(_says_what_it_holds(branch, spec) for branch in branches)
    if "contentSchema" in schema:
        return _says_what_it_holds(schema["contentSchema"], spec)
    if schema.get("type") == "object" or "properties" in schema:
        properties = schema.get("properties") or {}
        if "data" in properties and "contentSchema" in properties["data"]:
            return _says_what_it_holds(properties["data"], spec)
        return bool(properties)
    return "type" in schema or "const" in schema or "enum" in schema


def _success_schemas(spec: dict[str, Any]) -> list[tuple[str, str, str, str, Any]]:
    """(method, path, status, media type, schema) of every 2xx answer; an event stream's
    schema is its `itemSchema` (one event), a 2xx without content has None."""
    found: list[tuple[str, str, str, str, Any]] = []
    for path, method, op in _operations(spec):
        for status, response in op["responses"].items():
            if not status.startswith("2"):
                continue
            content = response.get("content") or {"": {}}
            for media, entry in content.items():
                key = "itemSchema" if media == "text/event-stream" else "schema"
                found.append((method, path, status, media, entry.get(key)))
    return found


def test_the_schema_check_refuses_plain_objects() -> None:
    spec = {"components": {"schemas": {"Empty": {"type": "object"}, "M": {"properties": {}}}}}
    for schema in (
        {},
        None,
        {"type": "object", "additionalProperties": True},
        {"$ref": "#/components/schemas/Empty"},
        {"$ref": "#/components/schemas/M"},
        {"oneOf": [{"type": "string"}, {}]},
        {"type": "object", "properties": {"data": {"type": "string", "contentSchema": {}}}},
    ):
        assert not _says_what_it_holds(schema, spec), schema
    assert _says_what_it_holds({"type": "string"}, spec)
    assert _says_what_it_holds({"type": "object", "properties": {"a": {}}}, spec)


def test_every_success_answer_of_every_operation_has_a_schema(spec: dict[str, Any]) -> None:
    found = _success_schemas(spec)
    assert len(found) >= 50, len(found)
    bare = [
        f"{method.upper()} {path} {status} {media}"
        for method, path, status, media, schema in found
        if (method, path, status) not in UNDESCRIBED and not _says_what_it_holds(schema, spec)
    ]
    assert not bare, bare


@pytest.mark.parametrize("method", ["get", "patch"])
def test_a_contexts_configuration_is_answered_as_the_model_that_validates_it(
    spec: dict[str, Any], method: str
) -> None:
    """Exact, unlike the other models: the answer is that model dumped, so it has every
    field and no other."""
    schema = spec["paths"]["/api/v1/contexts/{context_id}/config"][method]["responses"]["200"]
    assert schema["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ContextConfig"
    }
    config = spec["components"]["schemas"]["ContextConfig"]
    assert set(config["required"]) == set(config["properties"]) >= {"judge", "hygiene", "passes"}
    assert config["additionalProperties"] is False
    judge = spec["components"]["schemas"]["JudgeConfig"]
    assert set(judge["required"]) == set(judge["properties"])


def test_the_chat_stream_documents_each_event_and_its_data(spec: dict[str, Any]) -> None:
    answer = spec["paths"]["/api/v1/{context_id}/chat/stream"]["post"]["responses"]["200"]
    assert set(answer["content"]) == {"text/event-stream"}
    media = answer["content"]["text/event-stream"]
    assert "schema" not in media  # beside itemSchema it would describe the whole stream
    events = {
        branch["properties"]["event"]["const"]: branch["properties"]["data"]
        for branch in media["itemSchema"]["oneOf"]
    }
    assert set(events) == {"memories", "token", "done", "error"}
    for data in events.values():
        assert data["contentMediaType"] == "application/json"
        model = _resolve(data["contentSchema"], spec)
        assert model["properties"] and model["required"], data
    done = _resolve(events["done"]["contentSchema"], spec)
    assert {"sessionId", "turnId", "model", "cached", "usage"} <= set(done["required"])


def test_metrics_are_documented_as_prometheus_text(spec: dict[str, Any]) -> None:
    answer = spec["paths"]["/metrics"]["get"]["responses"]["200"]
    assert set(answer["content"]) == {"text/plain"}
    pattern = re.compile(answer["content"]["text/plain"]["schema"]["pattern"])
    assert pattern.search("# HELP m_total Things.\n# TYPE m_total counter\nm_total 3\n")
    assert not pattern.search('{"m_total": 3}')


def test_the_routes_own_words_on_an_error_status_come_before_the_shared_ones(
    spec: dict[str, Any],
) -> None:
    unavailable = spec["paths"]["/api/v1/{context_id}/reflect"]["post"]["responses"]["503"]
    assert unavailable["description"].index("reflection_model_unavailable") < unavailable[
        "description"
    ].index("overloaded")
    assert unavailable["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ErrorResponse"
    }
