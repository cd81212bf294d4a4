"""One JSON error format for every error: {"error": {"code", "message", "field"?}}."""

from __future__ import annotations

from typing import Any

import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from memwarden.admission import RETRY_AFTER_S
from memwarden.errors import AppError
from memwarden.logging_setup import safe_traceback
from memwarden.store.errors import DatabaseBusy
from memwarden.text import BINARY_CONTENT, UNSTORABLE_ERRORS

log = structlog.get_logger(__name__)

_HTTP_CODES = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "unprocessable",
    429: "too_many_requests",
}


def error_body(
    status: int, code: str, message: str, field: str | None = None, **extra: Any
) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if field:
        error["field"] = field
    error.update(extra)
    return {"error": error}


def error_response(
    status: int,
    code: str,
    message: str,
    field: str | None = None,
    *,
    retry_after: int | None = None,
    **extra: Any,
):
    headers = {"Cache-Control": "no-store"}
    if retry_after is not None:
        headers["Retry-After"] = str(retry_after)
    return JSONResponse(
        error_body(status, code, message, field, **extra), status_code=status, headers=headers
    )


def _field_path(loc: tuple[Any, ...]) -> str | None:
    # Only the first part names where the value came from: a field may be called `query`.
    if loc and loc[0] in ("body", "query", "path", "header"):
        loc = loc[1:]
    return ".".join(str(p) for p in loc) or None


async def _app_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, AppError)
    retry_after = getattr(exc, "retry_after_s", None)  # the admission budgets' refusals
    return error_response(
        exc.status, exc.code, exc.message, exc.field, retry_after=retry_after, **exc.extra
    )


async def _database_busy(request: Request, exc: Exception) -> JSONResponse:
    """The database is at a budget (connections, statement time, its lock table): come
    back, rather than wait in a queue; what was being written was rolled back."""
    assert isinstance(exc, DatabaseBusy)
    return error_response(503, exc.code, exc.message, retry_after=RETRY_AFTER_S)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    first = errors[0] if errors else {"type": "invalid", "loc": (), "msg": "invalid request"}
    if first.get("type") == "json_invalid":
        return error_response(400, "malformed_json", "request body is not valid JSON")
    field = _field_path(tuple(first.get("loc", ())))
    kind = first.get("type", "")
    if kind == "extra_forbidden":
        message = f"unknown field {field!r}"
        code = "unknown_field"
    elif kind == "missing":
        message = f"missing required field {field!r}"
        code = "missing_field"
    elif kind in UNSTORABLE_ERRORS:
        message = f"{field}: {first.get('msg', 'cannot be stored')}"
        code = BINARY_CONTENT
    else:
        detail = str(first.get("msg", "invalid value"))
        message = f"{field}: {detail}" if field else detail
        code = "invalid_request"
    return error_response(400, code, str(message), field)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = _HTTP_CODES.get(exc.status_code, "error")
    message = exc.detail if isinstance(exc.detail, str) else code
    return error_response(exc.status_code, code, message)


def log_unhandled(exc: BaseException, path: str) -> None:
    """One JSON line: the exception's type and frames, never its message (psycopg's
    `DETAIL: Failing row contains (...)` quotes row data, which can be memory content)."""
    log.error(
        "unhandled_error",
        error_type=type(exc).__name__,
        path=path,
        traceback=safe_traceback(exc),
    )


def internal_error_body(request_id: str | None) -> dict[str, Any]:
    extra = {"requestId": request_id} if request_id else {}
    return error_body(500, "internal_error", "internal error", **extra)


async def _unhandled(request: Request, exc: Exception) -> JSONResponse:
    # Reached only when ServiceMiddleware itself fails: it answers every route's errors.
    log_unhandled(exc, request.url.path)
    return JSONResponse(
        internal_error_body(None),
        status_code=500,
        headers={"Cache-Control": "no-store", "Connection": "close"},
    )


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(AppError, _app_error)
    app.add_exception_handler(DatabaseBusy, _database_busy)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unhandled)
