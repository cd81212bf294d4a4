"""The review log, retained inputs and held content: the judge's SQL."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from memwarden.store.db import Conn
from memwarden.store.queries import q
from memwarden.store.rows import fetch_all, fetch_one

Row = dict[str, Any]


@dataclass(frozen=True)
class Judgement:
    """A review-log entry: the judgement table's columns (its queries read `j.*`)."""

    context_id: uuid.UUID
    id: uuid.UUID
    gate: str
    verdict: str
    reasons: list[str]
    source: str
    scope_path: str
    visibility: str
    excerpt: str
    row_count: int
    principal_id: uuid.UUID | None
    key_id: uuid.UUID | None
    turn_id: uuid.UUID | None
    document_id: uuid.UUID | None
    held: bool
    hold_decision: str | None
    hold_decided_at: datetime | None
    override_verdict: str | None
    override_subject: str | None
    overridden_at: datetime | None
    replay_state: str | None
    created_at: datetime
    retained: bool = False  # whether its redacted input is kept for replay (list/get only)


@dataclass(frozen=True)
class RetainedInput:
    context_id: uuid.UUID
    judgement_id: uuid.UUID
    route: str
    payload: Any  # the redacted request body as stored
    principal_id: uuid.UUID
    key_id: uuid.UUID
    expires_at: datetime | None
    consumed_at: datetime | None
    created_at: datetime


@dataclass(frozen=True)
class MovedRecord:
    """A held record as a decision finds it (held), releases it (at its new revision) or
    deletes it."""

    id: uuid.UUID
    kind: str
    revision: int
    content: Any
    body: str


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
    source: str | None = None,
) -> list[Judgement]:
    return await fetch_all(
        conn,
        "list_judgements",
        Judgement,
        {
            "context_id": context_id,
            "verdict": verdict,
            "gate": gate,
            "held": held,
            "source": source,
            "before": before,
            "limit": limit,
        },
    )


async def get_judgement(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> Judgement | None:
    return await fetch_one(conn, "get_judgement", Judgement, {"context_id": context_id, "id": id})


async def lock_judgement(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> Judgement | None:
    return await fetch_one(conn, "lock_judgement", Judgement, {"context_id": context_id, "id": id})


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


async def lock_retained(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> RetainedInput | None:
    params = {"context_id": context_id, "id": id}
    return await fetch_one(conn, "lock_retained_input", RetainedInput, params)


async def peek_retained(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> RetainedInput | None:
    """The kept request if it can still be replayed, without locking it."""
    params = {"context_id": context_id, "id": id}
    return await fetch_one(conn, "peek_retained_input", RetainedInput, params)


async def consume_retained(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> bool:
    cur = await conn.execute(q("consume_retained_input"), {"context_id": context_id, "id": id})
    return cur.rowcount == 1


async def decide_hold(
    conn: Conn, context_id: uuid.UUID, id: uuid.UUID, decision: str
) -> Judgement | None:
    params = {"context_id": context_id, "id": id, "decision": decision}
    return await fetch_one(conn, "decide_hold", Judgement, params)


async def held_records(conn: Conn, context_id: uuid.UUID, id: uuid.UUID) -> list[MovedRecord]:
    """The records a hold keeps back, as they are (what an approval embeds beforehand)."""
    params = {"context_id": context_id, "id": id}
    return await fetch_all(conn, "held_records", MovedRecord, params)


async def release_held(
    conn: Conn, context_id: uuid.UUID, id: uuid.UUID
) -> tuple[int, int, list[MovedRecord]]:
    """Held -> live: turns, chunks, then records and the held entities they name (each at
    a new revision, without a vector)."""
    params = {"context_id": context_id, "id": id}
    turns = (await conn.execute(q("release_held_turns"), params)).rowcount
    chunks = (await conn.execute(q("release_held_chunks"), params)).rowcount
    records = await fetch_all(conn, "release_held_records", MovedRecord, params)
    records += await fetch_all(conn, "release_named_entities", MovedRecord, params)
    return turns, chunks, records


async def remove_held(
    conn: Conn, context_id: uuid.UUID, id: uuid.UUID
) -> tuple[int, int, list[MovedRecord]]:
    """A rejected hold's records (with revisions and vectors), chunks and turns, deleted;
    its entities too, unless another record names them (another hold's: moved under it)."""
    params = {"context_id": context_id, "id": id}
    records = await fetch_all(conn, "remove_held_records", MovedRecord, params)
    await conn.execute(q("relink_held_entities"), params)
    records += await fetch_all(conn, "remove_held_entities", MovedRecord, params)
    chunks = (await conn.execute(q("remove_held_chunks"), params)).rowcount
    turns = (await conn.execute(q("remove_held_turns"), params)).rowcount
    return turns, chunks, records


async def judgements_by_ids(
    conn: Conn, context_id: uuid.UUID, ids: list[uuid.UUID]
) -> list[Judgement]:
    params = {"context_id": context_id, "ids": ids}
    return await fetch_all(conn, "judgements_by_ids", Judgement, params)


async def judgements_for_dry_run(
    conn: Conn, context_id: uuid.UUID, verdicts: list[str], limit: int, max_skipped: int
) -> list[Judgement]:
    """The newest `limit` input-gate entries and the row-gate entries among them."""
    params = {
        "context_id": context_id,
        "verdicts": verdicts,
        "limit": limit,
        "max_skipped": max_skipped,
    }
    return await fetch_all(conn, "judgements_for_dry_run", Judgement, params)
