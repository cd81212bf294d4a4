"""Jobs a dead worker left `doing` are retried, and their documents put back to `pending`.

A `kill -9` (or an OOM kill) leaves the job `doing` and the document `processing` forever:
nothing else would ever look at them again. procrastinate knows which workers stopped
sending heartbeats; their jobs are retried, and a document whose job keeps dying (a file
that kills the worker every time) ends `failed` with `processing_interrupted` instead of
crashing workers forever.
"""

from __future__ import annotations

import uuid

import structlog
from procrastinate.jobs import Job, Status

from memwarden.documents.service import PROCESS_TASK
from memwarden.services import Services
from memwarden.store import documents as store

log = structlog.get_logger(__name__)

STALLED_WORKER_S = 120.0
"""A worker silent this long is dead (procrastinate beats every 10 s, prunes after 30 s)."""
MAX_STALLED_ATTEMPTS = 3
"""A job retried this many times after its worker died is not retried again."""


async def recover_stalled_jobs(services: Services) -> int:
    """Retry (or, past the attempts, fail) every job of a dead worker; returns how many."""
    manager = services.jobs.job_manager
    stalled = list(await manager.get_stalled_jobs(seconds_since_heartbeat=STALLED_WORKER_S))
    for job in stalled:
        give_up = job.attempts >= MAX_STALLED_ATTEMPTS
        if job.task_name == PROCESS_TASK:
            await _reset_document(services, job, give_up)
        if give_up:
            await manager.finish_job(job, status=Status.FAILED, delete_job=False)
        else:
            await manager.retry_job(job)
        log.warning("stalled_job_recovered", job_id=job.id, task=job.task_name, failed=give_up)
    return len(stalled)


async def _reset_document(services: Services, job: Job, give_up: bool) -> None:
    """Back to `pending` so the retried job processes it, or `failed` when giving up."""
    context_id = uuid.UUID(str(job.task_kwargs["context_id"]))
    document_id = uuid.UUID(str(job.task_kwargs["document_id"]))
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
