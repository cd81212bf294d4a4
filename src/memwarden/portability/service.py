"""Export and import requests: who may, what they cover (docs/portability.md#who-may).

Export: a Context key with memory_read exports what it may read (its read prefixes; others'
private records never); a key with grant:manage over the whole Context exports everything.
A subject other than the caller's own, sessions of others, `include=keys` and
`include=judgements` need that manager. Import: into a scope the key may write
(memory_write covering it) for mem0 and text files, written as the caller; this service's
own export restores other principals' records and review decisions, so it needs
grant:manage over the whole Context. The request row, its items and its audit event commit
before the job is queued, so GET /imports/{id} always finds what the 202 named.
"""

from __future__ import annotations

import contextlib
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from procrastinate.exceptions import AlreadyEnqueued

from memwarden.admin.access import require_context, require_key
from memwarden.domain.grants import Caller, effective_grants
from memwarden.domain.ids import new_id
from memwarden.domain.scope import ScopeError, Visibility, normalise_path
from memwarden.domain.speaker import SPEAKER_PREFIX
from memwarden.errors import Forbidden, InvalidInput, NotFound
from memwarden.portability import formats
from memwarden.portability.responses import OUTCOMES, ImportJob, ImportStarted
from memwarden.services import Services
from memwarden.store import admin as admin_store
from memwarden.store import portability as store
from memwarden.store.audit import audit
from memwarden.store.db import Conn

RUN_TASK = "memwarden:import_run"
QUEUE = "imports"
MANAGE = "grant:manage"
MAX_SOURCE_DIR = 1000
Include = Literal["keys", "judgements"]


def _manager(caller: Caller) -> bool:
    return caller.can_whole_context(MANAGE)


def _scope(path: str | None, field: str) -> str | None:
    if path is None:
        return None
    try:
        return normalise_path(path)
    except ScopeError as exc:
        raise InvalidInput(str(exc), field=field) from None


@dataclass(frozen=True)
class ExportRequest:
    subject: str | None = None
    scopes: tuple[str, ...] = ()
    sessions: bool = False
    include: tuple[Include, ...] = ()


def export_filter(
    caller: Caller, context_id: uuid.UUID, request: ExportRequest
) -> store.ExportFilter:
    """403 unless the caller may export what the request names; the filter it covers."""
    require_key(caller)
    require_context(caller, context_id)
    if not caller.can_any("memory_read"):
        raise Forbidden("export needs memory_read", code="missing_grant")
    manager = _manager(caller)
    if request.subject is not None and request.subject != caller.subject and not manager:
        raise Forbidden(
            "exporting another subject's data needs grant:manage over the whole Context",
            code="missing_grant",
            field="subject",
        )
    if request.include and not manager:
        raise Forbidden(
            "include=keys and include=judgements need grant:manage over the whole Context",
            code="missing_grant",
            field="include",
        )
    subject = request.subject
    return store.ExportFilter(
        context_id=context_id,
        everything=manager,
        prefixes=caller.prefixes("memory_read"),
        reader=caller.subject,
        scopes=tuple(dict.fromkeys(_scope(s, "scope") or "" for s in request.scopes)),
        subject=subject,
        speaker_norm=f"{SPEAKER_PREFIX}principal:{subject}" if subject else None,
    )


async def audit_export(services: Services, caller: Caller, context_id: uuid.UUID) -> None:
    async with services.db.transaction() as conn:
        await audit(
            conn,
            context_id=context_id,
            actor_subject=caller.subject,
            key_id=caller.key_id,
            action="memory.export",
            target_kind="context",
            target_id=context_id,
        )


@dataclass(frozen=True)
class ImportRequest:
    body: bytes
    source_dir: str
    format: formats.Format | Literal["auto"] = "auto"
    scope: str | None = None
    visibility: Visibility = "shared"


