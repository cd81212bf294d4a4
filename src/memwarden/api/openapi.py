"""/openapi.json as the service answers: generated clients must see the real contract.

FastAPI documents 200 and its own 422 validation body; this app answers validation with
400 and every error as `{"error": {"code", "message", "field"?}}` (api/errors.py), and
every route but the public ones needs `Authorization: Bearer`. One hook fixes the
document for all routes, so a new route is described without per-route annotations.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

# Routes that answer without a credential (api/routes/health.py, FastAPI's own).
PUBLIC_PATHS = frozenset({"/health", "/metrics", "/openapi.json"})
SCHEME = "bearerAuth"
_METHODS = {"get", "post", "put", "patch", "delete"}
_ERROR_REF = {"$ref": "#/components/schemas/ErrorResponse"}

_DESCRIPTIONS = {
    "400": "Invalid request: malformed JSON, a missing, unknown or invalid field "
    "(`field` names it), or text the database cannot store.",
    "401": "No credential, or one that is not valid.",
    "403": "The credential may not do this, or the Context is not its own.",
    "404": "No such resource (in the caller's Context).",
    "409": "The state forbids it: an item already decided, nothing to restore, a hygiene "
    "cycle already running.",
    "413": "The request body is larger than the route's limit.",
    "422": "The judge refused the input (`on_error` and verdict rules).",
    "429": "The Context's token budget is spent for this period.",
}
# Routes that call a model, so a spent budget can answer 429; of them, those whose input
# the judge gates, so a refusal can answer 422.
_JUDGED_ROUTE = re.compile(r"/(facts|chat(/stream)?)$")
_MODEL_ROUTE = re.compile(
    r"/(facts(/batch)?|turns/\{turn_id\}/reprocess|chat(/stream)?|reflect|"
    r"judgements/dry-run|documents/\{document_id\}/reprocess)$"
)

_SCHEMAS: dict[str, Any] = {
    "ErrorDetail": {
        "title": "ErrorDetail",
        "type": "object",
        "properties": {
            "code": {"type": "string", "description": "Stable, machine-readable code."},
            "message": {"type": "string", "description": "Never quotes the values sent."},
            "field": {"type": "string", "description": "The field at fault, when one is."},
        },
        "required": ["code", "message"],
        "additionalProperties": True,
    },
    "ErrorResponse": {
        "title": "ErrorResponse",
        "type": "object",
        "properties": {"error": {"$ref": "#/components/schemas/ErrorDetail"}},
        "required": ["error"],
    },
}


# Routes whose answer depends on state another request may have changed first (409).
_CONFLICT_ROUTE = re.compile(
    r"/hygiene/(scan|queue/\{item_id\}/resolve|memories/\{record_id\}/restore)$"
)


def _error_statuses(path: str, method: str, operation: dict[str, Any]) -> list[str]:
    statuses = ["400", "401", "403", "404"]
    if method == "post" and _CONFLICT_ROUTE.search(path):
        statuses.append("409")
    if "requestBody" in operation:
        statuses.append("413")
    if method == "post" and _JUDGED_ROUTE.search(path):
        statuses.append("422")
    if method == "post" and _MODEL_ROUTE.search(path):
        statuses.append("429")
    return statuses


def describe(spec: dict[str, Any]) -> dict[str, Any]:
    """Error responses, no HTTPValidationError, the bearer scheme on non-public routes."""
    components = spec.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    schemas.update(_SCHEMAS)
    components["securitySchemes"] = {
        SCHEME: {
            "type": "http",
            "scheme": "bearer",
            "description": "A Context key (`mwk_...`) or the deployment admin token.",
        }
    }
    for path, item in spec.get("paths", {}).items():
        for method, operation in item.items():
            if method not in _METHODS:
                continue
            responses = operation.setdefault("responses", {})
            responses.pop("422", None)  # FastAPI's validation body: the app answers 400
            if path in PUBLIC_PATHS:
                continue
            operation["security"] = [{SCHEME: []}]
            for status in _error_statuses(path, method, operation):
                responses.setdefault(
                    status,
                    {
                        "description": _DESCRIPTIONS[status],
                        "content": {"application/json": {"schema": _ERROR_REF}},
                    },
                )
    return spec


def install_openapi(app: FastAPI) -> None:
    """Replace `app.openapi` with one that builds the described document once."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = describe(
                get_openapi(
                    title=app.title,
                    version=app.version,
                    description=app.description,
                    routes=app.routes,
                )
            )
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
