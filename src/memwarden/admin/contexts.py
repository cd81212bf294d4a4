"""Create and list Contexts (tenant memory spaces)."""

from __future__ import annotations

import uuid
from typing import Any

from memwarden.admin.access import require_admin, require_context
from memwarden.admin.keys import issue_key
from memwarden.admin.responses import ContextInfo, ContextList, CreatedContext
from memwarden.config import ContextConfig, dump_config
from memwarden.domain.grants import CAPABILITIES, Caller
from memwarden.domain.ids import new_id
from memwarden.errors import InvalidInput, NotFound
from memwarden.paging import id_cursor, split_page
from memwarden.store import admin as store
from memwarden.store.audit import audit
from memwarden.store.db import Database
from memwarden.text import require_plain

MAX_PAGE = 1000


def _public(row: store.ContextRow | store.ContextSummary) -> dict[str, Any]:
    return {"id": str(row.id), "name": row.name, "created_at": row.created_at.isoformat()}


async def create_context(
    db: Database, caller: Caller, name: str, *, owner: str | None = None
) -> CreatedContext:
    """A new Context; with `owner`, also its first key with every grant (`owner_key`, its
    secret shown this once), in the same transaction: HTTP asks for it with `owner_subject`, the
    CLI always does. Without it the Context has no key until an admin issues one."""
    require_admin(caller)
    name = require_plain(name, "name").strip()
    if not name or len(name) > 200:
        raise InvalidInput("name must be 1 to 200 characters", field="name")
    async with db.transaction() as conn:
        row = await store.insert_context(conn, new_id(), name, dump_config(ContextConfig()))
        await audit(
            conn,
            context_id=row.id,
            actor_subject=caller.subject,
            key_id=caller.key_id,
            action="context.create",
            target_kind="context",
            target_id=row.id,
        )
        if owner is None:
            return CreatedContext(**_public(row))
        key = await issue_key(conn, caller, row.id, subject=owner, grants=list(CAPABILITIES))
    return CreatedContext(**_public(row), owner_key=key)


async def list_contexts(
    db: Database, caller: Caller, *, cursor: str | None = None, limit: int = 100
) -> ContextList:
    """Oldest first, one page: `{"contexts", "next_cursor"}`."""
    require_admin(caller)
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidInput(f"limit must be between 1 and {MAX_PAGE}", field="limit")
    after = id_cursor(cursor)
    async with db.connection() as conn:
        rows = await store.list_contexts(conn, limit + 1, after)
    page, next_cursor = split_page(rows, limit, lambda r: str(r.id))
    return ContextList(contexts=[ContextInfo(**_public(r)) for r in page], next_cursor=next_cursor)


async def get_context(db: Database, caller: Caller, context_id: uuid.UUID) -> ContextInfo:
    require_context(caller, context_id)
    async with db.connection() as conn:
        row = await store.get_context(conn, context_id)
    if row is None:
        raise NotFound("context not found")
    return ContextInfo(**_public(row))
