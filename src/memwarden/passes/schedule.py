"""When passes run on their own: after a Context's writes settle, and on the schedule.

- settled (every minute): a Context whose change feed moved since the last settle trigger,
  and has been quiet for `passes.settle_minutes`, gets a run of each enabled pass whose
  `after_writes` is on. The feed position acted on is the Context's watermark (unit '' of
  the pseudo-stage `settle`), so a burst of writes causes one run, not one per write.
- schedule (hourly): each enabled pass whose `scheduled` is on.

Neither adds a run while one of the same pass for the Context is queued or running. A
Context whose configuration cannot be read is skipped. The same tick recovers lost runs:
one queued for `STALE_QUEUED_S` is queued again (its job was lost between the request's
commit and its enqueue), one running for `STALE_RUNNING_S` ends `failed` with `interrupted`
(its worker died; the units it committed stay, with their watermarks, and the next run
takes the rest). A pass's own writes move the feed
too, so a settled run is followed by one more that finds nothing new and writes nothing.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Literal

import structlog

from memwarden.config import ConfigUnreadable, ContextConfig, load_config
from memwarden.passes.contract import STAGES
from memwarden.passes.runs import create_run, enqueue
from memwarden.services import Services
from memwarden.store import passes as store

log = structlog.get_logger(__name__)
SETTLE = "settle"
SCHEDULER = "pass:scheduler"
STALE_QUEUED_S = 300.0
STALE_RUNNING_S = 3600.0


async def _queue(
    services: Services,
    context_id: uuid.UUID,
    config: ContextConfig,
    trigger: Literal["settled", "schedule"],
) -> list[uuid.UUID]:
    queued: list[tuple[uuid.UUID, uuid.UUID]] = []
    async with services.db.transaction() as conn:
        for stage in STAGES:
            choice = config.passes.stage(stage)
            wanted = choice.after_writes if trigger == "settled" else choice.scheduled
            if not (choice.enabled and wanted) or await store.open_run(conn, context_id, stage):
                continue
            queued.append(
                (context_id, await create_run(conn, context_id, stage, trigger, SCHEDULER))
            )
    for cid, run_id in queued:
        await enqueue(services, cid, run_id)
    return [run_id for _c, run_id in queued]


async def recover(services: Services) -> int:
    """Lost runs queued again, and dead workers' runs ended; returns how many."""
    async with services.db.connection() as conn:
        rows = await store.stale_runs(conn, STALE_QUEUED_S, STALE_RUNNING_S)
    for row in rows:
        if row["status"] == "queued":
            await enqueue(services, row["context_id"], row["id"])
            continue
        async with services.db.transaction() as conn:
            await store.interrupt_run(conn, row["context_id"], row["id"])
    return len(rows)


async def settled(services: Services, now: dt.datetime | None = None) -> int:
    """Runs queued for Contexts whose writes have settled (lost runs recovered first)."""
    await recover(services)
    now = now or dt.datetime.now(dt.UTC)
    async with services.db.connection() as conn:
        rows = await store.contexts(conn)
    count = 0
    for row in rows:
        cid = row["context_id"]
        # Asked per Context, a routed statement each on Citus (queries/passes.sql).
        async with services.db.connection() as conn:
            last = await store.last_change(conn, cid)
        if last is None:
            continue
        try:
            config = load_config(row["config"])
        except ConfigUnreadable:
            log.warning("passes_config_unreadable", context_id=str(cid))
            continue
        quiet = dt.timedelta(minutes=config.passes.settle_minutes)
        if last["last_change"] > now - quiet:
            continue
        async with services.db.connection() as conn:
            marks = await store.watermarks(conn, cid, SETTLE)
        if marks.get("") == str(last["seq"]):
            continue
        count += len(await _queue(services, cid, config, "settled"))
        async with services.db.transaction() as conn:
            await store.set_watermark(conn, cid, SETTLE, "", str(last["seq"]), None)
    return count


async def scheduled(services: Services) -> int:
    """Runs queued by the periodic schedule."""
    async with services.db.connection() as conn:
        rows = await store.contexts(conn)
    count = 0
    for row in rows:
        try:
            config = load_config(row["config"])
        except ConfigUnreadable:
            continue
        count += len(await _queue(services, row["context_id"], config, "schedule"))
    return count
