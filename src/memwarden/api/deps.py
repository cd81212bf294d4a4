"""Dependencies shared by routes: the Services and the authenticated Caller."""

from __future__ import annotations

from collections.abc import AsyncIterator

from fastapi import Request

from memwarden.admin.auth import authenticate
from memwarden.admission import context_busy
from memwarden.api.body_budget import authenticated
from memwarden.domain.grants import Caller
from memwarden.services import Services


def services(request: Request) -> Services:
    return request.app.state.services


async def caller(request: Request) -> AsyncIterator[Caller]:
    """The credential's Caller, counted against its Context's concurrency budget while the
    request runs (429 `context_busy` with Retry-After past it; the admin token is counted
    only against the process's budget). A request whose body the Context byte budget
    counted was authenticated there, from the same header (api/body_budget.py)."""
    svc: Services = request.app.state.services
    who = authenticated(request.scope)
    if who is None:
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        token = token.strip() if scheme.lower() == "bearer" else ""
        settings = svc.settings
        admin = settings.admin_token.get_secret_value() if settings.admin_token else None
        who = await authenticate(svc.db, token or None, admin)
    context_id = who.context_id
    if context_id is None:
        yield who
        return
    if not svc.admission.enter_context(context_id):
        raise context_busy(svc.admission.context_max_in_flight)
    try:
        yield who
    finally:
        svc.admission.leave_context(context_id)
