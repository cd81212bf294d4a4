"""The erasure job: a target's content replaced by tombstones, batch by batch.

Each batch is one transaction that erases up to `BATCH` items and adds what it did to the
request's counts, so a run that dies mid-way leaves every batch whole; the job retried
after its worker died (jobs/recovery.py) or queued again by `resume_open` picks what is
left, because every pick skips what is already erased. Order: the facts the target names,
records derived from erased material (again after entities: a summary of a summary), the
entities it names (one another reader's fact still names stays), then turns and their
chunks, documents (the original on disk first), review-log excerpts and retained inputs.
Afterwards the in-process chat cache is dropped and the touched tables are vacuumed.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import structlog

from memwarden.documents.storage import FileStore
from memwarden.erasure.service import enqueue, target_params
from memwarden.services import Services
from memwarden.store import erasure as store
from memwarden.store.db import Conn

log = structlog.get_logger(__name__)

BATCH = 500
"""Items per transaction: short enough that no write waits long on an erasure's locks."""
STALE_OPEN_S = 120.0
"""An erasure still queued or running this long with no job alive is queued again."""

Apply = Callable[[Conn, list[uuid.UUID]], Awaitable[dict[str, int]]]


async def _batches(
    services: Services,
    ids: tuple[uuid.UUID, uuid.UUID],
    name: str,
    params: dict[str, Any],
    apply: Apply,
    *,
    until_none: bool = False,
) -> None:
    """Batches of `erasure_pick_<name>` walking ids upwards. `until_none`: walk again from
    the start after a walk that erased something (records derived from a record erased
    behind the walk), until one finds nothing."""
    context_id, erasure_id = ids
    after, found = store.FIRST, False
    while True:
        async with services.db.transaction() as conn:
            picked = await store.pick(conn, name, params, BATCH, after)
            if picked:
                counts = await apply(conn, picked)
                await store.add_counts(conn, context_id, erasure_id, counts)
        if picked:
            after, found = picked[-1], True
            continue
        if not (until_none and found):
            return
        after, found = store.FIRST, False


def _records(context_id: uuid.UUID, actor: str, kind: str) -> Apply:
    async def apply(conn: Conn, picked: list[uuid.UUID]) -> dict[str, int]:
        counts = await store.tombstone_records(conn, context_id, picked, actor)
        counts[kind] = counts.pop("_records", 0)
        return counts

    return apply


def _remove_files(files: FileStore, context_id: uuid.UUID, doc: uuid.UUID, path: str | None) -> int:
    removed = 0
    for candidate in {str(files.path_for(context_id, doc)), *([path] if path else [])}:
        try:
            if Path(candidate).exists():
                files.delete(candidate)
                removed += 1
        except ValueError:  # a stored path outside the file store: not ours to remove
            log.warning("erasure_file_outside_store", document_id=str(doc))
    return removed


async def execute(services: Services, context_id: uuid.UUID, erasure_id: uuid.UUID) -> str:
    """The job: the erasure to its end (one already done or failed is skipped)."""
    async with services.db.transaction() as conn:
        started = await store.start(conn, context_id, erasure_id)
        if started is None:
            return "skipped"
        kind, target = started
        principal = (
            await store.principal_of(conn, context_id, str(target["subject"]))
            if kind == "subject"
            else None
        )
        resolved = await store.resolve(conn, target_params(context_id, kind, target, principal))
    try:
        await _erase(services, context_id, erasure_id, resolved)
    except Exception:
        log.exception("erasure_failed", erasure_id=str(erasure_id))
        async with services.db.transaction() as conn:
            await store.finish(conn, context_id, erasure_id, "failed", "internal_error")
        return "failed"
    async with services.db.connection() as conn:
        await store.vacuum(conn)
    async with services.db.transaction() as conn:
        await store.set_counts(conn, context_id, erasure_id, {"sessions": resolved.sessions})
        await store.finish(conn, context_id, erasure_id, "done", None)
    row = await _row(services, context_id, erasure_id)
    log.info("erasure_done", erasure_id=str(erasure_id), counts=row.counts if row else {})
    return "done"


async def _row(
    services: Services, context_id: uuid.UUID, erasure_id: uuid.UUID
) -> store.ErasureRow | None:
    async with services.db.connection() as conn:
        return await store.get(conn, context_id, erasure_id)


async def _erase(
    services: Services, context_id: uuid.UUID, erasure_id: uuid.UUID, resolved: store.Resolved
) -> None:
    ids = (context_id, erasure_id)
    params = resolved.params
    actor = f"erasure:{erasure_id}"
    derived = _records(context_id, actor, "derived_records")
    await _batches(services, ids, "facts", params, _records(context_id, actor, "records"))
    await _batches(services, ids, "derived", params, derived, until_none=True)
    await _batches(services, ids, "entities", params, _records(context_id, actor, "records"))
    await _batches(services, ids, "derived", params, derived, until_none=True)

    async def turns(conn: Conn, picked: list[uuid.UUID]) -> dict[str, int]:
        return await store.tombstone_turns(conn, context_id, picked)

    await _batches(services, ids, "turns", params, turns)
    files = FileStore(services.settings.files_dir)
    after = store.FIRST
    while True:
        async with services.db.transaction() as conn:
            docs = await store.pick_documents(conn, params, BATCH, after)
            if not docs:
                break
            removed = sum(_remove_files(files, context_id, d, p) for d, p in docs)
            counts = await store.tombstone_documents(conn, context_id, [d for d, _ in docs])
            await store.add_counts(conn, context_id, erasure_id, {**counts, "files": removed})
        after = docs[-1][0]

    async def judgements(conn: Conn, picked: list[uuid.UUID]) -> dict[str, int]:
        return {"judgements": await store.clear_excerpts(conn, context_id, picked)}

    await _batches(services, ids, "judgements", params, judgements)
    async with services.db.transaction() as conn:
        retained = await store.drop_retained(conn, params)
        await store.add_counts(conn, context_id, erasure_id, {"retained_inputs": retained})
    services.chat_cache.clear()  # other processes' caches: keyed by the feed, which moved


async def resume_open(services: Services) -> int:
    """Erasures left queued or running (their job lost, or given up after its worker died
    too often) are queued again; the lock keeps a live one's job alone."""
    async with services.db.connection() as conn:
        open_ = await store.open_erasures(conn, STALE_OPEN_S)
    for context_id, erasure_id in open_:
        await enqueue(services, context_id, erasure_id)
    return len(open_)
