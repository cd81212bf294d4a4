"""The import job: an import's items, in file order, batch by batch.

Model calls (the gates, extraction, embedding) run before each batch's transaction; the
transaction writes what the batch's items came to, their outcomes and the import's counts
together, so a run that dies mid-way leaves every batch whole and the next run (the job
retried after its worker died, or queued again) starts at the first item without an
outcome. A text item is a batch of its own (it is a write of its own, like a
/facts/batch item); this service's own records go `BATCH` at a time.
"""

from __future__ import annotations

import uuid
from collections import Counter

import structlog

from memwarden.admin.settings_service import read_config
from memwarden.domain.grants import Caller
from memwarden.errors import BudgetExhausted, JudgeUnavailable, Unavailable, UpstreamError
from memwarden.portability import records, texts
from memwarden.portability.service import caller_of_key, enqueue
from memwarden.services import Services
from memwarden.store import portability as store
from memwarden.usage import Bookings

log = structlog.get_logger(__name__)

STOPPING = (BudgetExhausted, UpstreamError, Unavailable, JudgeUnavailable)
"""What stops an import rather than refusing one item: the Context's budget is spent, or a
model or the judge cannot be reached. The items left keep no outcome; the import ends
`failed` with the error's code, and the same file posted again later imports them (what
is in is skipped)."""
BATCH = 200
"""Records of this service's own export per transaction."""
STALE_OPEN_S = 120.0
"""An import still queued or running this long is queued again (its job may be lost)."""


async def execute(services: Services, context_id: uuid.UUID, import_id: uuid.UUID) -> str:
    """The job: the import to its end (one already done or failed is skipped)."""
    async with services.db.transaction() as conn:
        if not await store.start_import(conn, context_id, import_id):
            return "skipped"
        row = await store.get_import(conn, context_id, import_id)
        assert row is not None
        caller = await caller_of_key(conn, row.key_id)
    if caller is None:
        async with services.db.transaction() as conn:
            await store.finish_import(conn, context_id, import_id, "failed", "key_revoked")
        return "failed"
    try:
        if row.format == "memwarden":
            await _records(services, caller, row)
        else:
            await _texts(services, caller, row)
    except STOPPING as exc:
        async with services.db.transaction() as conn:
            await store.finish_import(conn, context_id, import_id, "failed", exc.code)
        return "failed"
    except Exception:
        log.exception("import_failed", import_id=str(import_id))
        async with services.db.transaction() as conn:
            await store.finish_import(conn, context_id, import_id, "failed", "internal_error")
        return "failed"
    async with services.db.transaction() as conn:
        await store.finish_import(conn, context_id, import_id, "done", None)
    log.info("import_done", import_id=str(import_id))
    return "done"


async def _skips(
    services: Services, context_id: uuid.UUID, items: list[store.PendingItem]
) -> dict[str, uuid.UUID | None]:
    async with services.db.connection() as conn:
        return await store.seen_keys(conn, context_id, [i.item_key for i in items])


async def _records(services: Services, caller: Caller, row: store.ImportRow) -> None:
    cid = caller.context_id
    assert cid is not None
    batch = records.Batch(cid, row.id, row.source_dir, records.model_name(services))
    async with services.db.connection() as conn:
        config = await read_config(conn, cid)
    after = -1
    while True:
        async with services.db.connection() as conn:
            items = await store.pending(conn, cid, row.id, BATCH, after)
        if not items:
            return
        after = items[-1].seq
        seen = await _skips(services, cid, items)
        judged: list[records.Judged] = []
        for item in items:
            if item.item_key in seen:
                judged.append(
                    records.Judged(item.seq, item.item_key, {}, "skipped", "already_imported")
                )
                continue
            judged.append(
                await records.judge(
                    services, caller, cid, config, item.seq, item.item_key, item.payload
                )
            )
        sink = Bookings()
        await records.embed(services, judged, sink)
        counts: Counter[str] = Counter()
        async with services.db.transaction() as conn:
            outcomes = await records.write_batch(conn, services, batch, judged)
            done = []
            for j, (outcome, detail, target) in zip(judged, outcomes, strict=True):
                done.append((j.seq, outcome, detail, target))
                counts[outcome] += 1
            await store.items_done(conn, cid, row.id, done)
            await sink.write(conn, cid)
            await store.advance(conn, cid, row.id, len(judged), dict(counts))


async def _texts(services: Services, caller: Caller, row: store.ImportRow) -> None:
    cid = caller.context_id
    assert cid is not None
    after = -1
    while True:
        async with services.db.connection() as conn:
            items = await store.pending(conn, cid, row.id, 1, after)
        if not items:
            return
        item = items[0]
        after = item.seq
        seen = await _skips(services, cid, items)
        prepared = None
        outcome, detail, target = "imported", None, None
        if item.item_key in seen:
            outcome, detail, target = "skipped", "already_imported", seen[item.item_key]
        else:
            got = await texts.prepare(
                services,
                caller,
                cid,
                row.scope_path,
                "private" if row.visibility == "private" else "shared",
                item.payload,
            )
            if isinstance(got, STOPPING):
                raise got
            if isinstance(got, Exception):
                outcome, detail, target = "refused", got.code, None
            else:
                prepared = got
        async with services.db.transaction() as conn:
            if prepared is not None:
                outcome, target = await texts.write(
                    conn, prepared, cid, row.source_dir, item.payload
                )
            await store.item_done(conn, cid, row.id, item.seq, outcome, detail, target)
            await store.advance(conn, cid, row.id, 1, {outcome: 1})
        if prepared is not None:
            await texts.after(services, cid, prepared)


async def resume_open(services: Services) -> int:
    """Imports left queued or running (their job lost between commit and queue, or given up
    after its worker died too often) are queued again; the job lock keeps a live one's job
    alone, and the next run starts at the first item without an outcome."""
    async with services.db.connection() as conn:
        found = await store.open_imports(conn, STALE_OPEN_S)
    for context_id, import_id in found:
        await enqueue(services, context_id, import_id)
    return len(found)
