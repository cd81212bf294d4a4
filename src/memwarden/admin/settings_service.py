"""Read and partially update a Context's configuration."""

from __future__ import annotations

import uuid
from typing import Any

from memwarden.admin.access import require_manage
from memwarden.config import (
    ConfigInvalid,
    ConfigUnreadable,
    ContextConfig,
    apply_patch,
    dump_config,
    inactive_fields_set,
    load_config,
)
from memwarden.domain.grants import Caller
from memwarden.errors import InvalidInput, NotFound, Unavailable
from memwarden.store import admin as store
from memwarden.store.audit import audit
from memwarden.store.db import Conn, Database


async def read_config(conn: Conn, context_id: uuid.UUID) -> ContextConfig:
    """The configuration a write obeys; an unreadable one refuses the write (503)."""
    row = await store.get_context(conn, context_id)
    if row is None:
        raise NotFound("context not found")
    try:
        return load_config(row.config)
    except ConfigUnreadable as exc:
        raise Unavailable(
            "the Context's stored configuration cannot be read; writes are refused until it is "
            "fixed",
            code="config_unreadable",
        ) from exc


def config_answer(config: ContextConfig) -> ContextConfig:
    """The configuration as GET and PATCH answer it: every field set, defaults included
    (answers carry only the fields set, and a stored configuration is partial)."""
    return ContextConfig.model_validate(dump_config(config))


async def get_config(db: Database, caller: Caller, context_id: uuid.UUID) -> ContextConfig:
    require_manage(caller, context_id)
    async with db.connection() as conn:
        return config_answer(await read_config(conn, context_id))


async def patch_config(
    db: Database, caller: Caller, context_id: uuid.UUID, patch: Any
) -> ContextConfig:
    require_manage(caller, context_id)
    async with db.transaction() as conn:
        row = await store.get_context(conn, context_id, for_update=True)
        if row is None:
            raise NotFound("context not found")
        stored = row.config if isinstance(row.config, dict) else {}
        try:
            updated = apply_patch(stored, patch)
        except ConfigInvalid as exc:
            raise InvalidInput(exc.message, field=exc.field, code="invalid_config") from None
        await store.update_config(conn, context_id, dump_config(updated))
        await audit(
            conn,
            context_id=context_id,
            actor_subject=caller.subject,
            key_id=caller.key_id,
            action="config.update",
            target_kind="context",
            target_id=context_id,
        )
    return config_answer(updated)


async def inactive_fields_by_context(db: Database) -> list[dict[str, Any]]:
    """Per Context, the accepted fields it sets that have no effect yet (for `doctor`).

    A Context whose configuration cannot be read is left out: writes to it are refused
    until it is repaired, which is reported where it matters (503 `config_unreadable`).
    """
    async with db.connection() as conn:
        rows = await store.list_context_configs(conn)
    report: list[dict[str, Any]] = []
    for row in rows:
        try:
            fields = inactive_fields_set(load_config(row["config"]))
        except ConfigUnreadable:
            continue
        if fields:
            report.append({"context_id": str(row["id"]), "name": row["name"], "fields": fields})
    return report
