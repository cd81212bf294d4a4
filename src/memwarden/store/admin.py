"""Contexts, principals, grants and keys."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from memwarden.store.db import Conn
from memwarden.store.queries import q


async def insert_context(conn: Conn, id: uuid.UUID, name: str, config: dict[str, Any]) -> dict:
    cur = await conn.execute(q("insert_context"), {"id": id, "name": name, "config": Jsonb(config)})
    row = await cur.fetchone()
    assert row is not None
    return row


async def list_contexts(conn: Conn, limit: int, after: uuid.UUID | None = None) -> list[dict]:
    cur = await conn.execute(q("list_contexts"), {"limit": limit, "after": after})
    return await cur.fetchall()


async def get_context(conn: Conn, id: uuid.UUID, *, for_update: bool = False) -> dict | None:
    name = "get_context_for_update" if for_update else "get_context"
    cur = await conn.execute(q(name), {"id": id})
    return await cur.fetchone()


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
) -> dict:
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
    return row


async def list_keys(
    conn: Conn, context_id: uuid.UUID, limit: int, after: uuid.UUID | None = None
) -> list[dict]:
    cur = await conn.execute(
        q("list_keys"), {"context_id": context_id, "limit": limit, "after": after}
    )
    return await cur.fetchall()


async def revoke_key(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> dict | None:
    cur = await conn.execute(q("revoke_key"), {"context_id": context_id, "id": id})
    return await cur.fetchone()


async def key_for_auth(conn: Conn, id: uuid.UUID) -> dict | None:
    cur = await conn.execute(q("authenticate_key"), {"id": id})
    return await cur.fetchone()


async def key_grants(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> dict | None:
    """A key's own narrowing and its principal's current grants (for replay)."""
    cur = await conn.execute(q("principal_grants_for_key"), {"context_id": context_id, "id": id})
    return await cur.fetchone()


async def list_context_configs(conn: Conn) -> list[dict]:
    """Every Context's stored configuration, for deployment-wide reports (`doctor`)."""
    cur = await conn.execute(q("list_context_configs"))
    return await cur.fetchall()
