"""The change feed, audit log and usage breakdown."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import APIRouter, Depends, Query

from memwarden.admin.access import require_manage
from memwarden.api.deps import caller, services
from memwarden.domain.grants import Caller
from memwarden.errors import Forbidden
from memwarden.services import Services
from memwarden.store import audit as store

router = APIRouter(tags=["feed"])


@router.get("/api/v1/memory/changes")
async def changes(
    after: int = Query(0, ge=0),
    limit: int = Query(100, ge=1, le=1000),
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> dict[str, Any]:
    """Ordered per Context; the tenant is the key's. Entries carry ids, never content."""
    if who.context_id is None:
        raise Forbidden("the change feed is read with a Context key")
    if not (who.can_any("memory_read") or who.can_any("memory_review")):
        raise Forbidden("needs memory_read or memory_review", code="missing_grant")
    async with svc.db.connection() as conn:
        rows = await store.list_changes(conn, who.context_id, after, limit)
    entries = [
        {
            "seq": r["seq"],
            "record_id": str(r["record_id"]) if r["record_id"] else None,
            "revision": r["revision"],
            "kind": r["kind"],
            "entry_type": r["entry_type"],
            "at": r["created_at"].isoformat(),
        }
        for r in rows
    ]
    cursor = entries[-1]["seq"] if entries else after
    return {"changes": entries, "next_cursor": cursor, "has_more": len(entries) == limit}


@router.get("/api/v1/{context_id}/audit")
async def audit_log(
    context_id: uuid.UUID,
    limit: int = Query(50, ge=1, le=500),
    before: uuid.UUID | None = None,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> dict[str, Any]:
    require_manage(who, context_id)
    async with svc.db.connection() as conn:
        rows = await store.list_audit(conn, context_id, limit, before)
    events = [
        {
            "id": str(r["id"]),
            "actor": r["actor_subject"],
            "key_id": str(r["key_id"]) if r["key_id"] else None,
            "action": r["action"],
            "target_kind": r["target_kind"],
            "target_id": str(r["target_id"]) if r["target_id"] else None,
            "at": r["created_at"].isoformat(),
        }
        for r in rows
    ]
    next_cursor = events[-1]["id"] if len(events) == limit else None
    return {"events": events, "next_cursor": next_cursor}


@router.get("/api/v1/{context_id}/usage")
async def usage(
    context_id: uuid.UUID,
    days: int = Query(30, ge=1, le=366),
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> dict[str, Any]:
    require_manage(who, context_id)
    since = (datetime.now(UTC) - timedelta(days=days - 1)).date()
    async with svc.db.connection() as conn:
        rows = await store.usage_breakdown(conn, context_id, since)
    stages: dict[str, dict[str, Any]] = {}
    for r in rows:
        stage = stages.setdefault(
            r["stage"], {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "models": {}}
        )
        for k in ("calls", "prompt_tokens", "completion_tokens"):
            stage[k] += r[k]
        stage["models"][r["model"]] = {
            k: r[k] for k in ("calls", "prompt_tokens", "completion_tokens")
        }
    total = sum(s["prompt_tokens"] + s["completion_tokens"] for s in stages.values())
    return {"since": since.isoformat(), "stages": stages, "total_tokens": total}
