"""Background passes' rows: runs, watermarks and each pass's inputs (queries/passes.sql)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memwarden.store.db import Conn
from memwarden.store.queries import q
from memwarden.store.rows import fetch_one

Row = dict[str, Any]


@dataclass(frozen=True)
class PassRun:
    id: uuid.UUID
    stage: str
    trigger: str
    status: str
    inputs: int
    written: int
    dropped: int
    held: int
    error_code: str | None
    requested_by: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


async def _all(conn: Conn, name: str, params: Mapping[str, Any]) -> list[Row]:
    cur = await conn.execute(q(name), dict(params))
    return await cur.fetchall()


async def insert_run(
    conn: Conn, context_id: uuid.UUID, run_id: uuid.UUID, stage: str, trigger: str, by: str
) -> None:
    await conn.execute(
        q("passes_insert_run"),
        {
            "context_id": context_id,
            "id": run_id,
            "stage": stage,
            "trigger": trigger,
            "requested_by": by,
        },
    )


async def get_run(conn: Conn, context_id: uuid.UUID, run_id: uuid.UUID) -> PassRun | None:
    return await fetch_one(
        conn, "passes_get_run", PassRun, {"context_id": context_id, "id": run_id}
    )


async def start_run(conn: Conn, context_id: uuid.UUID, run_id: uuid.UUID) -> Row | None:
    rows = await _all(conn, "passes_start_run", {"context_id": context_id, "id": run_id})
    return rows[0] if rows else None


async def finish_run(
    conn: Conn,
    context_id: uuid.UUID,
    run_id: uuid.UUID,
    status: str,
    counts: Mapping[str, int],
    error_code: str | None,
) -> None:
    await conn.execute(
        q("passes_finish_run"),
        {
            "context_id": context_id,
            "id": run_id,
            "status": status,
            "error_code": error_code,
            **{k: counts.get(k, 0) for k in ("inputs", "written", "dropped", "held")},
        },
    )


async def open_run(conn: Conn, context_id: uuid.UUID, stage: str) -> bool:
    rows = await _all(conn, "passes_open_run", {"context_id": context_id, "stage": stage})
    return bool(rows)


async def watermarks(conn: Conn, context_id: uuid.UUID, stage: str) -> dict[str, str]:
    rows = await _all(conn, "passes_watermarks", {"context_id": context_id, "stage": stage})
    return {r["unit"]: r["fingerprint"] for r in rows}


async def set_watermark(
    conn: Conn,
    context_id: uuid.UUID,
    stage: str,
    unit: str,
    fingerprint: str,
    run_id: uuid.UUID | None,
) -> None:
    await conn.execute(
        q("passes_set_watermark"),
        {
            "context_id": context_id,
            "stage": stage,
            "unit": unit,
            "fingerprint": fingerprint,
            "run_id": run_id,
        },
    )


async def contexts(conn: Conn) -> list[Row]:
    """Every Context's id and configuration."""
    return await _all(conn, "passes_contexts", {})


async def last_change(conn: Conn, context_id: uuid.UUID) -> Row | None:
    """The Context's newest change-feed entry (`seq`, `last_change`), None before its first."""
    rows = await _all(conn, "passes_last_change", {"context_id": context_id})
    return rows[0] if rows else None


async def idle_session_turns(conn: Conn, context_id: uuid.UUID, idle_s: float) -> list[Row]:
    return await _all(
        conn, "passes_idle_session_turns", {"context_id": context_id, "idle_s": idle_s}
    )


async def turn_records(
    conn: Conn, context_id: uuid.UUID, turn_ids: list[uuid.UUID]
) -> list[uuid.UUID]:
    """The ids of the facts extracted from these turns that no later write superseded."""
    rows = await _all(conn, "passes_turn_records", {"context_id": context_id, "turn_ids": turn_ids})
    return [r["id"] for r in rows]


async def entity_facts_of(conn: Conn, context_id: uuid.UUID, entity_id: uuid.UUID) -> list[Row]:
    """The entity's serving attributes, relations and actions, from it or naming it."""
    return await _all(
        conn, "passes_merged_entity_facts", {"context_id": context_id, "entity_id": entity_id}
    )


async def long_turns(conn: Conn, context_id: uuid.UUID, min_chars: int) -> list[Row]:
    return await _all(conn, "passes_long_turns", {"context_id": context_id, "min_chars": min_chars})


async def documents(conn: Conn, context_id: uuid.UUID) -> list[Row]:
    return await _all(conn, "passes_documents", {"context_id": context_id})


async def set_document_gist(
    conn: Conn, context_id: uuid.UUID, document_id: uuid.UUID, gist: str
) -> None:
    await conn.execute(
        q("passes_set_document_gist"), {"context_id": context_id, "id": document_id, "gist": gist}
    )


async def entity_facts(conn: Conn, context_id: uuid.UUID) -> list[Row]:
    return await _all(conn, "passes_entity_facts", {"context_id": context_id})


async def entities(conn: Conn, context_id: uuid.UUID) -> list[Row]:
    return await _all(conn, "passes_entities", {"context_id": context_id})


async def facts(conn: Conn, context_id: uuid.UUID, limit: int) -> list[Row]:
    return await _all(conn, "passes_facts", {"context_id": context_id, "limit": limit})


async def insert_conflict(
    conn: Conn,
    context_id: uuid.UUID,
    conflict_id: uuid.UUID,
    record_a: uuid.UUID,
    record_b: uuid.UUID,
    confidence: float,
    judge_model: str | None,
) -> None:
    await conn.execute(
        q("passes_insert_conflict"),
        {
            "context_id": context_id,
            "id": conflict_id,
            "record_a": record_a,
            "record_b": record_b,
            "confidence": confidence,
            "judge_model": judge_model,
        },
    )


async def insert_merge(
    conn: Conn,
    context_id: uuid.UUID,
    conflict_id: uuid.UUID,
    gone: uuid.UUID,
    kept: uuid.UUID,
    confidence: float,
    judge_model: str,
    run_id: uuid.UUID,
) -> None:
    await conn.execute(
        q("passes_insert_merge"),
        {
            "context_id": context_id,
            "id": conflict_id,
            "record_a": gone,
            "record_b": kept,
            "confidence": confidence,
            "judge_model": judge_model,
            "run_id": run_id,
        },
    )


async def decided_pairs(conn: Conn, context_id: uuid.UUID) -> set[frozenset[uuid.UUID]]:
    """Pairs a person decided, each as the set of its two records."""
    rows = await _all(conn, "passes_decided_pairs", {"context_id": context_id})
    return {frozenset((r["lo"], r["hi"])) for r in rows}


async def stale_runs(conn: Conn, queued_s: float, running_s: float) -> list[Row]:
    return await _all(conn, "passes_stale_runs", {"queued_s": queued_s, "running_s": running_s})


async def interrupt_run(conn: Conn, context_id: uuid.UUID, run_id: uuid.UUID) -> None:
    await conn.execute(q("passes_interrupt_run"), {"context_id": context_id, "id": run_id})


async def attributes(conn: Conn, context_id: uuid.UUID) -> list[Row]:
    return await _all(conn, "passes_attributes", {"context_id": context_id})
