"""Extraction outcomes (SQL in queries/extraction.sql): the failed windows kept on each turn
and document, and the per-Context, per-day counters of windows and dropped text."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import date
from typing import Any, Literal

from psycopg.types.json import Jsonb

from memwarden.store.db import Conn
from memwarden.store.queries import q

SourceKind = Literal["turn", "document"]


async def set_outcome(
    conn: Conn,
    kind: SourceKind,
    context_id: uuid.UUID,
    id: uuid.UUID,
    windows: int,
    failed: Sequence[dict[str, int]],
) -> None:
    """The item's window count and the windows that still need extracting."""
    name = "extraction_set_turn" if kind == "turn" else "extraction_set_document"
    await conn.execute(
        q(name),
        {"context_id": context_id, "id": id, "windows": windows, "failed": Jsonb(list(failed))},
    )


async def book(
    conn: Conn,
    context_id: uuid.UUID,
    kind: SourceKind,
    *,
    windows_run: int,
    windows_failed: int,
    dropped_chars: int,
    dropped_bytes: int,
) -> None:
    await conn.execute(
        q("extraction_book"),
        {
            "context_id": context_id,
            "source_kind": kind,
            "windows_run": windows_run,
            "windows_failed": windows_failed,
            "dropped_chars": dropped_chars,
            "dropped_bytes": dropped_bytes,
        },
    )


async def usage_since(conn: Conn, context_id: uuid.UUID, since: date) -> list[dict[str, Any]]:
    params = {"context_id": context_id, "since": since}
    cur = await conn.execute(q("extraction_usage_since"), params)
    return await cur.fetchall()


async def get_turn(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> dict[str, Any] | None:
    cur = await conn.execute(q("extraction_get_turn"), {"context_id": context_id, "id": id})
    return await cur.fetchone()
