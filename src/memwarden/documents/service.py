"""Document use cases: upload (queues processing), read status, list, delete."""

from __future__ import annotations

import contextlib
import uuid
from pathlib import Path
from typing import Any

from procrastinate.exceptions import AlreadyEnqueued

from memwarden.admin.access import require_capability
from memwarden.documents.formats import CONTENT_TYPES, UnsupportedFormat, detect
from memwarden.documents.responses import (
    DocumentDeleted,
    DocumentExtraction,
    DocumentList,
    DocumentResponse,
)
from memwarden.documents.storage import FileStore
from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.domain.scope import ScopeError, Visibility, normalise_path
from memwarden.errors import AppError, Forbidden, InvalidInput, NotFound, UnsupportedMediaType
from memwarden.services import Services
from memwarden.store import documents as store
from memwarden.store.audit import audit, change
from memwarden.store.db import Conn

MAX_FILENAME = 255
PROCESS_TASK = "memwarden:process_document"
# What an upload refused for a full queue is told to wait: the queue drains as a worker
# processes documents (seconds to minutes each), and each retry sends the whole file again.
QUEUE_RETRY_AFTER_S = 30


class DocumentQueueFull(AppError):
    """The Context's documents waiting for a worker hold as many bytes as they may."""

    status = 429
    code = "document_queue_full"
    retry_after_s = QUEUE_RETRY_AFTER_S


def file_store(services: Services) -> FileStore:
    return FileStore(services.settings.files_dir)


def _visible(caller: Caller, row: dict[str, Any], capability: str) -> bool:
    if not caller.can(capability, row["scope_path"]):
        return False
    return row["visibility"] == "shared" or row["owner_subject"] == caller.subject


def public(row: dict[str, Any]) -> DocumentResponse:
    out = DocumentResponse(
        id=str(row["id"]),
        filename=row["filename"],
        contentType=row["content_type"],
        sizeBytes=row["size_bytes"],
        status=row["status"],
        failureCode=row.get("failure_code"),
        failureReasons=list(row.get("failure_reasons") or []),
        scope=row["scope_path"] or None,
        visibility=row["visibility"],
        createdAt=row["created_at"].isoformat(),
    )
    if "chunks" in row:
        out.chunks = row["chunks"]
    if row.get("gist"):  # written by the gist pass (docs/passes.md)
        out.gist = row["gist"]
    if "extraction_windows" in row:
        windows, failed = row["extraction_windows"], len(row["extraction_failed"] or [])
        out.extraction = DocumentExtraction(
            windows=windows,
            windowsFailed=failed,
            # No window's reply could be used: searchable as chunks only, reprocessable.
            chunkOnly=windows > 0 and failed >= windows,
        )
    return out


async def upload(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    *,
    filename: str,
    declared_type: str | None,
    data: bytes,
    scope: str | None,
    visibility: Visibility,
) -> DocumentResponse:
    require_capability(caller, context_id, "memory_write")
    if caller.principal_id is None:  # the admin token: a document needs an owning principal
        raise Forbidden("uploads need a Context key", code="context_key_required")
    try:
        path = normalise_path(scope or "")
    except ScopeError as exc:
        raise InvalidInput(str(exc), field="scope") from None
    if not caller.can("memory_write", path):
        raise Forbidden("the key cannot write to this scope", code="missing_grant")
    name = (filename or "upload").replace("/", "_").replace("\\", "_")[:MAX_FILENAME]
    name = "".join(ch if ch.isprintable() else "_" for ch in name)  # no NUL, controls, surrogates
    if not data:
        raise InvalidInput("the file is empty", field="file")
    try:
        fmt = detect(name, declared_type, data)
    except UnsupportedFormat as exc:
        raise UnsupportedMediaType(str(exc)) from None
    document_id = new_id()
    files = file_store(services)
    stored: Path | None = None
    try:
        async with services.db.transaction() as conn:
            await _hold_queue_room(services, conn, context_id, len(data))
            stored = files.save(context_id, document_id, data)
            row = await store.insert(
                conn,
                context_id=context_id,
                id=document_id,
                principal_id=caller.principal_id,
                filename=name,
                content_type=CONTENT_TYPES[fmt],
                size_bytes=len(data),
                storage_path=str(stored),
                scope_path=path,
                visibility=visibility,
                owner_subject=caller.subject,
            )
            await audit(
                conn,
                context_id=context_id,
                actor_subject=caller.subject,
                key_id=caller.key_id,
                action="document.upload",
                target_kind="document",
                target_id=document_id,
            )
    except BaseException:
        if stored is not None:
            files.delete(str(stored))
        raise
    # After commit, so the worker always finds the row; a document left pending by a
    # crash in between is queued again by the periodic requeue task.
    await enqueue(services, context_id, document_id)
    return public({**row, "scope_path": path, "visibility": visibility})


