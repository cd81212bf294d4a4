"""Memory records, revisions, review receipts and embeddings (SQL in queries/memory.sql)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from pgvector import Vector
from psycopg.types.json import Jsonb

from memwarden.store.db import Conn
from memwarden.store.queries import q
from memwarden.store.rows import fetch_one
from memwarden.store.search import ServedRecord

Row = dict[str, Any]


async def _one(conn: Conn, name: str, params: dict[str, Any]) -> Row | None:
    cur = await conn.execute(q(name), params)
    return await cur.fetchone()


async def insert_note(
    conn: Conn,
    *,
    context_id: uuid.UUID,
    id: uuid.UUID,
    scope_path: str,
    visibility: str,
    subject: str,
    content: dict[str, Any],
    body: str,
    expires_at: datetime | None,
) -> Row | None:
    """None when the id is taken."""
    return await _one(
        conn,
        "insert_memory_record",
        {
            "context_id": context_id,
            "id": id,
            "kind": "note",
            "memory_category": "context",
            "scope_path": scope_path,
            "visibility": visibility,
            "owner_subject": subject,
            "author_subject": subject,
            "content": Jsonb(content),
            "body": body,
            "expires_at": expires_at,
        },
    )


async def lock_record(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> Row | None:
    return await _one(conn, "lock_memory_record", {"context_id": context_id, "id": id})


async def record_state(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> Row | None:
    return await _one(conn, "memory_record_state", {"context_id": context_id, "id": id})


async def read_servable(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> ServedRecord | None:
    params = {"context_id": context_id, "id": id}
    return await fetch_one(conn, "read_servable_record", ServedRecord, params)


async def update_content(
    conn: Conn,
    *,
    context_id: uuid.UUID,
    id: uuid.UUID,
    expected_revision: int,
    content: dict[str, Any],
    body: str,
    expires_at: datetime | None,
) -> Row | None:
    return await _one(
        conn,
        "update_memory_content",
        {
            "context_id": context_id,
            "id": id,
            "expected_revision": expected_revision,
            "content": Jsonb(content),
            "body": body,
            "expires_at": expires_at,
        },
    )


async def update_expiry(
    conn: Conn,
    *,
    context_id: uuid.UUID,
    id: uuid.UUID,
    expected_revision: int,
    expires_at: datetime | None,
) -> Row | None:
    return await _one(
        conn,
        "update_memory_expiry",
        {
            "context_id": context_id,
            "id": id,
            "expected_revision": expected_revision,
            "expires_at": expires_at,
        },
    )


async def delete_record(
    conn: Conn, *, context_id: uuid.UUID, id: uuid.UUID, expected_revision: int
) -> Row | None:
    return await _one(
        conn,
        "delete_memory_record",
        {"context_id": context_id, "id": id, "expected_revision": expected_revision},
    )


async def apply_review(
    conn: Conn,
    *,
    context_id: uuid.UUID,
    id: uuid.UUID,
    expected_revision: int,
    stored_disposition: str | None,
    receipt_id: uuid.UUID,
) -> Row | None:
    return await _one(
        conn,
        "apply_review",
        {
            "context_id": context_id,
            "id": id,
            "expected_revision": expected_revision,
            "stored_disposition": stored_disposition,
            "receipt_id": receipt_id,
        },
    )


async def insert_revision(
    conn: Conn,
    *,
    context_id: uuid.UUID,
    record_id: uuid.UUID,
    revision: int,
    op: str,
    content: dict[str, Any] | None,
    actor_subject: str,
) -> None:
    await conn.execute(
        q("insert_memory_revision"),
        {
            "context_id": context_id,
            "record_id": record_id,
            "revision": revision,
            "op": op,
            "content": Jsonb(content) if content is not None else None,
            "actor_subject": actor_subject,
        },
    )


async def revision_op(
    conn: Conn, context_id: uuid.UUID, record_id: uuid.UUID, revision: int
) -> str | None:
    row = await _one(
        conn,
        "memory_revision_op",
        {"context_id": context_id, "record_id": record_id, "revision": revision},
    )
    return row["op"] if row else None


async def insert_receipt(conn: Conn, receipt: Row) -> datetime:
    row = await _one(conn, "insert_review_receipt", {**receipt, "scope": Jsonb(receipt["scope"])})
    assert row is not None
    return row["decided_at"]


async def receipt_by_key(
    conn: Conn, context_id: uuid.UUID, subject: str, idempotency_key: str
) -> Row | None:
    return await _one(
        conn,
        "receipt_by_idempotency_key",
        {
            "context_id": context_id,
            "reviewer_subject": subject,
            "idempotency_key": idempotency_key,
        },
    )


async def receipt_by_revision(
    conn: Conn, context_id: uuid.UUID, record_id: uuid.UUID, revision: int
) -> Row | None:
    return await _one(
        conn,
        "receipt_by_revision",
        {"context_id": context_id, "record_id": record_id, "revision": revision},
    )


async def insert_embedding(
    conn: Conn,
    *,
    context_id: uuid.UUID,
    record_id: uuid.UUID,
    revision: int,
    vector: list[float],
    model: str,
) -> Row | None:
    """None when that revision already has a vector."""
    return await _one(
        conn,
        "insert_memory_embedding",
        {
            "context_id": context_id,
            "record_id": record_id,
            "revision": revision,
            "embedding": Vector(vector),
            "model": model,
        },
    )


async def source_graph(
    conn: Conn, context_id: uuid.UUID, id: uuid.UUID, max_depth: int
) -> list[Row]:
    cur = await conn.execute(
        q("memory_source_graph"), {"context_id": context_id, "id": id, "max_depth": max_depth}
    )
    return await cur.fetchall()
