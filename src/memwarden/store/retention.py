"""Deleting what a Context's retention settings no longer keep."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memwarden.store.db import Conn
from memwarden.store.queries import q
from memwarden.store.rows import fetch_all


@dataclass(frozen=True)
class ContextConfigRow:
    id: uuid.UUID
    config: Any  # the stored JSON as it is: validated by memwarden.config, not here


async def contexts_with_config(conn: Conn) -> list[ContextConfigRow]:
    return await fetch_all(conn, "contexts_with_config", ContextConfigRow, {})


async def purge_judgements(conn: Conn, context_id: uuid.UUID, cutoff: datetime) -> int:
    cur = await conn.execute(q("purge_judgements"), {"context_id": context_id, "cutoff": cutoff})
    return cur.rowcount


async def purge_retained_inputs(conn: Conn, context_id: uuid.UUID, now: datetime) -> int:
    cur = await conn.execute(q("purge_retained_inputs"), {"context_id": context_id, "now": now})
    return cur.rowcount
