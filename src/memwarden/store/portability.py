"""Export pages and import rows (queries/portability.sql).

The export walks page by id and never hold a transaction open between pages; the import
functions run inside the caller's transaction, so each batch of items and its counts
commit together (portability/run.py).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pgvector import Vector
from psycopg.types.json import Jsonb

from memwarden.store.db import Conn
from memwarden.store.queries import q
from memwarden.store.rows import fetch_one

FIRST = uuid.UUID(int=0)
"""`after` for a walk's first page: below every id."""


@dataclass(frozen=True)
class ExportFilter:
    """What an export covers: the reader's view (or `everything`), a scope, a subject."""

    context_id: uuid.UUID
    everything: bool
    prefixes: Sequence[str]
    reader: str
    scopes: Sequence[str] = ()
    subject: str | None = None
    speaker_norm: str | None = None
    turn_speaker: str | None = None

    def params(self) -> dict[str, Any]:
        return {
            "context_id": self.context_id,
            "everything": self.everything,
            "prefixes": list(self.prefixes),
            "reader": self.reader,
            "scopes": list(self.scopes),
            "subject": self.subject,
            "speaker_norm": self.speaker_norm,
            "turn_speaker": self.turn_speaker,
        }


async def _rows(conn: Conn, name: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    cur = await conn.execute(q(name), params)
    return list(await cur.fetchall())


async def records_page(
    conn: Conn, f: ExportFilter, *, entities: bool, after: uuid.UUID, limit: int
) -> list[dict[str, Any]]:
    params = {**f.params(), "entities": entities, "after": after, "limit": limit}
    return await _rows(conn, "portability_records", params)


async def links_page(
    conn: Conn, f: ExportFilter, after: tuple[uuid.UUID, uuid.UUID], limit: int
) -> list[dict[str, Any]]:
    params = {**f.params(), "after": after[0], "after_hi": after[1], "limit": limit}
    return await _rows(conn, "portability_links", params)


async def turns_page(
    conn: Conn, f: ExportFilter, after: uuid.UUID, limit: int
) -> list[dict[str, Any]]:
    return await _rows(conn, "portability_turns", {**f.params(), "after": after, "limit": limit})


async def principals_page(
    conn: Conn, context_id: uuid.UUID, after: uuid.UUID, limit: int
) -> list[dict[str, Any]]:
    params = {"context_id": context_id, "after": after, "limit": limit}
    return await _rows(conn, "portability_principals", params)


async def judgements_page(
    conn: Conn, f: ExportFilter, after: uuid.UUID, limit: int
) -> list[dict[str, Any]]:
    params = {"context_id": f.context_id, "scopes": list(f.scopes), "after": after, "limit": limit}
    return await _rows(conn, "portability_judgements", params)


# -- imports ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportRow:
    id: uuid.UUID
    format: str
    source_dir: str
    scope_path: str
    visibility: str
    status: str
    total: int
    processed: int
    counts: dict[str, int]
    error: str | None
    requested_by: str
    key_id: uuid.UUID
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


@dataclass(frozen=True)
class PendingItem:
    seq: int
    item_key: str
    payload: dict[str, Any]


async def insert_import(conn: Conn, row: dict[str, Any]) -> None:
    await conn.execute(q("portability_import_insert"), row)


async def insert_items(
    conn: Conn,
    context_id: uuid.UUID,
    import_id: uuid.UUID,
    items: Sequence[tuple[str, dict[str, Any]]],
    chunk: int = 5000,
) -> None:
    """The items in file order (seq from 0), `chunk` rows a statement."""
    for start in range(0, len(items), chunk):
        part = items[start : start + chunk]
        await conn.execute(
            q("portability_import_items"),
            {
                "context_id": context_id,
                "import_id": import_id,
                "seqs": list(range(start, start + len(part))),
                "keys": [k for k, _ in part],
                "payloads": [Jsonb(p) for _, p in part],
            },
        )


async def get_import(conn: Conn, context_id: uuid.UUID, import_id: uuid.UUID) -> ImportRow | None:
    return await fetch_one(
        conn, "portability_import_get", ImportRow, {"context_id": context_id, "id": import_id}
    )


async def start_import(conn: Conn, context_id: uuid.UUID, import_id: uuid.UUID) -> bool:
    cur = await conn.execute(
        q("portability_import_start"), {"context_id": context_id, "id": import_id}
    )
    return await cur.fetchone() is not None


async def finish_import(
    conn: Conn, context_id: uuid.UUID, import_id: uuid.UUID, status: str, error: str | None
) -> None:
    await conn.execute(
        q("portability_import_finish"),
        {"context_id": context_id, "id": import_id, "status": status, "error": error},
    )


async def pending(
    conn: Conn, context_id: uuid.UUID, import_id: uuid.UUID, limit: int, after: int = -1
) -> list[PendingItem]:
    rows = await _rows(
        conn,
        "portability_import_pending",
        {"context_id": context_id, "import_id": import_id, "limit": limit, "after": after},
    )
    return [PendingItem(r["seq"], r["item_key"], r["payload"]) for r in rows]


async def item_done(
    conn: Conn,
    context_id: uuid.UUID,
    import_id: uuid.UUID,
    seq: int,
    outcome: str,
    detail: str | None,
    target_id: uuid.UUID | None,
) -> None:
    await conn.execute(
        q("portability_item_done"),
        {
            "context_id": context_id,
            "import_id": import_id,
            "seq": seq,
            "outcome": outcome,
            "detail": detail,
            "target_id": target_id,
        },
    )


async def items_done(
    conn: Conn,
    context_id: uuid.UUID,
    import_id: uuid.UUID,
    done: Sequence[tuple[int, str, str | None, uuid.UUID | None]],
) -> None:
    """Many items' outcomes (seq, outcome, detail, record) at once."""
    rows = [
        {
            "context_id": context_id,
            "import_id": import_id,
            "seq": seq,
            "outcome": outcome,
            "detail": detail,
            "target_id": target,
        }
        for seq, outcome, detail, target in done
    ]
    await _many(conn, "portability_item_done", rows)


async def advance(
    conn: Conn, context_id: uuid.UUID, import_id: uuid.UUID, processed: int, add: dict[str, int]
) -> None:
    await conn.execute(
        q("portability_import_advance"),
        {
            "context_id": context_id,
            "id": import_id,
            "processed": processed,
            "add": Jsonb({k: v for k, v in add.items() if v}),
        },
    )


async def seen_keys(
    conn: Conn, context_id: uuid.UUID, keys: Sequence[str]
) -> dict[str, uuid.UUID | None]:
    rows = await _rows(conn, "portability_seen_keys", {"context_id": context_id, "keys": keys})
    return {r["item_key"]: r["target_id"] for r in rows}


async def existing_ids(
    conn: Conn, context_id: uuid.UUID, ids: Sequence[uuid.UUID]
) -> set[uuid.UUID]:
    rows = await _rows(conn, "portability_existing_ids", {"context_id": context_id, "ids": ids})
    return {r["id"] for r in rows}


async def live_like(
    conn: Conn, context_id: uuid.UUID, bodies: Sequence[str], norms: Sequence[str]
) -> list[dict[str, Any]]:
    params = {"context_id": context_id, "bodies": list(bodies), "norms": list(norms)}
    return await _rows(conn, "portability_live_like", params)


async def existing_turns(
    conn: Conn, context_id: uuid.UUID, ids: Sequence[uuid.UUID]
) -> set[uuid.UUID]:
    rows = await _rows(conn, "portability_existing_turns", {"context_id": context_id, "ids": ids})
    return {r["id"] for r in rows}


async def existing_sessions(
    conn: Conn, context_id: uuid.UUID, ids: Sequence[uuid.UUID]
) -> set[uuid.UUID]:
    params = {"context_id": context_id, "ids": ids}
    rows = await _rows(conn, "portability_existing_sessions", params)
    return {r["id"] for r in rows}


async def _many(conn: Conn, name: str, rows: Sequence[dict[str, Any]]) -> None:
    if rows:
        async with conn.cursor() as cur:
            await cur.executemany(q(name), rows)


async def insert_records(conn: Conn, rows: Sequence[dict[str, Any]]) -> None:
    """Records as exported (their ids checked free before, in the same transaction)."""
    await _many(
        conn, "portability_insert_record", [{**r, "content": Jsonb(r["content"])} for r in rows]
    )


async def insert_revisions(conn: Conn, rows: Sequence[dict[str, Any]]) -> None:
    params = [
        {**r, "content": Jsonb(r["content"]) if r["content"] is not None else None} for r in rows
    ]
    await _many(conn, "portability_insert_revision", params)


async def insert_receipts(conn: Conn, rows: Sequence[dict[str, Any]]) -> None:
    await _many(
        conn, "portability_insert_receipt", [{**r, "scope": Jsonb(r["scope"])} for r in rows]
    )


async def insert_link(conn: Conn, row: dict[str, Any]) -> bool:
    cur = await conn.execute(q("portability_insert_link"), row)
    return await cur.fetchone() is not None


async def stamp_turn_records(
    conn: Conn, context_id: uuid.UUID, turn_id: uuid.UUID, source_dir: str, at: datetime | None
) -> list[uuid.UUID]:
    keys = {"context_id": context_id, "turn_id": turn_id, "at": at}
    rows = await _rows(conn, "portability_stamp_turn_records", {**keys, "source_dir": source_dir})
    await conn.execute(q("portability_stamp_turn"), keys)
    return [r["id"] for r in rows]


async def principal_of(conn: Conn, context_id: uuid.UUID, id: uuid.UUID, subject: str) -> uuid.UUID:
    """The subject's principal here, added when there is none (`id` is the new one's)."""
    params = {"context_id": context_id, "id": id, "subject": subject}
    rows = await _rows(conn, "portability_principal_of", params)
    found: uuid.UUID = rows[0]["id"]
    return found


async def insert_session(conn: Conn, row: dict[str, Any]) -> bool:
    cur = await conn.execute(q("portability_insert_session"), row)
    return await cur.fetchone() is not None


async def insert_turns(conn: Conn, rows: Sequence[dict[str, Any]]) -> None:
    """Turns as exported (ids checked free, sessions checked in, before)."""
    await _many(conn, "portability_insert_turn", rows)


async def insert_chunks(conn: Conn, rows: Sequence[dict[str, Any]]) -> None:
    params = [
        {**c, "embedding": Vector(c["embedding"]) if c["embedding"] is not None else None}
        for c in rows
    ]
    await _many(conn, "portability_insert_chunk", params)


async def open_imports(conn: Conn, older_than_s: float) -> list[tuple[uuid.UUID, uuid.UUID]]:
    rows = await _rows(conn, "portability_open_imports", {"older_than_s": older_than_s})
    return [(r["context_id"], r["id"]) for r in rows]
