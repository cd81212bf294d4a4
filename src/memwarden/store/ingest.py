"""Sessions, turns, chunks and reconciled records (SQL in queries/ingest.sql).

Batches go through `executemany`, which psycopg pipelines: one round trip per statement
kind instead of one per row keeps a write's own overhead small.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pgvector import Vector
from psycopg.types.json import Jsonb

from memwarden.domain.revision_cause import SupersedeCause
from memwarden.store.db import Conn
from memwarden.store.queries import q

Row = dict[str, Any]


@dataclass(frozen=True)
class WriteScope:
    """Where a write reconciles: one path, one visibility, and the owner for private ones."""

    context_id: uuid.UUID
    scope_path: str
    visibility: str
    subject: str

    def params(self) -> dict[str, Any]:
        return {
            "context_id": self.context_id,
            "scope_path": self.scope_path,
            "visibility": self.visibility,
            "subject": self.subject,
        }


async def _all(conn: Conn, name: str, params: dict[str, Any]) -> list[Row]:
    cur = await conn.execute(q(name), params)
    return await cur.fetchall()


async def _many(conn: Conn, name: str, rows: Sequence[dict[str, Any]]) -> None:
    if rows:
        async with conn.cursor() as cur:
            await cur.executemany(q(name), rows)


async def get_session(conn: Conn, context_id: uuid.UUID, session_id: uuid.UUID) -> Row | None:
    rows = await _all(conn, "ingest_get_session", {"context_id": context_id, "id": session_id})
    return rows[0] if rows else None


async def insert_session(conn: Conn, **values: Any) -> None:
    await conn.execute(q("ingest_insert_session"), values)


async def insert_turn(conn: Conn, **values: Any) -> None:
    await conn.execute(q("ingest_insert_turn"), values)


async def insert_chunks(conn: Conn, rows: Sequence[Row]) -> None:
    await _many(
        conn,
        "ingest_insert_chunk",
        [{**r, "embedding": Vector(r["embedding"]) if r["embedding"] else None} for r in rows],
    )


async def lock_scope(conn: Conn, where: WriteScope) -> None:
    await conn.execute(q("ingest_lock_scope"), where.params())


async def entities_by_name(conn: Conn, where: WriteScope, names: Sequence[str]) -> list[Row]:
    if not names:
        return []
    return await _all(conn, "ingest_entities_by_name", {**where.params(), "names": list(names)})


async def speaker_names(conn: Conn, where: WriteScope, norm: str, keys: Sequence[str]) -> list[str]:
    """The names the speaker's entity in this scope carries (its served name attributes)."""
    params = {**where.params(), "norm": norm, "keys": list(keys)}
    return [r["value"] for r in await _all(conn, "ingest_speaker_names", params)]


async def similar_entities(
    conn: Conn, where: WriteScope, vectors: Sequence[Sequence[float]]
) -> list[Row]:
    """Rows carry `ord` (1-based position in `vectors`) and the best match's similarity."""
    if not vectors:
        return []
    params = {**where.params(), "vectors": [Vector(list(v)) for v in vectors]}
    return await _all(conn, "ingest_similar_entities", params)


async def live_facts(
    conn: Conn, where: WriteScope, entity_ids: Sequence[uuid.UUID], keys: Sequence[str]
) -> list[Row]:
    if not entity_ids or not keys:
        return []
    params = {**where.params(), "entity_ids": list(entity_ids), "keys": list(keys)}
    return await _all(conn, "ingest_live_facts", params)


async def live_notes(conn: Conn, where: WriteScope, idents: Sequence[str]) -> list[Row]:
    if not idents:
        return []
    return await _all(conn, "ingest_live_notes", {**where.params(), "idents": list(idents)})


async def insert_records(conn: Conn, rows: Sequence[Row]) -> None:
    await _many(conn, "ingest_insert_record", rows)


async def insert_revisions(conn: Conn, rows: Sequence[Row]) -> None:
    """A row without `cause` gets the one its op implies (migration 0028)."""
    await _many(conn, "insert_memory_revision", [{"cause": None, **r} for r in rows])


async def insert_embeddings(conn: Conn, rows: Sequence[Row]) -> None:
    await _many(
        conn, "insert_memory_embedding", [{**r, "embedding": Vector(r["embedding"])} for r in rows]
    )


async def supersede(
    conn: Conn, context_id: uuid.UUID, record_id: uuid.UUID, new_id: uuid.UUID | None
) -> Row | None:
    rows = await _all(
        conn, "ingest_supersede", {"context_id": context_id, "id": record_id, "new_id": new_id}
    )
    return rows[0] if rows else None


async def supersede_recorded(
    conn: Conn,
    context_id: uuid.UUID,
    old_id: uuid.UUID,
    new_id: uuid.UUID | None,
    actor: str,
    cause: SupersedeCause,
) -> Row | None:
    """The one way a live record is superseded (a write's plan, a declared supersede, a
    hygiene resolution, a consolidation): its validity closes, a `supersede` revision keeps
    its content and says why, and the feed entry to append comes back (None when the record
    was no longer live)."""
    row = await supersede(conn, context_id, old_id, new_id)
    if row is None:
        return None
    await insert_revisions(
        conn,
        [
            {
                "context_id": context_id,
                "record_id": row["id"],
                "revision": row["revision"],
                "op": "supersede",
                "content": Jsonb(row["content"]),
                "actor_subject": actor,
                "cause": cause,
            }
        ],
    )
    return {
        "record_id": row["id"],
        "revision": row["revision"],
        "kind": row["kind"],
        "entry_type": "superseded",
    }


async def change_events(conn: Conn, context_id: uuid.UUID, events: Sequence[Row]) -> None:
    """Append to the feed in order; the feed lock is taken once for the whole batch."""
    if not events:
        return
    await conn.execute(q("lock_change_feed"), {"context_id": context_id})
    await _many(conn, "insert_change_event", [{"context_id": context_id, **e} for e in events])


async def records_to_embed(
    conn: Conn, context_id: uuid.UUID, record_ids: Sequence[uuid.UUID]
) -> list[Row]:
    if not record_ids:
        return []
    return await _all(
        conn, "ingest_records_to_embed", {"context_id": context_id, "ids": list(record_ids)}
    )
