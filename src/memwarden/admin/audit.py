"""The audit log of a Context: who did what to which id, newest first, never content."""

from __future__ import annotations

import uuid
from typing import Any

from memwarden.admin.access import require_manage
from memwarden.admin.responses import AuditEvent, AuditPage
from memwarden.domain.grants import Caller
from memwarden.errors import InvalidInput
from memwarden.paging import id_cursor, split_page
from memwarden.store import audit as store
from memwarden.store.db import Database

MAX_PAGE = 500
MAX_ACTION = 100


def _event(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(row["id"]),
        "actor": row["actor_subject"],
        "key_id": str(row["key_id"]) if row["key_id"] else None,
        "action": row["action"],
        "target_kind": row["target_kind"],
        "target_id": str(row["target_id"]) if row["target_id"] else None,
        "at": row["created_at"].isoformat(),
    }


async def list_audit(
    db: Database,
    caller: Caller,
    context_id: uuid.UUID,
    *,
    cursor: str | None = None,
    limit: int = 50,
    action: str | None = None,
) -> AuditPage:
    """Needs grant:manage over the whole Context (or the admin credential). `action` keeps
    the events whose action starts with it (`hygiene.` or `hygiene.resolve`), in the query,
    so a page is full while matching events remain."""
    require_manage(caller, context_id)
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidInput(f"limit must be between 1 and {MAX_PAGE}", field="limit")
    if action is not None and not 1 <= len(action) <= MAX_ACTION:
        raise InvalidInput(f"action must be 1 to {MAX_ACTION} characters", field="action")
    before = id_cursor(cursor)
    async with db.connection() as conn:
        rows = await store.list_audit(conn, context_id, limit + 1, before, action)
    page, next_cursor = split_page(rows, limit, lambda r: str(r["id"]))
    return AuditPage(events=[AuditEvent(**_event(r)) for r in page], next_cursor=next_cursor)
