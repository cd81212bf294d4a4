"""Erasure requests: checked, stored and queued (`run.execute` does the work), read back.

Who may erase: a Context key with grant:manage covering everything the target names (a key
narrowed to a prefix erases only inside it; a subject or an end user only with the whole
Context). The admin token administers and touches no memory, erasure included. A key
narrowed to a prefix reads back only erasures it asked for or of a scope inside it; any other id,
unknown ones included, is 403 for it. The request row and its audit
event (`memory.erase`, target the erasure id, never content) commit before the job is
queued, so `GET .../erasures/{id}` always finds what the 202 named.
"""

from __future__ import annotations

import contextlib
import uuid

from procrastinate.exceptions import AlreadyEnqueued

from memwarden.admin.access import require_context, require_key
from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.domain.speaker import SPEAKER_PREFIX
from memwarden.erasure.contract import ErasureBody
from memwarden.erasure.responses import COUNT_KINDS, Erasure, ErasureCounts, ErasureStarted
from memwarden.errors import Forbidden, NotFound
from memwarden.services import Services
from memwarden.store import erasure as store
from memwarden.store.audit import audit
from memwarden.store.db import Conn

RUN_TASK = "memwarden:erasure_run"
QUEUE = "erasure"
MANAGE = "grant:manage"


def _require_manager(caller: Caller, context_id: uuid.UUID) -> None:
    require_key(caller)
    require_context(caller, context_id)
    if not caller.can_any(MANAGE):
        raise Forbidden("erasure needs grant:manage", code="missing_grant")


def _require_covers(caller: Caller, scope_path: str) -> None:
    if not caller.can(MANAGE, scope_path):
        raise Forbidden("needs grant:manage covering what the erasure names", code="missing_grant")


async def _check_target(
    conn: Conn, caller: Caller, context_id: uuid.UUID, body: ErasureBody
) -> None:
    kind = body.kind
    if kind in ("subject", "speaker"):
        if not caller.can_whole_context(MANAGE):
            raise Forbidden(
                "erasing a subject or a speaker needs grant:manage over the whole Context",
                code="missing_grant",
            )
    elif kind == "scope":
        _require_covers(caller, body.scopePrefix or "")
    elif kind == "records":
        ids = list(dict.fromkeys(body.recordIds or []))
        scopes = await store.record_scopes(conn, context_id, ids)
        missing = [str(i) for i in ids if i not in scopes]
        if missing:
            raise NotFound(
                "memory record not found", code="record_not_found", extra={"recordIds": missing}
            )
        for path in scopes.values():
            _require_covers(caller, path)
    else:
        item = body.sessionId if kind == "session" else body.documentId
        assert item is not None
        found = await store.scope_of(conn, context_id, kind, item)
        if found is None:
            raise NotFound(f"{kind} not found", code=f"{kind}_not_found")
        _require_covers(caller, found)


async def enqueue(services: Services, context_id: uuid.UUID, erasure_id: uuid.UUID) -> None:
    """One job per erasure; jobs of one erasure never run side by side (the lock)."""
    name = f"erasure:{erasure_id}"
    deferrer = services.jobs.configure_task(RUN_TASK, queue=QUEUE, lock=name, queueing_lock=name)
    with contextlib.suppress(AlreadyEnqueued):
        await deferrer.defer_async(context_id=str(context_id), erasure_id=str(erasure_id))


async def request_erasure(
    services: Services, caller: Caller, context_id: uuid.UUID, body: ErasureBody
) -> ErasureStarted:
    _require_manager(caller, context_id)
    erasure_id = new_id()
    async with services.db.transaction() as conn:
        await _check_target(conn, caller, context_id, body)
        await store.insert(
            conn, context_id, erasure_id, body.kind, body.target(), caller.subject, caller.key_id
        )
        await audit(
            conn,
            context_id=context_id,
            actor_subject=caller.subject,
            key_id=caller.key_id,
            action="memory.erase",
            target_kind="erasure",
            target_id=erasure_id,
        )
    await enqueue(services, context_id, erasure_id)
    return ErasureStarted(erasureId=str(erasure_id), status="queued")


def render(row: store.ErasureRow) -> Erasure:
    return Erasure(
        erasureId=str(row.id),
        targetKind=row.target_kind,
        status=row.status,
        counts=ErasureCounts.model_validate({**dict.fromkeys(COUNT_KINDS, 0), **row.counts}),
        error=row.error,
        requestedBy=row.requested_by,
        createdAt=row.created_at,
        startedAt=row.started_at,
        finishedAt=row.finished_at,
    )


async def get_erasure(
    services: Services, caller: Caller, context_id: uuid.UUID, erasure_id: uuid.UUID
) -> Erasure:
    """Where an erasure stands (ids and counts: no content)."""
    _require_manager(caller, context_id)
    async with services.db.connection() as conn:
        row = await store.get(conn, context_id, erasure_id)
    if not caller.can_whole_context(MANAGE):
        path = row.target.get("scopePrefix") if row is not None else None
        own = row is not None and row.key_id is not None and row.key_id == caller.key_id
        if not (own or (isinstance(path, str) and caller.can(MANAGE, path))):
            raise Forbidden(
                "a key narrowed to a scope reads only its own erasures and those inside it",
                code="missing_grant",
            )
    if row is None:
        raise NotFound("erasure not found", code="erasure_not_found")
    return render(row)


def target_params(
    context_id: uuid.UUID, kind: str, target: dict[str, object], principal: uuid.UUID | None
) -> dict[str, object]:
    """The parameters every pick takes (queries/erasure.sql), from a stored target."""
    params: dict[str, object] = {
        "context_id": context_id,
        "ids": [],
        "subject": None,
        "principal_id": None,
        "turn_speaker": None,
        "speaker_norm": None,
        "prefix": None,
        "session_id": None,
        "document_id": None,
    }
    if kind == "records":
        params["ids"] = [uuid.UUID(str(i)) for i in target["recordIds"]]  # type: ignore[attr-defined]
    elif kind == "subject":
        params["subject"] = target["subject"]
        params["principal_id"] = principal
        params["speaker_norm"] = f"{SPEAKER_PREFIX}principal:{target['subject']}"
    elif kind == "speaker":
        params["turn_speaker"] = f"user:{target['speaker']}"
        params["speaker_norm"] = f"{SPEAKER_PREFIX}user:{target['speaker']}"
    elif kind == "scope":
        params["prefix"] = target["scopePrefix"]
    elif kind == "session":
        params["session_id"] = uuid.UUID(str(target["sessionId"]))
    elif kind == "document":
        params["document_id"] = uuid.UUID(str(target["documentId"]))
    return params
