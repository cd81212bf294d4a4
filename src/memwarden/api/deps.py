"""Dependencies shared by routes: the Services and the authenticated Caller."""

from __future__ import annotations

from fastapi import Request

from memwarden.admin.auth import authenticate
from memwarden.domain.grants import Caller
from memwarden.services import Services


def services(request: Request) -> Services:
    return request.app.state.services


async def caller(request: Request) -> Caller:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip() if scheme.lower() == "bearer" else ""
    svc: Services = request.app.state.services
    admin = svc.settings.admin_token.get_secret_value() if svc.settings.admin_token else None
    return await authenticate(svc.db, token or None, admin)
