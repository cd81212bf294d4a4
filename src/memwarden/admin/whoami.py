"""`GET /whoami`: what the presented Context key is, so a client needs only its key.

A key (`mwk_<key id>_<secret>`) does not say which Context it belongs to; clients used to
be handed the Context id beside the key. This answers it, with the principal and the
grants the key carries in effect (its principal's grants narrowed by the key), so a client
can also tell which scopes it may read, write or review before it tries.
"""

from __future__ import annotations

from pydantic import Field

from memwarden.answers import Answer, Timestamp
from memwarden.domain.grants import CAPABILITIES, Caller
from memwarden.errors import InvalidInput, Unauthorized
from memwarden.store import whoami as store
from memwarden.store.db import Database


class WhoAmI(Answer):
    """The key's Context, principal and effective grants; never its secret."""

    context_id: str
    context_name: str
    key_id: str
    subject: str = Field(description="The principal the key acts for.")
    principal_id: str
    grants: dict[str, list[str]] = Field(
        description=(
            "Each capability the key holds in effect, with the scope prefixes it covers "
            '(`""` is the whole Context). A capability that is absent is not held.'
        )
    )
    key_grants: list[str] = Field(description="The capabilities the key was issued with.")
    key_scope: str | None = Field(description="The scope prefix the key is bound to, if any.")
    expires_at: Timestamp | None
    created_at: Timestamp


async def whoami(db: Database, caller: Caller) -> WhoAmI:
    """400 `context_key_required` for the admin token: it belongs to no Context."""
    if caller.is_admin or caller.context_id is None or caller.key_id is None:
        raise InvalidInput(
            "the admin token belongs to no Context: whoami describes a Context key",
            code="context_key_required",
        )
    assert caller.principal_id is not None  # every key has a principal
    async with db.connection() as conn:
        row = await store.key_identity(conn, caller.context_id, caller.key_id)
    if row is None:  # revoked and deleted between authentication and this read
        raise Unauthorized("invalid credential")
    grants = {cap: list(caller.grants[cap]) for cap in CAPABILITIES if caller.grants.get(cap)}
    return WhoAmI(
        context_id=str(caller.context_id),
        context_name=row.context_name,
        key_id=str(caller.key_id),
        subject=caller.subject,
        principal_id=str(caller.principal_id),
        grants=grants,
        key_grants=sorted(row.capabilities),
        key_scope=row.scope_prefix or None,
        expires_at=row.expires_at,
        created_at=row.created_at,
    )
