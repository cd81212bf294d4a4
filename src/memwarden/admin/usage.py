"""Token usage of a Context per stage and model, over the last `days` days (today included)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from memwarden.admin.access import require_manage
from memwarden.admin.responses import UsageAnswer
from memwarden.domain.grants import Caller
from memwarden.errors import InvalidInput
from memwarden.store import audit as store
from memwarden.store import extraction as extraction_store
from memwarden.store.db import Database

MAX_DAYS = 366
_COUNTS = ("calls", "prompt_tokens", "completion_tokens")
_EXTRACTION = ("windows_run", "windows_failed", "dropped_chars", "dropped_bytes")


async def usage_breakdown(
    db: Database, caller: Caller, context_id: uuid.UUID, *, days: int = 30
) -> UsageAnswer:
    """Needs grant:manage over the whole Context (or the admin credential)."""
    require_manage(caller, context_id)
    if not 1 <= days <= MAX_DAYS:
        raise InvalidInput(f"days must be between 1 and {MAX_DAYS}", field="days")
    since = (datetime.now(UTC) - timedelta(days=days - 1)).date()
    async with db.connection() as conn:
        rows = await store.usage_breakdown(conn, context_id, since)
        extraction = await extraction_store.usage_since(conn, context_id, since)
    stages: dict[str, dict[str, Any]] = {}
    for r in rows:
        stage = stages.setdefault(r["stage"], {**dict.fromkeys(_COUNTS, 0), "models": {}})
        for k in _COUNTS:
            stage[k] += r[k]
        stage["models"][r["model"]] = {k: r[k] for k in _COUNTS}
    total = sum(s["prompt_tokens"] + s["completion_tokens"] for s in stages.values())
    return UsageAnswer.model_validate(
        {
            "since": since.isoformat(),
            "stages": stages,
            "total_tokens": total,
            "extraction": _extraction(extraction),
        }
    )


def _extraction(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Extraction windows run and failed, and text dropped past the window limit, in all
    and per source kind (`turn`, `document`)."""
    by_source = {r["source_kind"]: {k: r[k] for k in _EXTRACTION} for r in rows}
    totals = {k: sum(s[k] for s in by_source.values()) for k in _EXTRACTION}
    return {**totals, "by_source": by_source}
