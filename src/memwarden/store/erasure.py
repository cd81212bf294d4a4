"""Erasure rows and batches (queries/erasure.sql): requests, target resolution, tombstones.

Each batch function runs inside the caller's transaction and returns what it changed, so
the job adds the batch's counts to the request in that same transaction.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg import sql
from psycopg.types.json import Jsonb

from memwarden.store.db import Conn
from memwarden.store.queries import q
from memwarden.store.rows import fetch_one

# Tables an erasure changes: vacuumed after it, so dead row versions do not keep the bytes.
TOUCHED_TABLES: tuple[str, ...] = (
    "memory_record",
    "memory_record_past",  # states kept for as_of reads (0029): blanked by its trigger
    "memory_revision",
    "memory_embedding",
    "memory_link",
    "conflict",
    "hygiene_judged",
    "turn",
    "chunk",
    "document",
    "judgement",
    "retained_input",
    "change_event",
)


@dataclass(frozen=True)
class ErasureRow:
    id: uuid.UUID
    target_kind: str
    target: dict[str, Any]
    status: str
    counts: dict[str, int]
    error: str | None
    requested_by: str
    key_id: uuid.UUID | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


async def insert(
    conn: Conn,
    context_id: uuid.UUID,
    erasure_id: uuid.UUID,
    target_kind: str,
    target: dict[str, Any],
    requested_by: str,
    key_id: uuid.UUID | None,
) -> None:
    await conn.execute(
        q("erasure_insert"),
        {
            "context_id": context_id,
            "id": erasure_id,
            "target_kind": target_kind,
            "target": Jsonb(target),
            "requested_by": requested_by,
            "key_id": key_id,
        },
    )


async def get(conn: Conn, context_id: uuid.UUID, erasure_id: uuid.UUID) -> ErasureRow | None:
    return await fetch_one(
        conn, "erasure_get", ErasureRow, {"context_id": context_id, "id": erasure_id}
    )


async def start(
    conn: Conn, context_id: uuid.UUID, erasure_id: uuid.UUID
) -> tuple[str, dict[str, Any]] | None:
    cur = await conn.execute(q("erasure_start"), {"context_id": context_id, "id": erasure_id})
    row = await cur.fetchone()
    return (row["target_kind"], row["target"]) if row else None


async def finish(
    conn: Conn, context_id: uuid.UUID, erasure_id: uuid.UUID, status: str, error: str | None
) -> None:
    await conn.execute(
        q("erasure_finish"),
        {"context_id": context_id, "id": erasure_id, "status": status, "error": error},
    )


async def add_counts(
    conn: Conn, context_id: uuid.UUID, erasure_id: uuid.UUID, add: dict[str, int]
) -> None:
    kept = {k: v for k, v in add.items() if v}
    if kept:
        await conn.execute(
            q("erasure_add_counts"),
            {"context_id": context_id, "id": erasure_id, "add": Jsonb(kept)},
        )


async def _column(conn: Conn, name: str, params: dict[str, Any], column: str = "id") -> list[Any]:
    cur = await conn.execute(q(name), params)
    return [row[column] for row in await cur.fetchall()]


async def principal_of(conn: Conn, context_id: uuid.UUID, subject: str) -> uuid.UUID | None:
    found = await _column(conn, "erasure_principal", {"context_id": context_id, "subject": subject})
    return found[0] if found else None


async def record_scopes(
    conn: Conn, context_id: uuid.UUID, ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, str]:
    cur = await conn.execute(
        q("erasure_scopes_of_records"), {"context_id": context_id, "ids": list(ids)}
    )
    return {row["id"]: row["scope_path"] for row in await cur.fetchall()}


async def scope_of(conn: Conn, context_id: uuid.UUID, kind: str, item: uuid.UUID) -> str | None:
    name = "erasure_session_scope" if kind == "session" else "erasure_document_scope"
    found = await _column(conn, name, {"context_id": context_id, "id": item}, "scope_path")
    return found[0] if found else None


@dataclass
class Resolved:
    """What a target came to: its turns (and their sessions), documents and the speaker's
    entities, with the parameters every pick takes."""

    params: dict[str, Any]
    sessions: int


async def resolve(conn: Conn, base: dict[str, Any]) -> Resolved:
    """The turns, documents and speaker entities of a target (`base`: the target's own
    parameters); re-resolved on every run, from columns an erasure never changes."""
    params = {"turns": [], "documents": [], "entities": [], "limit": 0, **base}
    cur = await conn.execute(q("erasure_target_turns"), params)
    turns = await cur.fetchall()
    params["turns"] = [t["id"] for t in turns]
    params["documents"] = await _column(conn, "erasure_target_documents", params)
    if params.get("speaker_norm"):
        params["entities"] = await _column(conn, "erasure_speaker_entities", params)
    return Resolved(params, len({t["session_id"] for t in turns}))


FIRST = uuid.UUID(int=0)
"""`after` for a walk's first batch: below every id."""