def _check_import(caller: Caller, context_id: uuid.UUID, request: ImportRequest) -> str:
    require_key(caller)
    require_context(caller, context_id)
    source = request.source_dir.strip()
    if not source or len(source) > MAX_SOURCE_DIR or "\x00" in source:
        raise InvalidInput(
            f"source_dir names the directory imported from (1 to {MAX_SOURCE_DIR} characters)",
            field="source_dir",
        )
    scope = _scope(request.scope, "scope") or ""
    if not caller.can("memory_write", scope):
        raise Forbidden("needs memory_write covering the import scope", code="missing_grant")
    return source


async def enqueue(services: Services, context_id: uuid.UUID, import_id: uuid.UUID) -> None:
    """One job per import; jobs of one import never run side by side (the lock)."""
    name = f"import:{import_id}"
    deferrer = services.jobs.configure_task(RUN_TASK, queue=QUEUE, lock=name, queueing_lock=name)
    with contextlib.suppress(AlreadyEnqueued):
        await deferrer.defer_async(context_id=str(context_id), import_id=str(import_id))


async def request_import(
    services: Services, caller: Caller, context_id: uuid.UUID, request: ImportRequest
) -> ImportStarted:
    source = _check_import(caller, context_id, request)
    fmt, items = formats.read(request.body, request.format)
    if fmt == "memwarden" and not _manager(caller):
        raise Forbidden(
            "importing a memwarden export restores other principals' records and review "
            "decisions: it needs grant:manage over the whole Context",
            code="missing_grant",
        )
    import_id = new_id()
    assert caller.key_id is not None  # require_key: a Context key
    async with services.db.transaction() as conn:
        await store.insert_import(
            conn,
            {
                "context_id": context_id,
                "id": import_id,
                "format": fmt,
                "source_dir": source,
                "scope_path": _scope(request.scope, "scope") or "",
                "visibility": request.visibility,
                "total": len(items),
                "requested_by": caller.subject,
                "key_id": caller.key_id,
            },
        )
        await store.insert_items(conn, context_id, import_id, items)
        await audit(
            conn,
            context_id=context_id,
            actor_subject=caller.subject,
            key_id=caller.key_id,
            action="memory.import",
            target_kind="import",
            target_id=import_id,
        )
    await enqueue(services, context_id, import_id)
    return ImportStarted(importId=str(import_id), status="queued", format=fmt, total=len(items))


def render(row: store.ImportRow) -> ImportJob:
    return ImportJob(
        importId=str(row.id),
        format=row.format,
        sourceDir=row.source_dir,
        status=row.status,
        total=row.total,
        processed=row.processed,
        counts={**dict.fromkeys(OUTCOMES, 0), **row.counts},
        error=row.error,
        requestedBy=row.requested_by,
        createdAt=row.created_at,
        startedAt=row.started_at,
        finishedAt=row.finished_at,
    )


async def get_import(
    services: Services, caller: Caller, context_id: uuid.UUID, import_id: uuid.UUID
) -> ImportJob:
    """Where an import stands: its progress and counts per outcome (no content). A key
    reads its own imports (it needs memory_write, as asking for one does); a manager of the
    whole Context every import."""
    require_key(caller)
    require_context(caller, context_id)
    if not caller.can_any("memory_write"):
        raise Forbidden("reading an import needs memory_write", code="missing_grant")
    async with services.db.connection() as conn:
        row = await store.get_import(conn, context_id, import_id)
    if row is None or (row.key_id != caller.key_id and not _manager(caller)):
        raise NotFound("import not found", code="import_not_found")
    return render(row)


async def caller_of_key(conn: Conn, key_id: uuid.UUID) -> Caller | None:
    """The caller an import runs as, from the key that asked for it, as it stands now: a
    revoked or expired key (or one whose principal lost its grants) stops the import."""
    row = await admin_store.key_for_auth(conn, key_id)
    if row is None or row.revoked_at is not None:
        return None
    if row.expires_at is not None and row.expires_at <= datetime.now(UTC):
        return None
    split = [tuple(g.split("|", 1)) for g in row.principal_grants]
    grants = effective_grants(split, row.capabilities, row.scope_prefix)  # type: ignore[arg-type]
    return Caller(
        context_id=row.context_id,
        principal_id=row.principal_id,
        subject=row.subject,
        key_id=row.id,
        grants=grants,
    )
