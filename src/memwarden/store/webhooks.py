"""Webhook subscriptions and their deliveries (the outbox the migration's triggers fill)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memwarden.store.db import Conn
from memwarden.store.queries import q
from memwarden.store.rows import fetch_all, fetch_one


@dataclass(frozen=True)
class SubscriptionRow:
    """A subscription as answered: never its secret."""

    context_id: uuid.UUID
    id: uuid.UUID
    url: str
    events: list[str]
    include_content: bool
    description: str
    key_id: uuid.UUID | None
    created_by: str
    status: str
    paused_reason: str | None
    consecutive_failures: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class DeliveryRow:
    n: int
    id: uuid.UUID
    event_id: str
    event_type: str
    feed_seq: int | None
    status: str
    attempts: int
    last_status_code: int | None
    last_error: str | None
    last_attempt_at: datetime | None
    next_attempt_at: datetime | None
    delivered_at: datetime | None
    occurred_at: datetime
    created_at: datetime


@dataclass(frozen=True)
class Claimed:
    """A delivery claimed for one attempt, with what sending it needs."""

    context_id: uuid.UUID
    id: uuid.UUID
    n: int
    subscription_id: uuid.UUID
    event_id: str
    event_type: str
    feed_seq: int | None
    data: dict[str, Any]
    occurred_at: datetime
    attempts: int
    url: str
    secret: str
    include_content: bool
    key_id: uuid.UUID | None


@dataclass(frozen=True)
class Content:
    revision: int
    content: Any


def _ids(context_id: uuid.UUID, id: uuid.UUID) -> dict[str, Any]:
    return {"context_id": context_id, "id": id}


async def insert(conn: Conn, row: dict[str, Any]) -> SubscriptionRow:
    found = await fetch_one(conn, "webhooks_insert", SubscriptionRow, row)
    assert found is not None
    return found


async def page(
    conn: Conn, context_id: uuid.UUID, after: uuid.UUID | None, limit: int
) -> list[SubscriptionRow]:
    params = {"context_id": context_id, "after": after, "limit": limit}
    return await fetch_all(conn, "webhooks_list", SubscriptionRow, params)


async def get(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> SubscriptionRow | None:
    return await fetch_one(conn, "webhooks_get", SubscriptionRow, _ids(context_id, id))


async def lock(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> bool:
    cur = await conn.execute(q("webhooks_lock"), _ids(context_id, id))
    return await cur.fetchone() is not None


async def update(conn: Conn, values: dict[str, Any]) -> SubscriptionRow:
    found = await fetch_one(conn, "webhooks_update", SubscriptionRow, values)
    assert found is not None
    return found


async def resume_deliveries(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> None:
    await conn.execute(q("webhooks_resume_deliveries"), _ids(context_id, id))


async def delete(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> bool:
    cur = await conn.execute(q("webhooks_delete"), _ids(context_id, id))
    return await cur.fetchone() is not None


async def set_secret(conn: Conn, context_id: uuid.UUID, id: uuid.UUID, secret: str) -> bool:
    cur = await conn.execute(q("webhooks_set_secret"), {**_ids(context_id, id), "secret": secret})
    return await cur.fetchone() is not None


async def deliveries(
    conn: Conn, context_id: uuid.UUID, id: uuid.UUID, before: int | None, limit: int
) -> list[DeliveryRow]:
    params = {**_ids(context_id, id), "before": before, "limit": limit}
    return await fetch_all(conn, "webhooks_deliveries", DeliveryRow, params)


async def due_contexts(conn: Conn) -> list[uuid.UUID]:
    """The Contexts with a delivery due now, the longest waiting first."""
    cur = await conn.execute(q("webhooks_due_contexts"))
    return [row["context_id"] for row in await cur.fetchall()]


async def claim_due(conn: Conn, context_id: uuid.UUID, limit: int, lease_s: float) -> list[Claimed]:
    params = {"context_id": context_id, "limit": limit, "lease_s": lease_s}
    return await fetch_all(conn, "webhooks_claim_due", Claimed, params)


async def record_attempt(
    conn: Conn,
    delivery: Claimed,
    *,
    status: str,
    status_code: int | None,
    error: str | None,
    retry_in_s: float | None,
) -> None:
    await conn.execute(
        q("webhooks_record_attempt"),
        {
            **_ids(delivery.context_id, delivery.id),
            "status": status,
            "status_code": status_code,
            "error": error,
            "retry_in_s": retry_in_s,
        },
    )


async def release(conn: Conn, delivery: Claimed, delay_s: float = 0.0) -> None:
    params = {**_ids(delivery.context_id, delivery.id), "delay_s": delay_s}
    await conn.execute(q("webhooks_release"), params)


async def count_attempt(
    conn: Conn, context_id: uuid.UUID, id: uuid.UUID, *, delivered: bool
) -> tuple[str, int] | None:
    """The subscription's status and consecutive failures after this attempt."""
    cur = await conn.execute(
        q("webhooks_count_attempt"), {**_ids(context_id, id), "delivered": delivered}
    )
    row = await cur.fetchone()
    return (row["status"], int(row["consecutive_failures"])) if row else None


async def pause(conn: Conn, context_id: uuid.UUID, id: uuid.UUID, reason: str) -> bool:
    """True when this call paused it (it was active)."""
    cur = await conn.execute(q("webhooks_pause"), {**_ids(context_id, id), "reason": reason})
    return await cur.fetchone() is not None


async def readable_content(
    conn: Conn,
    context_id: uuid.UUID,
    record_id: uuid.UUID,
    *,
    prefixes: Sequence[str],
    subject: str,
) -> Content | None:
    params = {
        "context_id": context_id,
        "record_id": record_id,
        "prefixes": list(prefixes),
        "subject": subject,
    }
    return await fetch_one(conn, "webhooks_readable_content", Content, params)


async def purge_settled(conn: Conn, keep_days: int, limit: int) -> int:
    cur = await conn.execute(q("webhooks_purge_settled"), {"keep_days": keep_days, "limit": limit})
    return cur.rowcount
