"""Issue, list and revoke API keys; a key's grants also become its principal's grants."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from memwarden.admin.access import require_manage, require_unreserved
from memwarden.admin.credentials import format_key, hash_secret, new_secret
from memwarden.admin.responses import IssuedKey, KeyInfo, KeyList, RevokedKey
from memwarden.domain.grants import CAPABILITIES, Caller
from memwarden.domain.ids import new_id
from memwarden.domain.scope import ScopeError, normalise_path
from memwarden.errors import InvalidInput, NotFound
from memwarden.paging import id_cursor, split_page
from memwarden.store import admin as store
from memwarden.store.audit import audit
from memwarden.store.db import Conn, Database
from memwarden.text import require_plain

MAX_PAGE = 1000


def _check_grants(grants: list[str]) -> list[str]:
    if not grants:
        raise InvalidInput("at least one grant is required", field="grants")
    unknown = [g for g in grants if g not in CAPABILITIES]
    if unknown:
        raise InvalidInput(
            f"unknown capability {unknown[0]!r}; use one of {', '.join(CAPABILITIES)}",
            field="grants",
        )
    return sorted(set(grants))


def _public(row: store.KeyRow) -> dict[str, Any]:
    def iso(value: datetime | None) -> str | None:
        return value.isoformat() if value else None

    return {
        "id": str(row.id),
        "subject": row.subject,
        "grants": list(row.capabilities),
        "scope": row.scope_prefix or None,
        "expires_at": iso(row.expires_at),
        "revoked_at": iso(row.revoked_at),
        "last_used_at": iso(row.last_used_at),
        "created_at": iso(row.created_at),
    }


async def create_key(
    db: Database,
    caller: Caller,
    context_id: uuid.UUID,
    *,
    subject: str,
    grants: list[str],
    scope: str | None = None,
    expires_at: datetime | None = None,
) -> IssuedKey:
    """Returns the key's metadata and, this once, its secret."""
    require_manage(caller, context_id)
    async with db.transaction() as conn:
        if await store.get_context(conn, context_id) is None:
            raise NotFound("context not found")
        return await issue_key(
            conn,
            caller,
            context_id,
            subject=subject,
            grants=grants,
            scope=scope,
            expires_at=expires_at,
        )


async def issue_key(
    conn: Conn,
    caller: Caller,
    context_id: uuid.UUID,
    *,
    subject: str,
    grants: list[str],
    scope: str | None = None,
    expires_at: datetime | None = None,
) -> IssuedKey:
    """Validate and store a key inside the caller's transaction (the caller checked access
    and that the Context exists): principal, grants, key and audit event commit together."""
    subject = require_plain(subject, "subject").strip()
    if not subject or len(subject) > 200:
        raise InvalidInput("subject must be 1 to 200 characters", field="subject")
    require_unreserved(subject)
    capabilities = _check_grants(grants)
    try:
        prefix = normalise_path(scope or "")
    except ScopeError as exc:
        raise InvalidInput(str(exc), field="scope") from None
    if expires_at is not None:
        if expires_at.tzinfo is None:
            expires_at = expires_at.replace(tzinfo=UTC)
        if expires_at <= datetime.now(UTC):
            raise InvalidInput("expires_at must be in the future", field="expires_at")
    key_id, secret = new_id(), new_secret()
    principal_id = await store.upsert_principal(conn, context_id, new_id(), subject)
    for capability in capabilities:
        await store.add_grant(conn, context_id, principal_id, capability, prefix)
    created_at = await store.insert_key(
        conn,
        context_id=context_id,
        id=key_id,
        principal_id=principal_id,
        secret_hash=hash_secret(secret),
        capabilities=capabilities,
        scope_prefix=prefix,
        expires_at=expires_at,
    )
    await audit(
        conn,
        context_id=context_id,
        actor_subject=caller.subject,
        key_id=caller.key_id,
        action="key.create",
        target_kind="api_key",
        target_id=key_id,
    )
    public = _public(
        store.KeyRow(
            id=key_id,
            subject=subject,
            capabilities=capabilities,
            scope_prefix=prefix,
            expires_at=expires_at,
            revoked_at=None,
            last_used_at=None,
            created_at=created_at,
        )
    )
    return IssuedKey(**public, context_id=str(context_id), key=format_key(key_id, secret))


async def list_keys(
    db: Database,
    caller: Caller,
    context_id: uuid.UUID,
    *,
    cursor: str | None = None,
    limit: int = 100,
) -> KeyList:
    """Oldest first, one page: `{"keys", "next_cursor"}`; never a secret."""
    require_manage(caller, context_id)
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidInput(f"limit must be between 1 and {MAX_PAGE}", field="limit")
    after = id_cursor(cursor)
    async with db.connection() as conn:
        rows = await store.list_keys(conn, context_id, limit + 1, after)
    page, next_cursor = split_page(rows, limit, lambda r: str(r.id))
    return KeyList(keys=[KeyInfo(**_public(r)) for r in page], next_cursor=next_cursor)


async def revoke_key(
    db: Database, caller: Caller, context_id: uuid.UUID, key_id: uuid.UUID
) -> RevokedKey:
    """Takes effect at once: every request authenticates against the row."""
    require_manage(caller, context_id)
    async with db.transaction() as conn:
        revoked_at = await store.revoke_key(conn, context_id, key_id)
        if revoked_at is None:
            raise NotFound("key not found")
        await audit(
            conn,
            context_id=context_id,
            actor_subject=caller.subject,
            key_id=caller.key_id,
            action="key.revoke",
            target_kind="api_key",
            target_id=key_id,
        )
    return RevokedKey(id=str(key_id), revoked_at=revoked_at.isoformat())
