"""A Context at a glance: memory records by kind and serving state, review-log verdicts
per day by reason code, and recall traffic per day. Counts only, never content;
grant:manage over the whole Context (or the admin token), like usage and the audit log."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from memwarden.admin.access import require_manage
from memwarden.domain.grants import Caller
from memwarden.errors import InvalidInput
from memwarden.store import overview as store
from memwarden.store.db import Database

MAX_DAYS = 366


async def context_overview(
    db: Database, caller: Caller, context_id: uuid.UUID, *, days: int = 30
) -> dict[str, Any]:
    require_manage(caller, context_id)
    if not 1 <= days <= MAX_DAYS:
        raise InvalidInput(f"days must be between 1 and {MAX_DAYS}", field="days")
    since = (datetime.now(UTC) - timedelta(days=days - 1)).date()
    async with db.connection() as conn:
        counts = await store.memory_counts(conn, context_id)
        traffic = await store.recall_per_day(conn, context_id, since)
        verdicts = await store.verdicts_per_day(conn, context_id, since)
    memories: dict[str, dict[str, int]] = {}
    for row in counts:
        memories.setdefault(row.kind, {})[row.serving] = row.records
    return {
        "since": since.isoformat(),
        "memories": memories,
        "verdicts": [
            {
                "day": v.day.isoformat(),
                "verdict": v.verdict,
                "reason": v.reason,
                "entries": v.entries,
            }
            for v in verdicts
        ],
        "recall": [
            {"day": r.day.isoformat(), "hits": r.hits, "records": r.records} for r in traffic
        ],
    }
