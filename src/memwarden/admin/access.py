"""Route-level access rules shared by every interface (pure)."""

from __future__ import annotations

import uuid

from memwarden.domain.grants import Caller
from memwarden.errors import Forbidden


def require_admin(caller: Caller) -> None:
    if not caller.is_admin:
        raise Forbidden("this operation needs the deployment admin credential")


def require_context(caller: Caller, context_id: uuid.UUID) -> None:
    """Another tenant's Context answers 403 whether or not it exists."""
    if caller.is_admin:
        return
    if caller.context_id != context_id:
        raise Forbidden("the credential does not belong to this Context")


def require_manage(caller: Caller, context_id: uuid.UUID) -> None:
    """grant:manage over the whole Context (or the admin credential)."""
    require_context(caller, context_id)
    if not caller.can_whole_context("grant:manage"):
        raise Forbidden("needs grant:manage over the whole Context", code="missing_grant")


def require_capability(caller: Caller, context_id: uuid.UUID, capability: str) -> None:
    """Some grant for `capability`; the scope itself is checked by the use case."""
    require_context(caller, context_id)
    if not caller.can_any(capability):
        raise Forbidden(f"needs {capability}", code="missing_grant")
