"""The byte budget of one Context: the request bodies a Context has in flight in this
process are held to `MEMWARDEN_CONTEXT_MAX_BYTES_IN_FLIGHT` (admission.py).

It has to be decided before a route reads its body (FastAPI reads and parses the body
before it runs the `caller` dependency), so this middleware authenticates a keyed request
that carries a body itself, counts the body against the key's Context, and leaves the
Caller in the scope for `caller` (api/deps.py), which then does not authenticate again.
A request past the budget is answered 429 `context_bytes_busy` with Retry-After at once:
its body is not read, nothing is written. The count is given back when the request ends,
however it ends. A body alone is always admitted (`Admission.enter_bytes`).

The dashboard's forms are counted by `web.base.signed_in` (their bodies are read by the
page, after it); a request without a bearer credential, or with one that does not
authenticate, is passed on uncounted and answered by the route as before.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from memwarden.admin.auth import authenticate
from memwarden.admission import RETRY_AFTER_S, body_bytes, context_bytes_busy
from memwarden.api.errors import error_body
from memwarden.domain.grants import Caller
from memwarden.errors import AppError, Unauthorized
from memwarden.services import Services
from memwarden.store.errors import DatabaseBusy

# Where the Caller this middleware authenticated waits for the `caller` dependency.
CALLER_KEY = "memwarden.caller"

_SKIPPED = ("/health", "/ui/")  # never keyed by a bearer header (the dashboard: signed_in)


def bearer(scope: Scope) -> str | None:
    for name, value in scope.get("headers") or ():
        if name.lower() == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            token = token.strip()
            return token if scheme.lower() == "bearer" and token else None
    return None


def authenticated(scope: Scope) -> Caller | None:
    """The Caller this middleware authenticated for the request, if it did."""
    found = scope.get(CALLER_KEY)
    return found if isinstance(found, Caller) else None


def _services(scope: Scope) -> Services | None:
    app = scope.get("app")
    found = getattr(getattr(app, "state", None), "services", None)
    return found if isinstance(found, Services) else None


async def _answer(send: Send, status: int, payload: dict[str, Any]) -> None:
    body = json.dumps(payload).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        (b"retry-after", str(RETRY_AFTER_S).encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _refusal(exc: AppError) -> dict[str, Any]:
    return error_body(exc.status, exc.code, exc.message, exc.field, **exc.extra)


class ContextBodyBudget:
    """Counts keyed request bodies against their Context's byte budget (see above)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        svc = _services(scope) if scope["type"] == "http" else None
        if (
            svc is None
            or not svc.admission.context_max_bytes_in_flight
            or scope["path"].startswith(_SKIPPED)
        ):
            await self.app(scope, receive, send)
            return
        size = body_bytes(scope)
        token = bearer(scope)
        if size <= 0 or token is None:
            await self.app(scope, receive, send)
            return
        settings = svc.settings
        admin = settings.admin_token.get_secret_value() if settings.admin_token else None
        try:
            who = await authenticate(svc.db, token, admin)
        except Unauthorized:
            await self.app(scope, receive, send)  # the route answers 401, as it always has
            return
        except DatabaseBusy as busy:
            await _answer(send, 503, error_body(503, busy.code, busy.message))
            return
        scope[CALLER_KEY] = who
        context_id = who.context_id
        if context_id is None:  # the admin token: counted against the process only
            await self.app(scope, receive, send)
            return
        admission = svc.admission
        if not admission.enter_bytes(context_id, size):
            refused = context_bytes_busy(admission.context_max_bytes_in_flight)
            await _answer(send, refused.status, _refusal(refused))
            return
        try:
            await self.app(scope, receive, send)
        finally:
            admission.leave_bytes(context_id, size)
