"""Authentication: a bearer credential becomes a Caller (tenant, principal, grants).

A verified key's Caller is kept for `AUTH_CACHE_TTL_S` (one second) in this process, so a
burst of requests with one key reads its row once, not once per request. Each hit still
checks the presented secret against the stored digest and the key's expiry. Revoking or
issuing a key in this process drops the cache at once (`forget_key`, `forget_all_keys`);
another API process sees a revocation at the latest when its entry expires.
"""

from __future__ import annotations

import hmac
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

from memwarden.admin.credentials import parse_key, secret_matches
from memwarden.domain.grants import Caller, effective_grants
from memwarden.errors import Unauthorized
from memwarden.store import admin as store
from memwarden.store.db import Database
from memwarden.ttl_cache import TtlCache

ADMIN_SUBJECT = "admin"
AUTH_CACHE_TTL_S = 1.0


@dataclass(frozen=True)
class _Verified:
    secret_hash: bytes
    expires_at: datetime | None
    caller: Caller


_VERIFIED: TtlCache[uuid.UUID, _Verified] = TtlCache(max_entries=4096, ttl_s=AUTH_CACHE_TTL_S)


def forget_key(key_id: uuid.UUID) -> None:
    """A revoked key is refused by this process's next request."""
    _VERIFIED.pop(key_id)


def forget_all_keys() -> None:
    """Grants changed (a key issued adds its grants to the principal): read rows again."""
    _VERIFIED.clear()


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
    known = _VERIFIED.get(key_id)
    if known is not None:
        if not secret_matches(secret, known.secret_hash) or _expired(known.expires_at):
            raise Unauthorized("invalid credential")
        return known.caller
    async with db.connection() as conn:
        row = await store.key_for_auth(conn, key_id)
    if row is None or not secret_matches(secret, row.secret_hash):
        raise Unauthorized("invalid credential")
    if row.revoked_at is not None or _expired(row.expires_at):
        raise Unauthorized("invalid credential")
    grants = effective_grants(
        _split_grants(row.principal_grants), row.capabilities, row.scope_prefix
    )
    caller = Caller(
        context_id=row.context_id,
        principal_id=row.principal_id,
        subject=row.subject,
        key_id=row.id,
        grants=grants,
    )
    _VERIFIED.put(key_id, _Verified(bytes(row.secret_hash), row.expires_at, caller))
    return caller


def _expired(expires_at: datetime | None) -> bool:
    return expires_at is not None and expires_at <= datetime.now(UTC)
