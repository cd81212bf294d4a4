"""Chat and reflection reads (SQL in queries/chat.sql): memory version, servable checks, and
the recent memories a reflection reads."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from memwarden.store.db import Conn
from memwarden.store.queries import q
from memwarden.store.recall import Reader
from memwarden.store.rows import fetch_all


@dataclass(frozen=True)
class RecentMemory:
    """A record a reflection reads."""

    id: uuid.UUID
    kind: str
    body: str
    visibility: str
    created_at: datetime


async def memory_version(conn: Conn, context_id: uuid.UUID) -> int:
    cur = await conn.execute(q("chat_memory_version"), {"context_id": context_id})
    row = await cur.fetchone()
    return int(row["version"]) if row else 0


async def servable_ids(conn: Conn, who: Reader, ids: Sequence[uuid.UUID]) -> set[uuid.UUID]:
    if not ids:
        return set()
    cur = await conn.execute(q("chat_servable_ids"), who.params(ids=list(ids)))
    return {r["id"] for r in await cur.fetchall()}


async def recent_memories(conn: Conn, who: Reader, limit: int) -> list[RecentMemory]:
    return await fetch_all(conn, "reflect_recent_memories", RecentMemory, who.params(limit=limit))
