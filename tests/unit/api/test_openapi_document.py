"""/openapi.json describes the API the service answers (issue 15, finding 13): the error
statuses and their schema, no 422 (validation answers 400), and bearer authentication."""

from __future__ import annotations

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
