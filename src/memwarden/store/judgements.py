"""The review log, retained inputs and held content: the judge's SQL."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from memwarden.store.db import Conn
from memwarden.store.queries import q

Row = dict[str, Any]


async def insert_judgement(conn: Conn, entry: Row) -> None:
    await conn.execute(q("insert_judgement"), entry)


async def insert_retained(
    conn: Conn,
    *,
    context_id: uuid.UUID,
    judgement_id: uuid.UUID,
    route: str,
    payload: Any,
    principal_id: uuid.UUID,
    key_id: uuid.UUID,
    expires_at: datetime | None,
) -> None:
    await conn.execute(
        q("insert_retained_input"),
        {
            "context_id": context_id,
            "judgement_id": judgement_id,
            "route": route,
            "payload": Jsonb(payload),
            "principal_id": principal_id,
            "key_id": key_id,
            "expires_at": expires_at,
        },
    )


async def list_judgements(
    conn: Conn,
    context_id: uuid.UUID,
    *,
    verdict: str | None,
    gate: str | None,
    held: bool | None,
    before: uuid.UUID | None,
    limit: int,
) -> list[Row]:
    cur = await conn.execute(
        q("list_judgements"),
        {
            "context_id": context_id,
            "verdict": verdict,
            "gate": gate,
            "held": held,
            "before": before,
            "limit": limit,
        },
    )
    return await cur.fetchall()


async def get_judgement(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> Row | None:
    cur = await conn.execute(q("get_judgement"), {"context_id": context_id, "id": id})
    return await cur.fetchone()


async def lock_judgement(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> Row | None:
    cur = await conn.execute(q("lock_judgement"), {"context_id": context_id, "id": id})
    return await cur.fetchone()


async def set_override(
    conn: Conn,
    context_id: uuid.UUID,
    id: uuid.UUID,
    *,
    verdict: str,
    subject: str,
    replay_state: str,
) -> None:
    await conn.execute(
        q("set_judgement_override"),
        {
            "context_id": context_id,
            "id": id,
            "verdict": verdict,
            "subject": subject,
            "replay_state": replay_state,
        },
    )


async def lock_retained(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> Row | None:
    cur = await conn.execute(q("lock_retained_input"), {"context_id": context_id, "id": id})
    return await cur.fetchone()


async def peek_retained(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> Row | None:
    """The kept request if it can still be replayed, without locking it."""
    cur = await conn.execute(q("peek_retained_input"), {"context_id": context_id, "id": id})
    return await cur.fetchone()


async def consume_retained(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> bool:
    cur = await conn.execute(q("consume_retained_input"), {"context_id": context_id, "id": id})
    return cur.rowcount == 1


async def decide_hold(
    conn: Conn, context_id: uuid.UUID, id: uuid.UUID, decision: str
) -> Row | None:
    cur = await conn.execute(
        q("decide_hold"), {"context_id": context_id, "id": id, "decision": decision}
    )
    return await cur.fetchone()


async def held_records(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> list[Row]:
    cur = await conn.execute(q("held_records"), {"context_id": context_id, "id": id})
    return await cur.fetchall()


async def release_held(
    conn: Conn, context_id: uuid.UUID, id: uuid.UUID
) -> tuple[int, int, list[Row]]:
    """Held -> live: turns, chunks, then records (each at a new revision, without a vector)."""
    params = {"context_id": context_id, "id": id}
    turns = (await conn.execute(q("release_held_turns"), params)).rowcount
    chunks = (await conn.execute(q("release_held_chunks"), params)).rowcount
    cur = await conn.execute(q("release_held_records"), params)
    return turns, chunks, await cur.fetchall()


async def remove_held(
    conn: Conn, context_id: uuid.UUID, id: uuid.UUID
) -> tuple[int, int, list[Row]]:
    """A rejected hold's records (with revisions and vectors), chunks and turns, deleted."""
    params = {"context_id": context_id, "id": id}
    cur = await conn.execute(q("remove_held_records"), params)
    records = await cur.fetchall()
    chunks = (await conn.execute(q("remove_held_chunks"), params)).rowcount
    turns = (await conn.execute(q("remove_held_turns"), params)).rowcount
    return turns, chunks, records


async def judgements_by_ids(conn: Conn, context_id: uuid.UUID, ids: list[uuid.UUID]) -> list[Row]:
    cur = await conn.execute(q("judgements_by_ids"), {"context_id": context_id, "ids": ids})
    return await cur.fetchall()


async def judgements_for_dry_run(
    conn: Conn, context_id: uuid.UUID, verdicts: list[str], limit: int
) -> list[Row]:
    cur = await conn.execute(
        q("judgements_for_dry_run"),
        {"context_id": context_id, "verdicts": verdicts, "limit": limit},
    )
    return await cur.fetchall()
