"""Deleting what a Context's retention settings no longer keep."""

from __future__ import annotations

import uuid
from datetime import datetime

from memwarden.store.db import Conn
from memwarden.store.queries import q


async def contexts_with_config(conn: Conn) -> list[dict]:
    cur = await conn.execute(q("contexts_with_config"))
    return await cur.fetchall()


async def purge_judgements(conn: Conn, context_id: uuid.UUID, cutoff: datetime) -> int:
    cur = await conn.execute(q("purge_judgements"), {"context_id": context_id, "cutoff": cutoff})
    return cur.rowcount


async def purge_retained_inputs(conn: Conn, context_id: uuid.UUID, now: datetime) -> int:
    cur = await conn.execute(q("purge_retained_inputs"), {"context_id": context_id, "now": now})
    return cur.rowcount
