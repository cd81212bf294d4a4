"""Create and list Contexts (tenant memory spaces)."""

from __future__ import annotations

import uuid
from typing import Any

from memwarden.admin.access import require_admin, require_context
from memwarden.config import ContextConfig, dump_config
from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.errors import InvalidInput, NotFound
from memwarden.store import admin as store
from memwarden.store.audit import audit
from memwarden.store.db import Database


def _public(row: store.ContextRow | store.ContextSummary) -> dict[str, Any]:
    return {"id": str(row.id), "name": row.name, "created_at": row.created_at.isoformat()}


async def create_context(db: Database, caller: Caller, name: str) -> dict[str, Any]:
    require_admin(caller)
    name = name.strip()
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
    return _public(row)


async def list_contexts(db: Database, caller: Caller, limit: int = 100) -> list[dict[str, Any]]:
    require_admin(caller)
    async with db.connection() as conn:
        rows = await store.list_contexts(conn, limit)
    return [_public(r) for r in rows]


async def get_context(db: Database, caller: Caller, context_id: uuid.UUID) -> dict[str, Any]:
    require_context(caller, context_id)
    async with db.connection() as conn:
        row = await store.get_context(conn, context_id)
    if row is None:
        raise NotFound("context not found")
    return _public(row)
