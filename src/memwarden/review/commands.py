"""Memory commands: create, update and delete a note, each a revision in one transaction.

Content passes the ingest judge's input gate first, as a /facts write does (the same
`Gatekeeper`, after the same PII redaction): a deny leaves nothing anywhere, a fail is the
recorded 422, a warn is written and flagged in the review log, or held under on_warn=hold.
The gate runs before the command's transaction opens (no model call under a lock), after
the grant and revision checks, so a caller who may not write the record is never judged.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from memwarden.admin.settings_service import read_config
from memwarden.detectors.redaction import redact
from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.domain.provenance import rank_for
from memwarden.domain.scope import Scope
from memwarden.errors import Conflict, Erased, Forbidden, InvalidInput, NotFound, Unprocessable
from memwarden.gatekeeper import GateRequest, InputVerdict
from memwarden.review.access import require_any, require_record, to_scope
from memwarden.review.contract import CONTRACT_VERSION, CommandRequest, MemoryCommand
from memwarden.review.responses import CommandJudgement, CommandResult
from memwarden.services import Services
from memwarden.store import memory as store
from memwarden.store.audit import audit, change
from memwarden.store.db import Conn
from memwarden.store.memory import LockedRecord

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


@dataclass(frozen=True)
class Judged:
    """A command's content after the input gate: the text to store (redacted when the
    Context redacts) and the gate's verdict, whose review-log entry the command records."""

    text: str
    request: GateRequest
    verdict: InputVerdict


class HeldUpdate(Unprocessable):
    """A held value replaces nothing, and an update would replace the served revision."""

    code = "update_held"

    def __init__(self, reasons: tuple[str, ...]) -> None:
        super().__init__(
            "the judge would hold this content for review, and an update cannot be held "
            "(the current revision stays served): create a new record to have it held",
            field="command.content",
            extra={"reasons": list(reasons)},
        )


async def run_command(services: Services, caller: Caller, request: CommandRequest) -> CommandResult:
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
    judged = await _judge(services, caller, context_id, scope, cmd)
    async with services.db.transaction() as conn:
        hold: uuid.UUID | None = None
        entry: uuid.UUID | None = None
        if judged is not None and judged.verdict.pending is not None:
            (entry,) = await services.gatekeeper.record(
                conn, judged.request, [judged.verdict.pending]
            )
            hold = entry if judged.verdict.hold else None
        text = judged.text if judged is not None else None
        if cmd.op == "create":
            record_id, revision, kind = await _create(
                conn, caller, context_id, scope, cmd, text, hold
            )
        else:
            record_id, revision, kind = await _change(conn, caller, context_id, scope, cmd, text)
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
    result = CommandResult(
        contract_version=CONTRACT_VERSION,
        record_id=str(record_id),
        revision=revision,
        held=hold is not None,
    )
    if judged is not None:
        verdict = judged.verdict.verdict
        assert verdict in (None, "pass", "warn")  # the gate raises on fail and deny
        result.judgement = CommandJudgement(
            verdict=verdict,
            reasons=list(judged.verdict.reasons),
            judgement_id=str(entry) if entry else None,
        )
    return result


async def _judge(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    scope: Scope,
    cmd: MemoryCommand,
) -> Judged | None:
    """The input gate over the command's content (None when it carries none). Grants and
    the record's revision are checked first; the transaction checks them again."""
    if cmd.content is None:
        return None
    async with services.db.transaction() as conn:
        config = await read_config(conn, context_id)
        if cmd.op == "create":
            _may_create(caller, scope)
        else:
            assert cmd.record_id is not None
            _current(await store.lock_record(conn, context_id, cmd.record_id), caller, scope, cmd)
    text = redact(cmd.content).text if config.pii_redaction_enabled else cmd.content
    request = GateRequest(context_id, caller, config, "memory_command", scope, text)
    verdict = await services.gatekeeper.input_gate(request)  # raises on fail and deny
    if verdict.hold and cmd.op == "update":
        raise HeldUpdate(verdict.reasons)
    return Judged(text, request, verdict)


def _may_create(caller: Caller, scope: Scope) -> None:
    if not caller.can("memory_write", scope.path):
        raise Forbidden("needs memory_write covering the scope", code="missing_grant")


def _current(
    locked: LockedRecord | None, caller: Caller, scope: Scope, cmd: MemoryCommand
) -> LockedRecord:
    """The record a change applies to: in scope, granted, not gone, at the expected revision."""
    row = require_record(locked, scope, caller, "memory_write")
    if row.serving == "erased":
        raise Erased()
    if row.serving == "deleted":
        raise NotFound("memory record not found")
    if row.revision != cmd.expected_revision:
        raise stale(row.revision)
    if cmd.content is not None and row.kind != "note":
        raise InvalidInput("only note records take text content", field="command.content")
    return row


async def _create(
    conn: Conn,
    caller: Caller,
    context_id: uuid.UUID,
    scope: Scope,
    cmd: MemoryCommand,
    text: str | None,
    hold: uuid.UUID | None,
) -> tuple[uuid.UUID, int, str]:
    _may_create(caller, scope)
    assert text is not None
    record_id = cmd.record_id or new_id()
    content = {"text": text}
    row = await store.insert_note(
        conn,
        context_id=context_id,
        id=record_id,
        scope_path=scope.path,
        visibility=scope.visibility,
        subject=caller.subject,
        content=content,
        body=text,
        expires_at=_aware(cmd.expires_at),
        provenance_rank=int(rank_for("command")),
        hold_judgement_id=hold,
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
    conn: Conn,
    caller: Caller,
    context_id: uuid.UUID,
    scope: Scope,
    cmd: MemoryCommand,
    text: str | None,
) -> tuple[uuid.UUID, int, str]:
    assert cmd.record_id is not None and cmd.expected_revision is not None
    row = _current(await store.lock_record(conn, context_id, cmd.record_id), caller, scope, cmd)
    keys = {"context_id": context_id, "id": cmd.record_id}
    content: dict[str, Any] | None
    if cmd.op == "delete":
        done = await store.delete_record(conn, **keys, expected_revision=cmd.expected_revision)
        content = None
    elif text is not None:
        expires = _aware(cmd.expires_at) if "expires_at" in cmd.model_fields_set else row.expires_at
        done = await store.update_content(
            conn,
            **keys,
            expected_revision=cmd.expected_revision,
            content={"text": text},
            body=text,
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
