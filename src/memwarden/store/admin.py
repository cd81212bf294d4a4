"""Contexts, principals, grants and keys."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from memwarden.store.db import Conn
from memwarden.store.queries import q
from memwarden.store.rows import fetch_all, fetch_one


@dataclass(frozen=True)
class ContextSummary:
    id: uuid.UUID
    name: str
    created_at: datetime


@dataclass(frozen=True)
class ContextRow:
    id: uuid.UUID
    name: str
    config: Any  # the stored JSON as it is: validated by memwarden.config, not here
    config_version: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class KeyRow:
    """A key as listed: never its secret hash."""

    id: uuid.UUID
    subject: str
    capabilities: list[str]
    scope_prefix: str
    expires_at: datetime | None
    revoked_at: datetime | None
    last_used_at: datetime | None
    created_at: datetime


@dataclass(frozen=True)
class KeyGrants:
    """A key's own narrowing and its principal's grants as "capability|prefix" strings."""

    capabilities: list[str]
    scope_prefix: str
    revoked_at: datetime | None
    expires_at: datetime | None
    subject: str
    principal_grants: list[str]


@dataclass(frozen=True)
class KeyAuth:
    """What authentication checks a presented key against."""

    context_id: uuid.UUID
    id: uuid.UUID
    principal_id: uuid.UUID
    secret_hash: bytes
    capabilities: list[str]
    scope_prefix: str
    expires_at: datetime | None
    revoked_at: datetime | None
    subject: str
    principal_grants: list[str]


async def insert_context(
    conn: Conn, id: uuid.UUID, name: str, config: dict[str, Any]
) -> ContextRow:
    row = await fetch_one(
        conn, "insert_context", ContextRow, {"id": id, "name": name, "config": Jsonb(config)}
    )
    assert row is not None
    return row


async def list_contexts(
    conn: Conn, limit: int, after: uuid.UUID | None = None
) -> list[ContextSummary]:
    return await fetch_all(conn, "list_contexts", ContextSummary, {"limit": limit, "after": after})


async def get_context(conn: Conn, id: uuid.UUID, *, for_update: bool = False) -> ContextRow | None:
    name = "get_context_for_update" if for_update else "get_context"
    return await fetch_one(conn, name, ContextRow, {"id": id})


async def update_config(conn: Conn, id: uuid.UUID, config: dict[str, Any]) -> int:
    cur = await conn.execute(q("update_context_config"), {"id": id, "config": Jsonb(config)})
    row = await cur.fetchone()
    assert row is not None
    return int(row["config_version"])


async def upsert_principal(
    conn: Conn, context_id: uuid.UUID, id: uuid.UUID, subject: str
) -> uuid.UUID:
    cur = await conn.execute(
        q("upsert_principal"), {"context_id": context_id, "id": id, "subject": subject}
    )
    row = await cur.fetchone()
    assert row is not None
    return row["id"]


async def add_grant(
    conn: Conn, context_id: uuid.UUID, principal_id: uuid.UUID, capability: str, prefix: str
) -> None:
    await conn.execute(
        q("insert_principal_grant"),
        {
            "context_id": context_id,
            "principal_id": principal_id,
            "capability": capability,
            "scope_prefix": prefix,
        },
    )


async def insert_key(
    conn: Conn,
    *,
    context_id: uuid.UUID,
    id: uuid.UUID,
    principal_id: uuid.UUID,
    secret_hash: bytes,
    capabilities: list[str],
    scope_prefix: str,
    expires_at: datetime | None,
) -> datetime:
    """The key's created_at."""
    cur = await conn.execute(
        q("insert_key"),
        {
            "context_id": context_id,
            "id": id,
            "principal_id": principal_id,
            "secret_hash": secret_hash,
            "capabilities": capabilities,
            "scope_prefix": scope_prefix,
            "expires_at": expires_at,
        },
    )
    row = await cur.fetchone()
    assert row is not None
    return row["created_at"]


async def list_keys(
    conn: Conn, context_id: uuid.UUID, limit: int, after: uuid.UUID | None = None
) -> list[KeyRow]:
    return await fetch_all(
        conn, "list_keys", KeyRow, {"context_id": context_id, "limit": limit, "after": after}
    )


async def revoke_key(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> datetime | None:
    """When the key was revoked (the first revocation stands); None: no such key."""
    cur = await conn.execute(q("revoke_key"), {"context_id": context_id, "id": id})
    row = await cur.fetchone()
    return row["revoked_at"] if row else None


async def key_for_auth(conn: Conn, id: uuid.UUID) -> KeyAuth | None:
    return await fetch_one(conn, "authenticate_key", KeyAuth, {"id": id})


async def key_grants(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> KeyGrants | None:
    """A key's own narrowing and its principal's current grants (for replay)."""
    return await fetch_one(
        conn, "principal_grants_for_key", KeyGrants, {"context_id": context_id, "id": id}
    )


async def list_context_configs(conn: Conn) -> list[dict]:
    """Every Context's stored configuration, for deployment-wide reports (`doctor`)."""
    cur = await conn.execute(q("list_context_configs"))
    return await cur.fetchall()
