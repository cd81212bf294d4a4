"""/openapi.json as the service answers: generated clients must see the real contract.

FastAPI documents 200 and its own 422 validation body; this app answers validation with
400 and every error as `{"error": {"code", "message", "field"?}}` (api/errors.py), and
every route but the public ones needs `Authorization: Bearer`. One hook fixes the
document for all routes, so a new route is described without per-route annotations.
Success answers are each route's response model, the model its use case returns (the
models in `*/responses.py`); an event stream's events are handed to `install_openapi`
(`EventStreams`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.responses import StreamingResponse
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from memwarden.api.middleware import limit_for, route_limits

# Routes that answer without a credential (api/routes/health.py, FastAPI's own).
PUBLIC_PATHS = frozenset({"/health", "/metrics", "/openapi.json"})
SCHEME = "bearerAuth"
_METHODS = {"get", "post", "put", "patch", "delete"}
_REF = "#/components/schemas/"
_ERROR_REF = {"$ref": f"{_REF}ErrorResponse"}
SSE = "text/event-stream"

_DESCRIPTIONS = {
    "400": "Invalid request: malformed JSON, a missing, unknown or invalid field "
    "(`field` names it), or text the database cannot store.",
    "401": "No credential, or one that is not valid.",
    "403": "The credential may not do this, or the Context is not its own.",
    "404": "No such resource (in the caller's Context).",
    "409": "The request conflicts with the resource's state: a stale revision, an id or "
    "vector that exists, a decision already made, nothing to reprocess or restore, a "
    "hygiene cycle already running, a pass that is switched off.",
    "413": "The request body is larger than the route's limit.",
    "415": "The file is not of a type the service reads (`unsupported_media_type`): UTF-8 "
    "text (plain, Markdown or HTML), PDF or DOCX, and a file named or sent as a PDF or DOCX "
    "must be one. Nothing is stored.",
    "422": "The judge refused the input (`on_error` and verdict rules).",
    "429": "The Context's token budget is spent for this period (on routes that call a "
    "model), or the Context has as many requests in flight as it may (`context_busy`, "
    "with `Retry-After`).",
    "502": "A model this request needs could not be used (`model_provider_error`): it did "
    "not answer in time, failed, or refused the call. Sending the same request again later "
    "may succeed.",
    "503": "The process is at its budget: requests in flight (`overloaded`), database "
    "connections or the database's lock table (`database_busy`) or statement time "
    "(`statement_timeout`); `Retry-After` "
    "says when to send the same request again.",
}
# What else a 429 can mean, by what the operation takes: a body is counted against the
# Context's byte budget (api/body_budget.py), an upload against its document queue.
_BODY_429 = (
    " A request body is counted against the Context's bytes in flight: past that budget "
    "`context_bytes_busy`, with `Retry-After`."
)
_UPLOAD_429 = (
    " An upload that would take the Context's documents waiting for processing past their "
    "budget is `document_queue_full`, with `Retry-After`; nothing is stored."
)
_UPLOAD_ROUTE = re.compile(r"^/api/v1/\{context_id\}/documents$")
# Routes that call a model while the request waits and answer 502 when it cannot be used
# (`errors.UpstreamError`), each with what that means there. `/facts/batch` is not one: its
# items fail one by one, inside its 200. Nor are the routes whose model calls have their own
# rule (the judge's `on_error`, an embedder's failure stores without vectors) or run on the
# worker (document processing, scans, passes: their run or document records the failure).
_EXTRACTION_502 = " Here it is the extraction model"
_MODEL_ROUTES = (
    (
        re.compile(r"/facts$"),
        f"{_EXTRACTION_502}; nothing was written. A reply it gave that could not be read is "
        "not this error: the turn is stored as chunks only (`chunkOnly`) and can be "
        "reprocessed.",
    ),
    (
        re.compile(r"/(turns/\{turn_id\}|documents/\{document_id\})/reprocess$"),
        f"{_EXTRACTION_502}; nothing was written, and the failed windows can be reprocessed again.",
    ),
    (
        re.compile(r"/judgements/\{judgement_id\}/override$"),
        f"{_EXTRACTION_502}, for the replayed request; nothing was written, the override is "
        "not recorded, and the kept request can still be replayed.",
    ),
    (
        re.compile(r"/chat(/stream)?$"),
        " Here it is the extraction model, while the message is remembered (nothing was "
        "written), or the chat model, for the answer (a reply it gave that cannot be read is "
        "this error too); what was stored before the answer was asked for is kept: the "
        "remembered message, the judge's entry.",
    ),
    (
        re.compile(r"/reflect$"),
        " Here it is the chat model; nothing was written. A reply it gave that could not be "
        "read is not this error: the answer says `parsed: false`.",
    ),
)
_STREAM_502 = (
    " Only before the first event: a failure after it ends the stream with an `error` event."
)
# Routes whose input the judge gates, so a refusal can answer 422.
_JUDGED_ROUTE = re.compile(r"/(facts|chat(/stream)?)$")

# Routes whose use case answers 409 (`Conflict` in review/, judge/holds.py, the two
# reprocess use cases, hygiene's decisions and scans, and a pass that is switched off).
_CONFLICT_ROUTE = re.compile(
    r"/(memory/(commands|embeddings|reviews)|judgements/\{judgement_id\}/(approve|reject)|"
    r"turns/\{turn_id\}/reprocess|documents/\{document_id\}/reprocess|"
    r"hygiene/(scan|queue/\{item_id\}/resolve|memories/\{record_id\}/restore)|"
    r"passes/\{stage\}/run)$"
)
# Routes that can answer 404: an id in the path besides the caller's Context, a Context the
# admin token names, or a record, session, document or entity named in the request. The
# others (lists, searches, writes without a session, a batch, whose items fail one by one)
# never do
# (tests/integration/campaign/test_status_reach.py reaches every documented status).
_NOT_FOUND_ROUTE = re.compile(
    r"\{(?!context_id\})[a-z_]+\}|^/api/v1/contexts/\{context_id\}(/config)?$|"
    r"/memory/(commands|read|embeddings|reviews(/state|/read|/eligibility)?)$|"
    r"/(facts|chat(/stream)?|profile|erasures)$"
)
# The body limit (api/middleware.py, from limits.py) on each operation that takes a body.
BODY_LIMIT_KEY = "x-max-body-bytes"

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


# Routes any valid Context key may use whatever its grants: nothing there answers 403.
_UNGRANTED_ROUTES = frozenset({"/api/v1/whoami"})


def _error_statuses(path: str, method: str, operation: dict[str, Any]) -> list[str]:
    statuses = ["400", "401"] if path in _UNGRANTED_ROUTES else ["400", "401", "403"]
    # Keys are issued to a Context that must exist; listing them finds none.
    if _NOT_FOUND_ROUTE.search(path) or (method == "post" and path.endswith("}/keys")):
        statuses.append("404")
    if method == "post" and _CONFLICT_ROUTE.search(path):
        statuses.append("409")
    if "requestBody" in operation:
        statuses.append("413")
    if method == "post" and _UPLOAD_ROUTE.match(path):
        statuses.append("415")  # documents/formats.py: a type it does not read
    if method == "post" and _JUDGED_ROUTE.search(path):
        statuses.append("422")
    # Any keyed request can meet the Context's concurrency budget (429) and any request
    # the process's budgets (503): docs/scale.md#connection-budget-and-back-pressure.
    statuses.append("429")
    if method == "post" and _model_route(path) is not None:
        statuses.append("502")
    statuses.append("503")
    return statuses


def _model_route(path: str) -> str | None:
    """What a 502 means on `path`, or None where the route never answers it."""
    return next((text for route, text in _MODEL_ROUTES if route.search(path)), None)


def _description(status: str, path: str, method: str, operation: dict[str, Any]) -> str:
    text = _DESCRIPTIONS[status]
    if status == "429" and "requestBody" in operation:
        text += _BODY_429
        if method == "post" and _UPLOAD_ROUTE.match(path):
            text += _UPLOAD_429
    if status == "502":
        text += _model_route(path) or ""
        if path.endswith("/chat/stream"):
            text += _STREAM_502
    return text


def _documented_models(responses: dict[str, Any]) -> None:
    """A route that answers without a response model of its own (`/health`'s
    JSONResponse, a Context's configuration) declares it with `responses={status:
    {"model": M}}`; FastAPI merges that model's `$ref` into the plain-object schema it
    infers from `dict[str, Any]`. Keep the `$ref` alone, so the documented model is the
    whole schema."""
    for status, response in responses.items():
        if not status.startswith("2"):
            continue
        for media in response.get("content", {}).values():
            schema = media.get("schema")
            if isinstance(schema, dict) and "$ref" in schema:
                media["schema"] = {"$ref": schema["$ref"]}


def _event_schema(name: str, model: type[BaseModel]) -> dict[str, Any]:
    """One server-sent event: its name, and its `data` line as JSON of `model`."""
    return {
        "title": f"{name} event",
        "type": "object",
        "properties": {
            "event": {"const": name},
            "data": {
                "type": "string",
                "contentMediaType": "application/json",
                "contentSchema": {"$ref": f"{_REF}{model.__name__}"},
            },
        },
        "required": ["event", "data"],
    }


class EventStream(StreamingResponse):
    """Server-sent events: the media type the stream's success answer is documented with."""

    media_type = SSE


# Per operation (method, path template): its events, by name, each the model of the
# event's JSON `data`. A route module lists its streams; app.py hands them to the hook.
EventStreams = Mapping[tuple[str, str], Mapping[str, type[BaseModel]]]


def _event_streams(spec: dict[str, Any], streams: EventStreams) -> None:
    """Each stream's success answer: `text/event-stream` with an `itemSchema` that is one
    of its events (as FastAPI documents its own event streams), the events' models added
    to the components. The whole-body `{"type": "string"}` FastAPI infers goes: next to
    `itemSchema`, a `schema` would describe the stream read as an array of events."""
    schemas = spec.setdefault("components", {}).setdefault("schemas", {})
    for (method, path), events in streams.items():
        _, defs = models_json_schema(
            [(model, "serialization") for model in events.values()],
            ref_template=f"{_REF}{{model}}",
        )
        for model_name, schema in defs.get("$defs", {}).items():
            if schemas.setdefault(model_name, schema) != schema:
                raise ValueError(f"two schemas are named {model_name}")
        responses = spec["paths"][path][method]["responses"]
        status = next(code for code in responses if code.startswith("2"))
        media = responses[status].setdefault("content", {}).setdefault(SSE, {})
        media.pop("schema", None)
        media["itemSchema"] = {"oneOf": [_event_schema(n, m) for n, m in events.items()]}


def _error_response(responses: dict[str, Any], status: str, shared: str) -> None:
    """The error schema under `status`. A route may say more about one status (its own
    error code, `responses={503: {"description": ...}}`): its words come first, then the
    ones every route shares (`shared`)."""
    content = {"application/json": {"schema": _ERROR_REF}}
    declared = responses.get(status)
    if declared is None:
        responses[status] = {"description": shared, "content": content}
    elif "content" not in declared:
        declared["description"] = f"{declared['description']} {shared}"
        declared["content"] = content


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
    limits = route_limits()
    for path, item in spec.get("paths", {}).items():
        for method, operation in item.items():
            if method not in _METHODS:
                continue
            responses = operation.setdefault("responses", {})
            responses.pop("422", None)  # FastAPI's validation body: the app answers 400
            _documented_models(responses)
            if path in PUBLIC_PATHS:
                continue
            operation["security"] = [{SCHEME: []}]
            body = operation.get("requestBody")
            if body is not None:
                limit = limit_for(method.upper(), path, limits)
                body[BODY_LIMIT_KEY] = limit
                note = f"At most {limit:,} bytes (413 `payload_too_large` past it)."
                body["description"] = (
                    f"{body['description']} {note}" if body.get("description") else note
                )
            for status in _error_statuses(path, method, operation):
                _error_response(responses, status, _description(status, path, method, operation))
    return spec


def install_openapi(app: FastAPI, event_streams: EventStreams | None = None) -> None:
    """Replace `app.openapi` with one that builds the described document once."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            spec = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            _event_streams(spec, event_streams or {})
            app.openapi_schema = describe(spec)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
