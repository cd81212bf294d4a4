"""Load shedding: a process serves at most `max_in_flight` requests at once; the next is
answered 503 `overloaded` with Retry-After at once, before it authenticates or takes a
database connection. `/health` is never shed, so a probe can still tell busy from down."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Receive, Scope, Send

from memwarden.admission import RETRY_AFTER_S, Admission

_EXEMPT = ("/health",)


def _refusal(limit: int) -> tuple[bytes, list[tuple[bytes, bytes]]]:
    body = json.dumps(
        {
            "error": {
                "code": "overloaded",
                "message": "this process is serving as many requests as it may; retry shortly",
                "limit": limit,
            }
        }
    ).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        (b"retry-after", str(RETRY_AFTER_S).encode()),
    ]
    return body, headers


class LoadShedding:
    """Counts HTTP requests in flight against the process budget (`Services.admission`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        admission = _admission(scope)
        if admission is None or scope["type"] != "http" or scope["path"].startswith(_EXEMPT):
            await self.app(scope, receive, send)
            return
        if not admission.enter():
            body, headers = _refusal(admission.max_in_flight)
            await send({"type": "http.response.start", "status": 503, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        try:
            await self.app(scope, receive, send)
        finally:
            admission.leave()


def _admission(scope: Scope) -> Admission | None:
    app = scope.get("app")
    services = getattr(getattr(app, "state", None), "services", None)
    return getattr(services, "admission", None)
