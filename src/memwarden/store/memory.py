"""Memory records, revisions, review receipts and embeddings (SQL in queries/memory.sql)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pgvector import Vector
from psycopg.types.json import Jsonb

from memwarden.domain.eligibility import Disposition, Serving
from memwarden.domain.revision_cause import RevisionCause
from memwarden.domain.scope import Visibility
from memwarden.store.db import Conn
from memwarden.store.queries import q
from memwarden.store.rows import fetch_all, fetch_one
from memwarden.store.search import ServedRecord

Row = dict[str, Any]


@dataclass(frozen=True)
class NewRecord:
    id: uuid.UUID
    revision: int
    kind: str
    created_at: datetime


@dataclass(frozen=True)
class LockedRecord:
    """Metadata (and content) of a record locked for a revision-checked change."""

    id: uuid.UUID
    revision: int
    kind: str
    scope_path: str
    visibility: Visibility
    owner_subject: str
    serving: Serving
    content: Any  # the stored JSON as it is
    review_disposition: Disposition | None
    expires_at: datetime | None
    valid_to: datetime | None
    derived_from: list[uuid.UUID]
    deleted_at: datetime | None
    servable: bool


@dataclass(frozen=True)
class RecordStateRow:
    """Metadata (no content) and the current decision, whatever the serving state."""

    id: uuid.UUID
    revision: int
    kind: str
    scope_path: str
    visibility: Visibility
    owner_subject: str
    serving: Serving
    expires_at: datetime | None
    valid_to: datetime | None
    derived_from: list[uuid.UUID]
    deleted_at: datetime | None
    review_disposition: Disposition | None
    review_revision: int | None
    review_receipt_id: uuid.UUID | None
    receipt_disposition: str | None
    receipt_reviewer: str | None
    receipt_decided_at: datetime | None
    receipt_revision: int | None
    server_now: datetime


@dataclass(frozen=True)
class Revised:
    """A revision-checked change's result: the new revision (and content, unless deleted)."""

    revision: int
    content: Any = None


@dataclass(frozen=True)
class SourceNode:
    """A record or one of its transitive sources, for the eligibility diagnostic."""

    id: uuid.UUID
    serving: Serving
    review_disposition: Disposition | None
    expires_at: datetime | None
    valid_to: datetime | None
    derived_from: list[uuid.UUID] | None
    scope_path: str
    visibility: Visibility
    owner_subject: str
    server_now: datetime


@dataclass(frozen=True)
class NewEmbedding:
    created_at: datetime


@dataclass(frozen=True)
class NewReceipt:
    """A review decision's receipt as written (the database stamps decided_at)."""

    context_id: uuid.UUID
    id: uuid.UUID
    record_id: uuid.UUID
    revision: int
    disposition: str
    reviewer_subject: str
    key_id: uuid.UUID | None
    evidence_ref: str
    idempotency_key: str | None
    command_digest: str
    scope: dict[str, Any]


@dataclass(frozen=True)
class ReceiptRow:
    id: uuid.UUID
    record_id: uuid.UUID
    revision: int
    disposition: str
    reviewer_subject: str
    key_id: uuid.UUID
    evidence_ref: str
    idempotency_key: str | None
    command_digest: str
    scope: Any  # the stored JSON as it is
    decided_at: datetime


@dataclass(frozen=True)
class ReplayedReceipt(ReceiptRow):
    """A receipt found by idempotency key, with its record's scope (None: no such record)."""

    scope_path: str | None
    visibility: Visibility | None
    owner_subject: str | None


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
    provenance_rank: int,
    hold_judgement_id: uuid.UUID | None = None,
) -> NewRecord | None:
    """None when the id is taken; held (hidden until a reviewer decides) under
    `hold_judgement_id` when one is given."""
    return await fetch_one(
        conn,
        "insert_memory_record",
        NewRecord,
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
            "provenance_rank": provenance_rank,
            "hold_judgement_id": hold_judgement_id,
        },
    )


async def lock_record(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> LockedRecord | None:
    params = {"context_id": context_id, "id": id}
    return await fetch_one(conn, "lock_memory_record", LockedRecord, params)


async def record_state(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> RecordStateRow | None:
    params = {"context_id": context_id, "id": id}
    return await fetch_one(conn, "memory_record_state", RecordStateRow, params)


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
) -> Revised | None:
    return await fetch_one(
        conn,
        "update_memory_content",
        Revised,
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
) -> Revised | None:
    return await fetch_one(
        conn,
        "update_memory_expiry",
        Revised,
        {
            "context_id": context_id,
            "id": id,
            "expected_revision": expected_revision,
            "expires_at": expires_at,
        },
    )


async def delete_record(
    conn: Conn, *, context_id: uuid.UUID, id: uuid.UUID, expected_revision: int
) -> Revised | None:
    return await fetch_one(
        conn,
        "delete_memory_record",
        Revised,
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
    raise_rank: int = 0,
) -> Revised | None:
    return await fetch_one(
        conn,
        "apply_review",
        Revised,
        {
            "context_id": context_id,
            "id": id,
            "expected_revision": expected_revision,
            "stored_disposition": stored_disposition,
            "receipt_id": receipt_id,
            "raise_rank": raise_rank,
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
    cause: RevisionCause | None = None,
) -> None:
    """`cause` None: the one `op` implies (every op but `supersede` has one)."""
    await conn.execute(
        q("insert_memory_revision"),
        {
            "context_id": context_id,
            "record_id": record_id,
            "revision": revision,
            "op": op,
            "content": Jsonb(content) if content is not None else None,
            "actor_subject": actor_subject,
            "cause": cause,
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


async def insert_receipt(conn: Conn, receipt: NewReceipt) -> ReceiptRow:
    params = {**vars(receipt), "scope": Jsonb(receipt.scope)}
    row = await _one(conn, "insert_review_receipt", params)
    assert row is not None and receipt.key_id is not None  # key_id is NOT NULL: stored, so set
    return ReceiptRow(
        id=receipt.id,
        record_id=receipt.record_id,
        revision=receipt.revision,
        disposition=receipt.disposition,
        reviewer_subject=receipt.reviewer_subject,
        key_id=receipt.key_id,
        evidence_ref=receipt.evidence_ref,
        idempotency_key=receipt.idempotency_key,
        command_digest=receipt.command_digest,
        scope=receipt.scope,
        decided_at=row["decided_at"],
    )


async def receipt_by_key(
    conn: Conn, context_id: uuid.UUID, subject: str, idempotency_key: str
) -> ReplayedReceipt | None:
    return await fetch_one(
        conn,
        "receipt_by_idempotency_key",
        ReplayedReceipt,
        {
            "context_id": context_id,
            "reviewer_subject": subject,
            "idempotency_key": idempotency_key,
        },
    )


async def receipt_by_revision(
    conn: Conn, context_id: uuid.UUID, record_id: uuid.UUID, revision: int
) -> ReceiptRow | None:
    return await fetch_one(
        conn,
        "receipt_by_revision",
        ReceiptRow,
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
) -> NewEmbedding | None:
    """None when that revision already has a vector."""
    return await fetch_one(
        conn,
        "insert_memory_embedding",
        NewEmbedding,
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
) -> list[SourceNode]:
    params = {"context_id": context_id, "id": id, "max_depth": max_depth}
    return await fetch_all(conn, "memory_source_graph", SourceNode, params)
