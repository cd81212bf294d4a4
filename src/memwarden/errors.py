"""Errors the service layer raises; every interface renders them the same way."""

from __future__ import annotations

from typing import Any

from memwarden.request_trace import silence


class AppError(Exception):
    status = 500
    code = "internal_error"

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        code: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        if code is not None:
            self.code = code
        self.extra = extra or {}


class InvalidInput(AppError):
    status = 400
    code = "invalid_request"


class Unauthorized(AppError):
    status = 401
    code = "unauthorized"


class Forbidden(AppError):
    status = 403
    code = "forbidden"


class NotFound(AppError):
    status = 404
    code = "not_found"


class Conflict(AppError):
    status = 409
    code = "conflict"


class PayloadTooLarge(AppError):
    status = 413
    code = "payload_too_large"


class UnsupportedMediaType(AppError):
    status = 415
    code = "unsupported_media_type"


class Unprocessable(AppError):
    status = 422
    code = "unprocessable"


class BudgetExhausted(AppError):
    status = 429
    code = "token_budget_exhausted"


class IntegrityFailure(AppError):
    status = 500
    code = "integrity_failure"


class UpstreamError(AppError):
    status = 502
    code = "model_provider_error"


class Unavailable(AppError):
    status = 503
    code = "unavailable"


class JudgeRefused(Unprocessable):
    """A fail verdict: 422 with the reason codes (already recorded and audited)."""

    code = "judge_refused"

    def __init__(self, reasons: tuple[str, ...] | list[str]) -> None:
        super().__init__("the judge refused this content", extra={"reasons": list(reasons)})


class JudgeDenied(Unprocessable):
    """A deny verdict: 422 with a fixed message; nothing is logged, audited or stored."""

    code = "request_denied"

    def __init__(self) -> None:
        super().__init__("the request could not be processed")
        silence()  # not even the access log may say that this request happened


class JudgeUnavailable(Unprocessable):
    """The judge call failed and on_error is fail."""

    code = "judge_unavailable"

    def __init__(self) -> None:
        super().__init__(
            "the judge could not check this content", extra={"reasons": ["judge_unavailable"]}
        )


class Erased(Conflict):
    """An erased record (issue 25) is a tombstone: no update, review or restore applies."""

    code = "erased"

    def __init__(self) -> None:
        super().__init__("the memory record was erased: it never changes or serves again")
