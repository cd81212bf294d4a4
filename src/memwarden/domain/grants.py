"""Who may do what: capabilities over a Context or a scope prefix (pure)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from memwarden.domain.scope import covers, narrower

CAPABILITIES = ("memory_read", "memory_write", "memory_review", "grant:manage")


@dataclass(frozen=True)
class Caller:
    """An authenticated credential: tenant and principal always come from here."""

    context_id: uuid.UUID | None
    principal_id: uuid.UUID | None
    subject: str
    key_id: uuid.UUID | None
    grants: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    is_admin: bool = False

    def can(self, capability: str, path: str) -> bool:
        """Whether a grant for `capability` covers the scope `path`."""
        if self.is_admin:
            return True
        return any(covers(prefix, path) for prefix in self.grants.get(capability, ()))

    def can_whole_context(self, capability: str) -> bool:
        if self.is_admin:
            return True
        return "" in self.grants.get(capability, ())

    def can_any(self, capability: str) -> bool:
        return self.is_admin or bool(self.grants.get(capability))

    def prefixes(self, capability: str) -> tuple[str, ...]:
        """Scope prefixes a read may cover ('' means the whole Context)."""
        if self.is_admin:
            return ("",)
        return self.grants.get(capability, ())


def effective_grants(
    principal_grants: Iterable[tuple[str, str]],
    key_capabilities: Iterable[str],
    key_scope: str,
) -> dict[str, tuple[str, ...]]:
    """A key narrows its principal's current grants: same capability, intersected scope."""
    allowed = set(key_capabilities)
    result: dict[str, set[str]] = {}
    for capability, prefix in principal_grants:
        if capability not in allowed:
            continue
        both = narrower(prefix, key_scope)
        if both is not None:
            result.setdefault(capability, set()).add(both)
    return {cap: tuple(sorted(prefixes)) for cap, prefixes in result.items()}