async def _hold_queue_room(
    services: Services, conn: Conn, context_id: uuid.UUID, size: int
) -> None:
    """Refuse an upload that would take the Context's waiting documents past
    `MEMWARDEN_CONTEXT_MAX_PENDING_DOCUMENT_BYTES`, before its original is written. The
    sum is read under the Context's queue lock, held until this upload commits. A document
    alone is always accepted, so an upload as large as the route allows can pass."""
    budget = services.settings.context_max_pending_document_bytes
    if not budget:
        return
    pending = await store.pending_bytes(conn, context_id)
    if pending and pending + size > budget:
        raise DocumentQueueFull(
            "this Context has as many document bytes waiting to be processed as it may; "
            "retry once some are processed",
            extra={
                "limit": budget,
                "pending_bytes": pending,
                "retry_after_s": QUEUE_RETRY_AFTER_S,
            },
        )


async def enqueue(services: Services, context_id: uuid.UUID, document_id: uuid.UUID) -> None:
    """Queue processing once: a job already waiting for this document is enough."""
    deferrer = services.jobs.configure_task(
        PROCESS_TASK, queue="documents", queueing_lock=f"document:{document_id}"
    )
    with contextlib.suppress(AlreadyEnqueued):
        await deferrer.defer_async(context_id=str(context_id), document_id=str(document_id))


async def get(
    services: Services, caller: Caller, context_id: uuid.UUID, document_id: uuid.UUID
) -> DocumentResponse:
    require_capability(caller, context_id, "memory_read")
    async with services.db.connection() as conn:
        row = await store.get(conn, context_id, document_id)
    if row is None or not _visible(caller, row, "memory_read"):
        raise NotFound("document not found")
    return public(row)


async def list_documents(
    services: Services,
    caller: Caller,
    context_id: uuid.UUID,
    limit: int,
    before: uuid.UUID | None,
) -> DocumentList:
    require_capability(caller, context_id, "memory_read")
    async with services.db.connection() as conn:
        rows = await store.list_recent(conn, context_id, limit, before)
    visible = [public(r) for r in rows if _visible(caller, r, "memory_read")]
    cursor = str(rows[-1]["id"]) if len(rows) == limit else None
    return DocumentList(documents=visible, next_cursor=cursor)


async def delete(
    services: Services, caller: Caller, context_id: uuid.UUID, document_id: uuid.UUID
) -> DocumentDeleted:
    require_capability(caller, context_id, "memory_write")
    async with services.db.transaction() as conn:
        row = await store.get(conn, context_id, document_id, for_update=True)
        if row is None or not _visible(caller, row, "memory_write"):
            raise NotFound("document not found")
        retired = await store.delete(conn, context_id, document_id)
        for record in retired:
            await change(
                conn,
                context_id=context_id,
                record_id=record["id"],
                revision=record["revision"],
                kind="memory",
                entry_type="deleted",
            )
        await audit(
            conn,
            context_id=context_id,
            actor_subject=caller.subject,
            key_id=caller.key_id,
            action="document.delete",
            target_kind="document",
            target_id=document_id,
        )
    file_store(services).delete(row["storage_path"])
    return DocumentDeleted(id=str(document_id), deleted=True, recordsRetired=len(retired))
