"""Tool errors in the HTTP error shape, so a client reads one format on every interface.

The body is `{"error": {"code", "message", "field"?, "status", "kind", ...}}`: `code` and
`message` are what HTTP sends, `status` the HTTP status the same failure has there, and
`kind` its generic name (`unauthorized`, `forbidden`, ...). Nothing here quotes input
values or exception text other than an AppError's own message.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.types import CallToolResult, TextContent
from pydantic import ValidationError

from memwarden.admission import RETRY_AFTER_S
from memwarden.errors import AppError, InvalidInput
from memwarden.store.errors import DatabaseBusy
from memwarden.text import BINARY_CONTENT, UNSTORABLE_ERRORS

KINDS = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "unprocessable",
    429: "too_many_requests",
    500: "internal_error",
    502: "upstream_error",
    503: "unavailable",
}


def error_result(
    status: int, code: str, message: str, field: str | None = None, **extra: Any
) -> CallToolResult:
    error: dict[str, Any] = {"code": code, "message": message}
    if field:
        error["field"] = field
    error.update(extra)
    error["status"] = status
    error["kind"] = KINDS.get(status, "error")
    body = {"error": error}
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(body))],
        structured_content=body,
        is_error=True,
    )


def from_app_error(exc: AppError) -> CallToolResult:
    return error_result(exc.status, exc.code, exc.message, exc.field, **exc.extra)


def from_validation(exc: ValidationError) -> CallToolResult:
    """The same codes and messages as the HTTP 400 for a body that fails its model."""
    errors = exc.errors(include_input=False, include_url=False)
    first = errors[0] if errors else {"type": "invalid", "loc": (), "msg": "invalid arguments"}
    field = ".".join(str(part) for part in first.get("loc", ())) or None
    kind = first.get("type", "")
    if kind == "extra_forbidden":
        return error_result(400, "unknown_field", f"unknown field {field!r}", field)
    if kind == "missing":
        return error_result(400, "missing_field", f"missing required field {field!r}", field)
    detail = str(first.get("msg", "invalid value"))
    code = BINARY_CONTENT if kind in UNSTORABLE_ERRORS else "invalid_request"
    message = f"{field}: {detail}" if field else detail
    return from_app_error(InvalidInput(message, field=field, code=code))


def busy(cause: DatabaseBusy) -> CallToolResult:
    """The database budgets, as HTTP answers them: 503 and when to try again."""
    return error_result(503, cause.code, cause.message, retry_after_s=RETRY_AFTER_S)


def internal_error() -> CallToolResult:
    return error_result(500, "internal_error", "internal error")
