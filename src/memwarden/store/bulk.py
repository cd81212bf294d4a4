"""Bulk loading for benchmarks and capacity tests: binary COPY of memory records with their
vectors (about 50k rows/s here), instead of one `/facts` write per memory.

These rows bypass the write path (no gates, no reconciliation, no audit): only benchmarks
and tests call this, never a request.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from psycopg.types.json import Jsonb

from memwarden.domain.ids import new_id
from memwarden.store.db import Conn
from memwarden.store.queries import q

_RECORD_TYPES = ["uuid", "uuid", "text", "text", "text", "jsonb", "text", "text", "text"]


@dataclass(frozen=True)
class BulkRecord:
    id: uuid.UUID
    kind: str
    body: str
    vector: Any  # a float32 sequence (numpy row or list) of the embedder's dimension


async def copy_records(
    conn: Conn,
    context_id: uuid.UUID,
    records: Sequence[BulkRecord],
    *,
    owner: str = "bench",
    category: str = "knowledge",
) -> None:
    """Records (revision 1, served, shared) and their revision-1 embeddings."""
    async with conn.cursor() as cur:
        async with cur.copy(q("bulk_copy_records")) as copy:
            copy.set_types([*_RECORD_TYPES, "vector", "int4"])
            for r in records:
                await copy.write_row(
                    (
                        context_id,
                        r.id,
                        r.kind,
                        category,
                        owner,
                        Jsonb({"text": r.body}),
                        r.body,
                        owner,
                        "turn",
                        r.vector,
                        1,
                    )
                )
        async with cur.copy(q("bulk_copy_embeddings")) as copy:
            copy.set_types(["uuid", "uuid", "int4", "vector", "text"])
            for r in records:
                await copy.write_row((context_id, r.id, 1, r.vector, "synthetic"))


async def copy_chunks(
    conn: Conn,
    context_id: uuid.UUID,
    principal_id: uuid.UUID,
    chunks: Iterable[tuple[str, Any]],
    *,
    owner: str = "bench",
) -> None:
    """One session and turn, and the given (text, vector) chunks under it."""
    turn_id = new_id()
    await conn.execute(
        q("bulk_insert_turn"),
        {
            "context_id": context_id,
            "session_id": new_id(),
            "turn_id": turn_id,
            "principal_id": principal_id,
            "owner": owner,
        },
    )
    async with conn.cursor() as cur, cur.copy(q("bulk_copy_chunks")) as copy:
        copy.set_types(["uuid", "uuid", "uuid", "text", "vector", "text"])
        for text, vector in chunks:
            await copy.write_row((context_id, new_id(), turn_id, text, vector, owner))
