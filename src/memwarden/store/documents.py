"""Documents and their chunks."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from pgvector import Vector

from memwarden.store.db import Conn
from memwarden.store.queries import q


async def insert(conn: Conn, **values: Any) -> dict:
    cur = await conn.execute(q("doc_insert"), values)
    row = await cur.fetchone()
    assert row is not None
    return row


async def pending_bytes(conn: Conn, context_id: uuid.UUID) -> int:
    """The bytes of the Context's documents waiting for or in processing, read under the
    Context's queue lock (held to the end of the transaction), so two uploads never both
    fit in the same room."""
    await conn.execute(q("doc_lock_queue"), {"context_id": context_id})
    cur = await conn.execute(q("doc_pending_bytes"), {"context_id": context_id})
    row = await cur.fetchone()
    return int(row["bytes"]) if row else 0


async def get(
    conn: Conn, context_id: uuid.UUID, id: uuid.UUID, *, for_update: bool = False
) -> dict | None:
    name = "doc_get_for_update" if for_update else "doc_get"
    cur = await conn.execute(q(name), {"context_id": context_id, "id": id})
    return await cur.fetchone()


async def get_for_reprocess(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> dict | None:
    """The document with its parsed (redacted) text and its failed extraction windows."""
    cur = await conn.execute(q("doc_get_for_reprocess"), {"context_id": context_id, "id": id})
    return await cur.fetchone()


async def list_recent(
    conn: Conn, context_id: uuid.UUID, limit: int, before: uuid.UUID | None
) -> list[dict]:
    cur = await conn.execute(
        q("doc_list"), {"context_id": context_id, "limit": limit, "before": before}
    )
    return await cur.fetchall()


async def set_status(
    conn: Conn,
    context_id: uuid.UUID,
    id: uuid.UUID,
    status: str,
    failure_code: str | None = None,
    failure_reasons: Sequence[str] = (),
) -> None:
    await conn.execute(
        q("doc_set_status"),
        {
            "context_id": context_id,
            "id": id,
            "status": status,
            "failure_code": failure_code,
            "failure_reasons": list(failure_reasons),
        },
    )


async def finish(conn: Conn, context_id: uuid.UUID, id: uuid.UUID, parsed_text: str) -> None:
    await conn.execute(
        q("doc_finish"), {"context_id": context_id, "id": id, "parsed_text": parsed_text}
    )


async def fail_forgetting(
    conn: Conn, context_id: uuid.UUID, id: uuid.UUID, failure_code: str
) -> None:
    """A denied document keeps only its failed status: no text, codes, name or file, and
    no audit event that names it (the upload's included; this transaction only)."""
    params = {"context_id": context_id, "id": id}
    await conn.execute(q("doc_fail_forgetting"), {**params, "failure_code": failure_code})
    await conn.execute(q("doc_allow_forgetting_audit"))
    await conn.execute(q("doc_forget_audit"), params)


async def insert_chunk(conn: Conn, embedding: Sequence[float] | None, **values: Any) -> None:
    vector = Vector(list(embedding)) if embedding is not None else None
    await conn.execute(q("doc_insert_chunk"), {**values, "embedding": vector})


async def delete(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> list[dict]:
    """Removes the document and its chunks; its extracted records leave serving."""
    params = {"context_id": context_id, "id": id}
    await conn.execute(q("doc_delete_chunks"), params)
    cur = await conn.execute(q("doc_retire_records"), params)
    retired = await cur.fetchall()
    await conn.execute(q("doc_delete"), params)
    return retired


async def stale_pending(conn: Conn, older_than_s: int) -> list[dict]:
    cur = await conn.execute(q("doc_stale_pending"), {"older_than_s": older_than_s})
    return await cur.fetchall()
