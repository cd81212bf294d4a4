"""Audit events, the change feed and usage: written inside the caller's transaction."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import date

from memwarden.domain.ids import new_id
from memwarden.store.db import Conn
from memwarden.store.queries import q


async def audit(
    conn: Conn,
    *,
    context_id: uuid.UUID | None,
    actor_subject: str,
    key_id: uuid.UUID | None,
    action: str,
    target_kind: str | None = None,
    target_id: uuid.UUID | None = None,
) -> None:
    """Actor, action and target ids only: an audit event never holds content."""
    await conn.execute(
        q("insert_audit_event"),
        {
            "context_id": context_id,
            "id": new_id(),
            "actor_subject": actor_subject,
            "key_id": key_id,
            "action": action,
            "target_kind": target_kind,
            "target_id": target_id,
        },
    )


async def list_audit(
    conn: Conn,
    context_id: uuid.UUID,
    limit: int,
    before: uuid.UUID | None,
    action: str | None = None,
) -> list[dict]:
    cur = await conn.execute(
        q("list_audit_events"),
        {"context_id": context_id, "limit": limit, "before": before, "action": action},
    )
    return await cur.fetchall()


async def change(
    conn: Conn,
    *,
    context_id: uuid.UUID,
    record_id: uuid.UUID | None,
    revision: int | None,
    kind: str,
    entry_type: str,
) -> int:
    """Append to the Context's feed; the per-Context lock keeps seq in commit order."""
    await conn.execute(q("lock_change_feed"), {"context_id": context_id})
    cur = await conn.execute(
        q("insert_change_event"),
        {
            "context_id": context_id,
            "record_id": record_id,
            "revision": revision,
            "kind": kind,
            "entry_type": entry_type,
        },
    )
    row = await cur.fetchone()
    assert row is not None
    return int(row["seq"])


async def list_changes(
    conn: Conn,
    context_id: uuid.UUID,
    after: int,
    limit: int,
    *,
    prefixes: Sequence[str],
    subject: str,
) -> list[dict]:
    """Events after `after` on records under `prefixes` (private ones only for `subject`)."""
    cur = await conn.execute(
        q("list_change_events"),
        {
            "context_id": context_id,
            "after": after,
            "limit": limit,
            "prefixes": list(prefixes),
            "subject": subject,
        },
    )
    return await cur.fetchall()


async def book_usage(
    conn: Conn,
    *,
    context_id: uuid.UUID,
    stage: str,
    model: str,
    prompt_tokens: int,
    completion_tokens: int,
) -> None:
    await conn.execute(
        q("book_usage"),
        {
            "context_id": context_id,
            "stage": stage,
            "model": model,
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
        },
    )


async def usage_breakdown(conn: Conn, context_id: uuid.UUID, since: date) -> list[dict]:
    cur = await conn.execute(q("usage_breakdown"), {"context_id": context_id, "since": since})
    return await cur.fetchall()


async def tokens_since(conn: Conn, context_id: uuid.UUID, since: date) -> int:
    cur = await conn.execute(q("usage_total_since"), {"context_id": context_id, "since": since})
    row = await cur.fetchone()
    return int(row["tokens"]) if row else 0
