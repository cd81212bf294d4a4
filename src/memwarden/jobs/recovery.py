"""What a dead worker held is put right: its jobs retried (or failed), their documents back
to `pending`, the hygiene and pass runs it had open ended `failed` with `interrupted`.

A `kill -9` (or an OOM kill) leaves the job `doing`, the document `processing` and the run
`running` forever: nothing else would look at them again, and a full hygiene cycle left
`running` refuses every later scan (409 `run_in_progress`) and makes the nightly tick skip
its Context.

Who is dead (`store/recovery.py`): every worker holds a session advisory lock for its life
(`jobs/app.py`), which PostgreSQL drops the moment the process is gone. A worker is dead
when its row is gone, its heartbeat is older than `STALLED_WORKER_S` (a host that vanished
keeps its sessions open until TCP gives up), or its lock is gone and its heartbeat is older
than `LOCKLESS_GRACE_S`. A worker that holds its lock keeps its jobs however late it beats
(a busy event loop), and one without a lock but beating (an older memwarden) keeps them too.

It runs once a minute (the `requeue_documents` task) and when a worker starts
(`run_worker`), which looks again, for up to `START_WINDOW_S`, while a worker without its lock
is still inside the grace: so after a crash and a restart the dead worker's work is taken
back within about `LOCKLESS_GRACE_S` of the kill, not at the next tick.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from dataclasses import dataclass
from typing import Any

import structlog

from memwarden.documents.service import PROCESS_TASK, enqueue
from memwarden.hygiene.runs import RUN_TASK as HYGIENE_TASK
from memwarden.passes.runs import RUN_TASK as PASS_TASK
from memwarden.passes.schedule import STALE_QUEUED_S as PASS_QUEUED_S
from memwarden.pipeline.commit import WRITE_SCAN_TASK
from memwarden.services import Services
from memwarden.store import documents as store
from memwarden.store import passes as pass_store
from memwarden.store import recovery as recovery_store
from memwarden.store.recovery import DoingJob, OpenRun

log = structlog.get_logger(__name__)

STALLED_WORKER_S = 120.0
"""A worker silent this long is dead even while its lock is held."""
LOCKLESS_GRACE_S = 15.0
"""A worker without its lock and silent this long is dead (heartbeats come every 10 s)."""
MAX_STALLED_ATTEMPTS = 3
"""A job retried this many times after its worker died is not retried again."""
RETRY_HOLD_S = 60.0
"""A retried job is held until what it had open is put right (this long at most, should the
recovering process die in between)."""
QUEUED_RUN_S = 60.0
"""A full hygiene cycle queued this long with no job waiting for it has lost its job."""
STALE_PENDING_S = 300
"""The periodic task queues a document again after it waited this long (a start, at once)."""
START_WINDOW_S = 60.0
"""How long a starting worker keeps looking at workers inside the grace."""


@dataclass
class Recovered:
    jobs: int = 0
    runs: int = 0
    documents: int = 0
    suspects: int = 0
    look_again_s: float | None = None

    @property
    def total(self) -> int:
        return self.jobs + self.runs + self.documents


async def _doing(services: Services) -> list[DoingJob]:
    async with services.db.connection() as conn:
        return await recovery_store.doing_jobs(
            conn, stale_s=STALLED_WORKER_S, grace_s=LOCKLESS_GRACE_S
        )


async def recover_stalled_jobs(services: Services) -> int:
    """Retry (or, past the attempts, fail) every job of a dead worker; returns how many."""
    return await recover_jobs(services, await _doing(services))


async def recover_jobs(services: Services, doing: list[DoingJob]) -> int:
    recovered = 0
    for job in doing:
        if job.liveness != "dead":
            continue
        give_up = job.attempts >= MAX_STALLED_ATTEMPTS
        async with services.db.connection() as conn:
            if give_up:
                claimed = await recovery_store.fail_dead_job(conn, job)
            else:
                claimed = await recovery_store.retry_dead_job(conn, job, RETRY_HOLD_S)
        if not claimed:
            continue  # another process recovered it first, or it moved on
        try:
            if job.task_name == PROCESS_TASK:
                await _reset_document(services, job.args, give_up)
            elif job.task_name == WRITE_SCAN_TASK:
                await _interrupt_write_scan(services, job.args)
        finally:
            if not give_up:
                async with services.db.connection() as conn:
                    await recovery_store.release_job(conn, job.id)
        recovered += 1
        log.warning("stalled_job_recovered", job_id=job.id, task=job.task_name, failed=give_up)
    return recovered


async def _reset_document(services: Services, args: dict[str, Any], give_up: bool) -> None:
    """Back to `pending` so the retried job processes it, or `failed` when giving up."""
    context_id = uuid.UUID(str(args["context_id"]))
    document_id = uuid.UUID(str(args["document_id"]))
    async with services.db.transaction() as conn:
        row = await store.get(conn, context_id, document_id, for_update=True)
        if row is None or row["status"] != "processing":
            return
        if give_up:
            await store.set_status(
                conn, context_id, document_id, "failed", "processing_interrupted"
            )
        else:
            await store.set_status(conn, context_id, document_id, "pending")


async def _interrupt_write_scan(services: Services, args: dict[str, Any]) -> None:
    """The write scan the job had open ends `interrupted`; the retried job scans again."""
    context_id = uuid.UUID(str(args["context_id"]))
    subjects = [uuid.UUID(str(r)) for r in args.get("record_ids", [])]
    async with services.db.transaction() as conn:
        await recovery_store.interrupt_write_runs(conn, context_id, subjects)


def _alive(doing: list[DoingJob], task: str) -> set[str]:
    """Run ids whose `task` job is `doing` on a worker that is not dead."""
    return {
        str(job.args.get("run_id"))
        for job in doing
        if job.task_name == task and job.liveness != "dead"
    }


async def _recover_hygiene_runs(
    services: Services, runs: list[OpenRun], doing: list[DoingJob]
) -> int:
    """A full cycle running with no job `doing` for it on a live worker, or queued past
    `QUEUED_RUN_S` with none waiting either, ends `failed` with `interrupted`."""
    alive = _alive(doing, HYGIENE_TASK)
    queued = [run.id for run in runs if run.status == "queued"]
    waiting: set[str] = set()
    if queued:
        async with services.db.connection() as conn:
            waiting = await recovery_store.waiting_run_jobs(conn, HYGIENE_TASK, queued)
    count = 0
    for run in runs:
        if str(run.id) in alive or (run.status == "queued" and str(run.id) in waiting):
            continue
        async with services.db.transaction() as conn:
            if await recovery_store.interrupt_hygiene_run(conn, run.context_id, run.id):
                count += 1
                log.warning(
                    "hygiene_run_interrupted", context_id=str(run.context_id), run_id=str(run.id)
                )
    return count


async def _recover_pass_runs(
    services: Services, runs: list[dict[str, Any]], doing: list[DoingJob]
) -> int:
    """A pass run `running` with no job `doing` for it on a live worker ends `interrupted`
    (queued ones are the passes' own tick's: passes/schedule.py)."""
    alive = _alive(doing, PASS_TASK)
    count = 0
    for row in runs:
        if str(row["id"]) in alive:
            continue
        async with services.db.transaction() as conn:
            await pass_store.interrupt_run(conn, row["context_id"], row["id"])
        count += 1
        log.warning(
            "pass_run_interrupted", context_id=str(row["context_id"]), run_id=str(row["id"])
        )
    return count


async def recover(
    services: Services, *, pending_older_than_s: float = STALE_PENDING_S
) -> Recovered:
    """One look: dead workers' jobs, the runs they left open, documents whose job was lost
    (pending longer than `pending_older_than_s`: a crash between an upload's commit and its
    enqueue; queueing one that has a job waiting changes nothing)."""
    # The runs first, then the jobs: a run read as open whose job is then not found doing
    # can never be continued (a job only ever starts a queued run).
    async with services.db.connection() as conn:
        full = await recovery_store.open_full_runs(conn, QUEUED_RUN_S)
        passes = [
            row
            for row in await pass_store.stale_runs(conn, PASS_QUEUED_S, 0.0)
            if row["status"] == "running"
        ]
    doing = await _doing(services)
    report = Recovered(jobs=await recover_jobs(services, doing))
    report.runs = await _recover_hygiene_runs(services, full, doing)
    report.runs += await _recover_pass_runs(services, passes, doing)
    async with services.db.connection() as conn:
        pending = await store.stale_pending(conn, int(pending_older_than_s))
    for row in pending:
        await enqueue(services, row["context_id"], row["id"])
    report.documents = len(pending)
    suspects = [job for job in doing if job.liveness == "suspect"]
    report.suspects = len(suspects)
    if suspects:
        oldest = max(job.heartbeat_age_s or 0.0 for job in suspects)
        report.look_again_s = max(0.5, LOCKLESS_GRACE_S - oldest + 0.5)
    return report


async def recover_at_start(services: Services) -> Recovered:
    """Recovery when a worker starts: at once, then again while a worker without its lock
    is inside the grace (the process that just died, most likely), for `START_WINDOW_S`."""
    started = time.monotonic()
    total = Recovered()
    pending_s: float = 0.0
    while True:
        try:
            report = await recover(services, pending_older_than_s=pending_s)
        except Exception as exc:  # the periodic task tries again; the worker runs on
            log.warning("startup_recovery_failed", error=type(exc).__name__)
            break
        pending_s = STALE_PENDING_S
        total.jobs += report.jobs
        total.runs += report.runs
        total.documents += report.documents
        total.suspects = report.suspects
        wait = report.look_again_s
        if wait is None or time.monotonic() - started + wait > START_WINDOW_S:
            break
        await asyncio.sleep(wait)
    log.info(
        "startup_recovery",
        jobs=total.jobs,
        runs=total.runs,
        documents=total.documents,
        suspects=total.suspects,
        seconds=round(time.monotonic() - started, 2),
    )
    return total


async def run_worker(services: Services, **options: Any) -> None:
    """procrastinate's worker, with recovery at its start (beside it, so jobs flow at once),
    and the stall window procrastinate prunes dead workers' rows with set to ours."""
    options.setdefault("stalled_worker_timeout", STALLED_WORKER_S)
    recovery = asyncio.create_task(recover_at_start(services), name="startup_recovery")
    try:
        await services.jobs.run_worker_async(**options)
    finally:
        recovery.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await recovery