# The walks an erasure makes, one block each (`pick` takes the part after the prefix).
PICKS = (
    "erasure_pick_facts",
    "erasure_pick_derived",
    "erasure_pick_entities",
    "erasure_pick_turns",
    "erasure_pick_judgements",
)


async def pick(
    conn: Conn, name: str, params: dict[str, Any], limit: int, after: uuid.UUID = FIRST
) -> list[uuid.UUID]:
    """A batch of what is left (locked), ids above `after` in order: `erasure_pick_<name>`."""
    block = f"erasure_pick_{name}"
    if block not in PICKS:
        raise ValueError(f"no erasure walk named {name!r}")
    return await _column(conn, block, {**params, "limit": limit, "after": after})


async def tombstone_records(
    conn: Conn, context_id: uuid.UUID, ids: list[uuid.UUID], actor: str
) -> dict[str, int]:
    """Records to tombstones, their revisions emptied, one `erase` revision and one
    `erased` feed entry each, and everything keyed by them that holds or points at content
    (vectors, links, hygiene queue items and judged pairs, traffic, re-examination guards)."""
    keys = {"context_id": context_id, "ids": ids}
    cur = await conn.execute(q("erasure_tombstone_records"), keys)
    done = await cur.fetchall()
    if not done:
        return {}
    done_ids = [row["id"] for row in done]
    revisions = [row["revision"] for row in done]
    both = {"context_id": context_id, "ids": done_ids}
    revs = await conn.execute(q("erasure_clear_revisions"), both)
    await conn.execute(q("erasure_add_revisions"), {**both, "revisions": revisions, "actor": actor})
    await conn.execute(q("lock_change_feed"), {"context_id": context_id})
    await conn.execute(q("erasure_feed"), {**both, "revisions": revisions})
    vectors = await conn.execute(q("erasure_drop_vectors"), both)
    links = await conn.execute(q("erasure_drop_links"), both)
    queue = await conn.execute(q("erasure_drop_queue_items"), both)
    await conn.execute(q("erasure_drop_judged_pairs"), both)
    await conn.execute(q("erasure_drop_traffic"), both)
    await conn.execute(q("erasure_drop_guards"), both)
    return {
        "revisions": revs.rowcount + len(done_ids),
        "vectors": vectors.rowcount,
        "links": links.rowcount,
        "queue_items": queue.rowcount,
        "_records": len(done_ids),
    }


async def tombstone_turns(
    conn: Conn, context_id: uuid.UUID, ids: list[uuid.UUID]
) -> dict[str, int]:
    keys = {"context_id": context_id, "ids": ids}
    turns = await conn.execute(q("erasure_tombstone_turns"), keys)
    chunks = await conn.execute(q("erasure_drop_turn_chunks"), keys)
    return {"turns": turns.rowcount, "chunks": chunks.rowcount}


async def pick_documents(
    conn: Conn, params: dict[str, Any], limit: int, after: uuid.UUID = FIRST
) -> list[tuple[uuid.UUID, str | None]]:
    cur = await conn.execute(
        q("erasure_pick_documents"), {**params, "limit": limit, "after": after}
    )
    return [(row["id"], row["storage_path"]) for row in await cur.fetchall()]


async def tombstone_documents(
    conn: Conn, context_id: uuid.UUID, ids: list[uuid.UUID]
) -> dict[str, int]:
    keys = {"context_id": context_id, "ids": ids}
    docs = await conn.execute(q("erasure_tombstone_documents"), keys)
    chunks = await conn.execute(q("erasure_drop_document_chunks"), keys)
    return {"documents": docs.rowcount, "chunks": chunks.rowcount}


async def clear_excerpts(conn: Conn, context_id: uuid.UUID, ids: list[uuid.UUID]) -> int:
    cur = await conn.execute(q("erasure_clear_excerpts"), {"context_id": context_id, "ids": ids})
    return cur.rowcount


async def drop_retained(conn: Conn, params: dict[str, Any]) -> int:
    cur = await conn.execute(q("erasure_drop_retained"), params)
    return cur.rowcount


async def open_erasures(conn: Conn, older_than_s: float) -> list[tuple[uuid.UUID, uuid.UUID]]:
    cur = await conn.execute(q("erasure_open"), {"older_than_s": older_than_s})
    return [(row["context_id"], row["id"]) for row in await cur.fetchall()]


async def vacuum(conn: Conn, tables: Sequence[str] = TOUCHED_TABLES) -> None:
    """VACUUM (outside any transaction: `conn` in autocommit), so the dead row versions
    that held the erased bytes are reclaimed now rather than when autovacuum comes by."""
    for table in tables:
        await conn.execute(sql.SQL("VACUUM {}").format(sql.Identifier(table)))


async def set_counts(
    conn: Conn, context_id: uuid.UUID, erasure_id: uuid.UUID, values: dict[str, int]
) -> None:
    """Counts that are recomputed rather than added (a re-run must not count twice)."""
    await conn.execute(
        q("erasure_set_counts"),
        {"context_id": context_id, "id": erasure_id, "values": Jsonb(values)},
    )
