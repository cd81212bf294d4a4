"""Who may touch which record, for every memory use case (raises the contract's errors)."""

from __future__ import annotations

import uuid
from typing import Protocol, TypeVar

from memwarden.admin.access import require_key
from memwarden.domain.eligibility import RecordScope, effective_prefixes
from memwarden.domain.grants import Caller
from memwarden.domain.scope import Scope, ScopeError, Visibility, covers, from_object
from memwarden.errors import Forbidden, InvalidInput, NotFound
from memwarden.review.contract import ScopeIn


def context_of(caller: Caller) -> uuid.UUID:
    """Memory routes act inside the key's Context; the deployment admin has none."""
    return require_key(caller)


def require_any(caller: Caller, capability: str) -> uuid.UUID:
    context_id = context_of(caller)
    if not caller.can_any(capability):
        raise Forbidden(f"needs {capability}", code="missing_grant")
    return context_id


def to_scope(scope: ScopeIn) -> Scope:
    try:
        return from_object(scope.project_id, scope.mission_id, scope.agent_id, scope.visibility)
    except ScopeError as exc:
        raise InvalidInput(str(exc), field="scope") from None


class Scoped(Protocol):
    """A record row that says where it lives and whose it is."""

    @property
    def scope_path(self) -> str: ...
    @property
    def visibility(self) -> Visibility: ...
    @property
    def owner_subject(self) -> str: ...


S = TypeVar("S", bound=Scoped)


def record_scope(row: Scoped) -> RecordScope:
    return RecordScope(row.scope_path, row.visibility, row.owner_subject)


def in_request_scope(row: Scoped, scope: Scope, subject: str) -> bool:
    """Inside the request's path and visibility; private records only for their owner."""
    rec = record_scope(row)
    if not covers(scope.path, rec.path) or rec.visibility != scope.visibility:
        return False
    return rec.visibility == "shared" or rec.owner_subject == subject


def require_record(row: S | None, scope: Scope, caller: Caller, capability: str) -> S:
    """404 for an absent record or one outside the request's scope; 403 without a grant
    for `capability` covering the record's own scope."""
    if row is None or not in_request_scope(row, scope, caller.subject):
        raise NotFound("memory record not found")
    if not caller.can(capability, row.scope_path):
        raise Forbidden(f"needs {capability} covering the record's scope", code="missing_grant")
    return row


def read_prefixes(caller: Caller, scope: Scope) -> tuple[str, ...]:
    """memory_read prefixes narrowed to the request's scope; 403 when none remain."""
    require_any(caller, "memory_read")
    prefixes = effective_prefixes(scope.path, caller.prefixes("memory_read"))
    if not prefixes:
        raise Forbidden("no memory_read grant covers this scope", code="missing_grant")
    return prefixes
