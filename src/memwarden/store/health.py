"""What `/health` asks the database: its versions and how many workers beat recently."""

from __future__ import annotations

from dataclasses import dataclass

from psycopg.rows import class_row

from memwarden.store.db import Conn
from memwarden.store.queries import q


@dataclass(frozen=True)
class DatabaseInfo:
    """Server and schema versions, reported as they are (None: not installed/applied)."""

    version: str
    pgvector: str | None
    schema_version: int | None


async def database_info(conn: Conn) -> DatabaseInfo:
    async with conn.cursor(row_factory=class_row(DatabaseInfo)) as cur:
        await cur.execute(q("database_health"))
        row = await cur.fetchone()
    assert row is not None
    return row


async def count_live_workers(conn: Conn, window_s: int) -> int:
    """Workers whose last heartbeat is within `window_s` seconds."""
    cur = await conn.execute(q("count_live_workers"), {"window_s": window_s})
    row = await cur.fetchone()
    return int(row["n"]) if row else 0
