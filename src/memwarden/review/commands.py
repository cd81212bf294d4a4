"""Memory commands: create, update and delete a note, each a revision in one transaction."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.domain.provenance import rank_for
from memwarden.domain.scope import Scope
from memwarden.errors import Conflict, Erased, Forbidden, InvalidInput, NotFound
from memwarden.review.access import require_any, require_record, to_scope
from memwarden.review.contract import CONTRACT_VERSION, CommandRequest, MemoryCommand
from memwarden.review.responses import CommandResult
from memwarden.store import memory as store
from memwarden.store.audit import audit, change
from memwarden.store.db import Conn, Database

ENTRY_TYPES = {"create": "created", "update": "updated", "delete": "deleted"}


def _aware(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    value = value if value.tzinfo else value.replace(tzinfo=UTC)
    if value <= datetime.now(UTC):
        raise InvalidInput("expires_at must be in the future", field="command.expires_at")
    return value


def _require(cmd: MemoryCommand, *names: str) -> None:
    for name in names:
        if getattr(cmd, name) is None:
            raise InvalidInput(f"{cmd.op} needs {name}", field=f"command.{name}")


def _forbid(cmd: MemoryCommand, *names: str) -> None:
    for name in names:
        if name in cmd.model_fields_set:
            raise InvalidInput(f"{cmd.op} does not take {name}", field=f"command.{name}")


def stale(current: int, field: str = "command.expected_revision") -> Conflict:
    """409 naming the field the caller sent the revision in."""
    name = field.rsplit(".", 1)[-1]
    return Conflict(
        f"{name} is not the current revision",
        code="stale_revision",
        field=field,
        extra={"current_revision": current},
    )


async def run_command(db: Database, caller: Caller, request: CommandRequest) -> CommandResult:
    context_id = require_any(caller, "memory_write")
    scope, cmd = to_scope(request.scope), request.command
    if cmd.op == "create":
        _require(cmd, "content")
        _forbid(cmd, "expected_revision")
    elif cmd.op == "update":
        _require(cmd, "record_id", "expected_revision")
        if cmd.content is None and "expires_at" not in cmd.model_fields_set:
            raise InvalidInput("update needs content or expires_at", field="command.content")
    else:
        _require(cmd, "record_id", "expected_revision")
        _forbid(cmd, "content", "expires_at")
    _aware(cmd.expires_at)  # 400 before any transaction
    async with db.transaction() as conn:
        if cmd.op == "create":
            record_id, revision, kind = await _create(conn, caller, context_id, scope, cmd)
        else:
            record_id, revision, kind = await _change(conn, caller, context_id, scope, cmd)
        await change(
            conn,
            context_id=context_id,
            record_id=record_id,
            revision=revision,
            kind=kind,
            entry_type=ENTRY_TYPES[cmd.op],
        )
        await audit(
            conn,
            context_id=context_id,
            actor_subject=caller.subject,
            key_id=caller.key_id,
            action=f"memory.{cmd.op}",
            target_kind="memory_record",
            target_id=record_id,
        )
    return CommandResult(
        contract_version=CONTRACT_VERSION, record_id=str(record_id), revision=revision
    )


async def _create(
    conn: Conn, caller: Caller, context_id: uuid.UUID, scope: Scope, cmd: MemoryCommand
) -> tuple[uuid.UUID, int, str]:
    if not caller.can("memory_write", scope.path):
        raise Forbidden("needs memory_write covering the scope", code="missing_grant")
    assert cmd.content is not None
    record_id = cmd.record_id or new_id()
    content = {"text": cmd.content}
    row = await store.insert_note(
        conn,
        context_id=context_id,
        id=record_id,
        scope_path=scope.path,
        visibility=scope.visibility,
        subject=caller.subject,
        content=content,
        body=cmd.content,
        expires_at=_aware(cmd.expires_at),
        provenance_rank=int(rank_for("command")),
    )
    if row is None:
        raise Conflict("a memory record with this id exists", code="record_exists")
    await store.insert_revision(
        conn,
        context_id=context_id,
        record_id=record_id,
        revision=row.revision,
        op="create",
        content=content,
        actor_subject=caller.subject,
    )
    return record_id, row.revision, row.kind


async def _change(
    conn: Conn, caller: Caller, context_id: uuid.UUID, scope: Scope, cmd: MemoryCommand
) -> tuple[uuid.UUID, int, str]:
    assert cmd.record_id is not None and cmd.expected_revision is not None
    locked = await store.lock_record(conn, context_id, cmd.record_id)
    row = require_record(locked, scope, caller, "memory_write")
    if row.serving == "erased":
        raise Erased()
    if row.serving == "deleted":
        raise NotFound("memory record not found")
    if row.revision != cmd.expected_revision:
        raise stale(row.revision)
    keys = {"context_id": context_id, "id": cmd.record_id}
    content: dict[str, Any] | None
    if cmd.op == "delete":
        done = await store.delete_record(conn, **keys, expected_revision=cmd.expected_revision)
        content = None
    elif cmd.content is not None:
        if row.kind != "note":
            raise InvalidInput("only note records take text content", field="command.content")
        expires = _aware(cmd.expires_at) if "expires_at" in cmd.model_fields_set else row.expires_at
        done = await store.update_content(
            conn,
            **keys,
            expected_revision=cmd.expected_revision,
            content={"text": cmd.content},
            body=cmd.content,
            expires_at=expires,
        )
        content = done.content if done else None
    else:
        done = await store.update_expiry(
            conn, **keys, expected_revision=cmd.expected_revision, expires_at=_aware(cmd.expires_at)
        )
        content = done.content if done else None
    if done is None:
        raise stale(row.revision)
    await store.insert_revision(
        conn,
        context_id=context_id,
        record_id=cmd.record_id,
        revision=done.revision,
        op=cmd.op,
        content=content,
        actor_subject=caller.subject,
    )
    return cmd.record_id, done.revision, row.kind
