"""A record's revisions and change events (SQL in queries/record_history.sql)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from memwarden.store.db import Conn
from memwarden.store.rows import fetch_all


@dataclass(frozen=True)
class RevisionRow:
    revision: int
    op: str
    actor_subject: str
    created_at: datetime


@dataclass(frozen=True)
class ChangeRow:
    seq: int
    revision: int | None
    kind: str
    entry_type: str
    created_at: datetime


async def revisions(
    conn: Conn, context_id: uuid.UUID, record_id: uuid.UUID, limit: int
) -> list[RevisionRow]:
    params = {"context_id": context_id, "record_id": record_id, "limit": limit}
    return await fetch_all(conn, "record_revisions", RevisionRow, params)


async def change_events(
    conn: Conn, context_id: uuid.UUID, record_id: uuid.UUID, limit: int
) -> list[ChangeRow]:
    params = {"context_id": context_id, "record_id": record_id, "limit": limit}
    return await fetch_all(conn, "record_change_events", ChangeRow, params)
