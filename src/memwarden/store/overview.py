"""Counts for the dashboard's overview (SQL in queries/overview.sql)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date

from memwarden.store.db import Conn
from memwarden.store.rows import fetch_all


@dataclass(frozen=True)
class KindCount:
    kind: str
    serving: str
    records: int


@dataclass(frozen=True)
class RecallDay:
    day: date
    hits: int
    records: int


@dataclass(frozen=True)
class VerdictDay:
    day: date
    verdict: str
    reason: str
    entries: int


async def verdicts_per_day(conn: Conn, context_id: uuid.UUID, since: date) -> list[VerdictDay]:
    return await fetch_all(
        conn, "overview_verdicts_per_day", VerdictDay, {"context_id": context_id, "since": since}
    )


async def memory_counts(conn: Conn, context_id: uuid.UUID) -> list[KindCount]:
    return await fetch_all(conn, "overview_memory_counts", KindCount, {"context_id": context_id})


async def recall_per_day(conn: Conn, context_id: uuid.UUID, since: date) -> list[RecallDay]:
    return await fetch_all(
        conn, "overview_recall_per_day", RecallDay, {"context_id": context_id, "since": since}
    )
