"""Hygiene runs as jobs: on demand (`POST hygiene/scan`), nightly per Context, and after a
write (its new records as subjects). The run row is written first and the job deferred
after it commits, so `GET hygiene/runs/{id}` always finds what the 202 named. At most one
full cycle (scan or nightly) is queued or running per Context (a unique index)."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Sequence

import structlog
from procrastinate.exceptions import AlreadyEnqueued

from memwarden.admin.access import require_capability
from memwarden.admin.settings_service import read_config
from memwarden.config import ConfigUnreadable, load_config
from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.errors import AppError, Conflict, Forbidden, NotFound
from memwarden.hygiene.responses import HygieneCounts, HygieneRun, ScanStarted
from memwarden.hygiene.scan import empty_counts, run_cycle
from memwarden.services import Services
from memwarden.store import hygiene as store
from memwarden.store import retention as retention_store
from memwarden.store.audit import audit

log = structlog.get_logger(__name__)

RUN_TASK = "memwarden:hygiene_run"
QUEUE = "hygiene"


def render(row: store.RunRow) -> HygieneRun:
    return HygieneRun(
        runId=str(row.id),
        kind=row.kind,
        rejudge=row.rejudge,
        status=row.status,
        counts=HygieneCounts.model_validate({**empty_counts(), **row.counts}),
        error=row.error,
        requested_by=row.requested_by,
        created_at=row.created_at.isoformat(),
        started_at=row.started_at.isoformat() if row.started_at else None,
        finished_at=row.finished_at.isoformat() if row.finished_at else None,
    )


async def _defer(services: Services, context_id: uuid.UUID, run_id: uuid.UUID) -> None:
    deferrer = services.jobs.configure_task(
        RUN_TASK, queue=QUEUE, queueing_lock=f"hygiene_run:{run_id}"
    )
    with contextlib.suppress(AlreadyEnqueued):
        await deferrer.defer_async(context_id=str(context_id), run_id=str(run_id))


def _require_whole_context_review(caller: Caller, context_id: uuid.UUID) -> None:
    require_capability(caller, context_id, "memory_review")
    if not caller.can_whole_context("memory_review"):
        raise Forbidden(
            "hygiene runs need memory_review over the whole Context", code="missing_grant"
        )


async def start_scan(
    services: Services, caller: Caller, context_id: uuid.UUID, *, rejudge: bool = False
) -> ScanStarted:
    """A full cycle as a job (202 `{"runId"}`); 409 while another full cycle is queued or
    running for the Context. Needs memory_review over the whole Context: a cycle looks at
    every record."""
    _require_whole_context_review(caller, context_id)
    run_id = new_id()
    async with services.db.transaction() as conn:
        await read_config(conn, context_id)
        started = await store.insert_run(
            conn,
            context_id,
            run_id,
            kind="scan",
            rejudge=rejudge,
            subjects=(),
            requested_by=caller.subject,
        )
        if not started:
            active = await store.active_run(conn, context_id)
            raise Conflict(
                "a hygiene cycle is already queued or running for this Context",
                code="run_in_progress",
                extra={"runId": str(active) if active else None},
            )
        await audit(
            conn,
            context_id=context_id,
            actor_subject=caller.subject,
            key_id=caller.key_id,
            action="hygiene.scan",
            target_kind="hygiene_run",
            target_id=run_id,
        )
    await _defer(services, context_id, run_id)
    return ScanStarted(runId=str(run_id), status="queued")


async def get_run(
    services: Services, caller: Caller, context_id: uuid.UUID, run_id: uuid.UUID
) -> HygieneRun:
    """A run's record: needs memory_review over the whole Context, as starting one does (a
    run's counts and subjects cover every record)."""
    _require_whole_context_review(caller, context_id)
    async with services.db.connection() as conn:
        row = await store.get_run(conn, context_id, run_id)
    if row is None:
        raise NotFound("hygiene run not found")
    return render(row)


async def run_job(services: Services, context_id: uuid.UUID, run_id: uuid.UUID) -> str:
    """The job: one run to its end (a run already started or finished is skipped)."""
    return await run_cycle(services, context_id, run_id)


async def scan_written(
    services: Services, context_id: uuid.UUID, record_ids: Sequence[uuid.UUID]
) -> str:
    """The write-triggered job: the write's new records as subjects, no re-examination.
    Skipped when the Context turned hygiene off or its configuration cannot be read."""
    async with services.db.transaction() as conn:
        try:
            config = await read_config(conn, context_id)
        except (AppError, ConfigUnreadable):
            return "skipped"
        if not config.hygiene.enabled:
            return "skipped"
        run_id = new_id()
        await store.insert_run(
            conn,
            context_id,
            run_id,
            kind="write",
            rejudge=False,
            subjects=record_ids,
            requested_by="hygiene",
        )
    return await run_cycle(services, context_id, run_id)


async def nightly(services: Services) -> dict[str, int]:
    """The nightly tick: a full cycle (stale sweep first, with re-examination) for each
    Context that keeps hygiene and its nightly run on; a Context with a cycle already
    queued or running is skipped (no overlapping runs), and so is one whose configuration
    cannot be read (never run on guessed defaults)."""
    report = {"contexts": 0, "started": 0, "skipped": 0}
    async with services.db.connection() as conn:
        contexts = await retention_store.contexts_with_config(conn)
    for row in contexts:
        report["contexts"] += 1
        try:
            config = load_config(row.config)
        except ConfigUnreadable:
            report["skipped"] += 1
            log.warning("hygiene_skipped_unreadable_config", context_id=str(row.id))
            continue
        if not (config.hygiene.enabled and config.hygiene.nightly):
            report["skipped"] += 1
            continue
        run_id = new_id()
        async with services.db.transaction() as conn:
            started = await store.insert_run(
                conn,
                row.id,
                run_id,
                kind="nightly",
                rejudge=False,
                subjects=(),
                requested_by="hygiene",
            )
        if not started:
            report["skipped"] += 1
            continue
        report["started"] += 1
        await _defer(services, row.id, run_id)
    return report
