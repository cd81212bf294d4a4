"""memwarden's error answers as exceptions, one class per kind of status.

Every error body reads `{"error": {"code", "message", "field"?, ...}}`; the server's
messages never quote what was sent, and neither do these exceptions, so a refused
write (a judge's `judge_refused`) can be shown to an agent as it is: its reason codes,
never the content.
"""

from __future__ import annotations

from typing import Any

import httpx


class MemwardenError(Exception):
    """An error answer from memwarden (or no answer at all: `status` 0)."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        field: str | None = None,
        body: Any = None,
        *,
        request_id: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.body = body
        self.request_id = request_id
        self.retry_after = retry_after

    @property
    def detail(self) -> dict[str, Any]:
        """The body's `error` object: what the server said beyond code and message."""
        if isinstance(self.body, dict) and isinstance(self.body.get("error"), dict):
            return dict(self.body["error"])
        return {}

    @property
    def reasons(self) -> list[str]:
        """A judge's reason codes (`payment_card`, `credential`, ...), when it gave any."""
        reasons = self.detail.get("reasons")
        return [str(r) for r in reasons] if isinstance(reasons, list) else []

    def __str__(self) -> str:
        where = f" (field {self.field})" if self.field else ""
        return f"{self.status} {self.code}: {self.message}{where}"


class InvalidRequest(MemwardenError):
    """400 or 422: the request cannot be served as sent."""


class JudgeRefused(InvalidRequest):
    """422 from the ingest judge (`judge_refused`, `request_denied`, `judge_unavailable`)."""


class AuthenticationError(MemwardenError):
    """401: no credential, or one that is not valid (revoked, expired)."""


class PermissionDenied(MemwardenError):
    """403: the credential may not do this, or the Context is not its own."""


class NotFound(MemwardenError):
    """404: no such resource in the caller's Context, or none the key can see."""


class Conflict(MemwardenError):
    """409: the state does not allow it (a stale revision, a decision already made)."""


class PayloadTooLarge(MemwardenError):
    """413: the body is larger than the route takes."""


class RateLimited(MemwardenError):
    """429: a Context budget (requests or bytes in flight, tokens, waiting documents)."""


class ServerError(MemwardenError):
    """5xx other than 503 (500 `internal_error`, 502 `model_provider_error`)."""


class Unavailable(ServerError):
    """503: a process budget or a part that is down; `retry_after` says when to retry."""


class ConnectionFailed(MemwardenError):
    """No answer: the server could not be reached, or it did not answer in time."""


JUDGE_CODES = frozenset({"judge_refused", "request_denied", "judge_unavailable"})


def _class_for(status: int, code: str) -> type[MemwardenError]:
    if status == 422 and code in JUDGE_CODES:
        return JudgeRefused
    by_status: dict[int, type[MemwardenError]] = {
        400: InvalidRequest,
        401: AuthenticationError,
        403: PermissionDenied,
        404: NotFound,
        409: Conflict,
        413: PayloadTooLarge,
        422: InvalidRequest,
        429: RateLimited,
        503: Unavailable,
    }
    if status in by_status:
        return by_status[status]
    return ServerError if status >= 500 else MemwardenError


def error_from_response(resp: httpx.Response, retry_after: float | None = None) -> MemwardenError:
    """The exception for one error answer, read from the server's error body."""
    try:
        body: Any = resp.json()
    except ValueError:
        body = None
    detail = body.get("error") if isinstance(body, dict) else None
    if isinstance(detail, dict):
        code = str(detail.get("code") or "error")
        message = str(detail.get("message") or "")
        field = detail.get("field")
    else:
        code, message, field = f"http_{resp.status_code}", resp.reason_phrase, None
    cls = _class_for(resp.status_code, code)
    return cls(
        resp.status_code,
        code,
        message,
        str(field) if field is not None else None,
        body,
        request_id=resp.headers.get("x-request-id"),
        retry_after=retry_after,
    )
