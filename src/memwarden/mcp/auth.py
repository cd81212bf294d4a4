"""Who is calling: every tool call authenticates its own credential, like every HTTP request.

Over streamable HTTP the credential is the `Authorization: Bearer` header of the POST that
carries the call (never a value remembered from an earlier request); over stdio it is the
key the process was started with (`MEMWARDEN_API_KEY`). Tenant and principal come only from
the credential, so revocation takes effect on the next call.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from mcp.server.mcpserver import Context

from memwarden.admin.auth import authenticate
from memwarden.admission import Admission, context_busy
from memwarden.domain.grants import Caller
from memwarden.errors import Forbidden
from memwarden.services import Services

CredentialSource = Callable[[Context[Any, Any]], str | None]

# The Context budget slots this tool call holds, given back when the call ends
# (`counted_call`, around every call in server.py), as the HTTP `caller` dependency does.
_held: ContextVar[list[tuple[Admission, uuid.UUID]] | None] = ContextVar(
    "memwarden_mcp_held", default=None
)


@contextmanager
def counted_call() -> Iterator[None]:
    held: list[tuple[Admission, uuid.UUID]] = []
    token = _held.set(held)
    try:
        yield
    finally:
        for admission, context_id in held:
            admission.leave_context(context_id)
        _held.reset(token)


def bearer_header(ctx: Context[Any, Any]) -> str | None:
    """The bearer token of the HTTP request that carried this call, or None."""
    headers = ctx.headers
    if headers is None:
        return None
    scheme, _, token = (headers.get("authorization") or "").partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def fixed_key(key: str | None) -> CredentialSource:
    """The stdio credential: one key for the life of the process."""
    value = key.strip() if key else None

    def source(ctx: Context[Any, Any]) -> str | None:
        return value or None

    return source


@dataclass(frozen=True)
class Runtime:
    """What every tool needs: the Services and the caller of this call."""

    services: Callable[[], Services]
    credential: CredentialSource

    async def begin(self, ctx: Context[Any, Any]) -> tuple[Services, Caller]:
        svc = self.services()
        admin = svc.settings.admin_token.get_secret_value() if svc.settings.admin_token else None
        caller = await authenticate(svc.db, self.credential(ctx), admin)
        held = _held.get()
        if caller.context_id is not None and held is not None:
            if not svc.admission.enter_context(caller.context_id):
                raise context_busy(svc.admission.context_max_in_flight)
            held.append((svc.admission, caller.context_id))
        return svc, caller

    async def begin_own(self, ctx: Context[Any, Any]) -> tuple[Services, Caller, uuid.UUID]:
        """For Context-addressed use cases: the Context is always the key's own."""
        svc, caller = await self.begin(ctx)
        if caller.context_id is None:
            raise Forbidden(
                "MCP tools act in a Context key's own Context", code="context_key_required"
            )
        return svc, caller, caller.context_id
