"""Route-level access rules shared by every interface (pure)."""

from __future__ import annotations

import uuid

from memwarden.domain.grants import Caller
from memwarden.errors import Forbidden, InvalidInput

# Subjects the deployment's own identities use (the admin token, the CLI operator): no
# principal may take one, so no key's private records are ever an administrator's.
RESERVED_SUBJECTS = frozenset({"admin", "operator"})


def require_key(caller: Caller) -> uuid.UUID:
    """The one rule for memory: the admin token administers (Contexts, keys, config,
    audit, usage) and reads or writes no memory content; memory reads and writes,
    judgement excerpts and held writes need a Context key (README "Tenancy and access")."""
    if caller.is_admin or caller.context_id is None:
        raise Forbidden("memory content needs a Context key", code="context_key_required")
    return caller.context_id


def require_unreserved(subject: str) -> None:
    if subject.casefold() in RESERVED_SUBJECTS:
        raise InvalidInput(
            f"subject {subject!r} is reserved for the deployment's administration",
            field="subject",
        )


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
    """Some grant for `capability` (a memory one: a Context key); the scope itself is
    checked by the use case."""
    require_key(caller)
    require_context(caller, context_id)
    if not caller.can_any(capability):
        raise Forbidden(f"needs {capability}", code="missing_grant")


def require_judgements(caller: Caller, context_id: uuid.UUID) -> None:
    """Judgements quote excerpts of what was written and release held writes: memory
    content, so grant:manage on a Context key."""
    require_key(caller)
    require_manage(caller, context_id)
