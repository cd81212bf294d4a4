"""Authentication: a bearer credential becomes a Caller (tenant, principal, grants)."""

from __future__ import annotations

import hmac
from datetime import UTC, datetime

from memwarden.admin.credentials import parse_key, secret_matches
from memwarden.domain.grants import Caller, effective_grants
from memwarden.errors import Unauthorized
from memwarden.store import admin as store
from memwarden.store.db import Database

ADMIN_SUBJECT = "admin"


def _split_grants(rows: list[str]) -> list[tuple[str, str]]:
    return [tuple(r.split("|", 1)) for r in rows]  # type: ignore[misc]


async def authenticate(db: Database, token: str | None, admin_token: str | None) -> Caller:
    """401 for a missing, unknown, expired or revoked key; the reason is not revealed."""
    if not token:
        raise Unauthorized("missing bearer credential")
    if admin_token and hmac.compare_digest(token.encode(), admin_token.encode()):
        return Caller(None, None, ADMIN_SUBJECT, None, {}, is_admin=True)
    parsed = parse_key(token)
    if parsed is None:
        raise Unauthorized("invalid credential")
    key_id, secret = parsed
    async with db.connection() as conn:
        row = await store.key_for_auth(conn, key_id)
    if row is None or not secret_matches(secret, row.secret_hash):
        raise Unauthorized("invalid credential")
    now = datetime.now(UTC)
    if row.revoked_at is not None or (row.expires_at and row.expires_at <= now):
        raise Unauthorized("invalid credential")
    grants = effective_grants(
        _split_grants(row.principal_grants), row.capabilities, row.scope_prefix
    )
    return Caller(
        context_id=row.context_id,
        principal_id=row.principal_id,
        subject=row.subject,
        key_id=row.id,
        grants=grants,
    )
