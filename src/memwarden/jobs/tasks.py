"""Task definitions. Each task is thin: it calls one use case with the Services it was
registered with (`bootstrap.build_services` registers them on the Services' own App).

Tasks are registered per App (not on a shared module-level Blueprint), because
procrastinate renames a blueprint's Task objects in place when they are added.
"""

from __future__ import annotations

import uuid

from procrastinate import App

from memwarden.documents.processing import process_document
from memwarden.documents.service import PROCESS_TASK
from memwarden.erasure import run as erasure_run
from memwarden.erasure.service import QUEUE as ERASURE_QUEUE
from memwarden.erasure.service import RUN_TASK as ERASURE_TASK
from memwarden.hygiene import runs as hygiene_runs
from memwarden.jobs.recovery import recover
from memwarden.jobs.retention import purge_expired
from memwarden.passes import schedule as pass_schedule
from memwarden.passes.runs import QUEUE as PASS_QUEUE
from memwarden.passes.runs import RUN_TASK as PASS_TASK
from memwarden.passes.runs import execute as execute_pass
from memwarden.pipeline.commit import WRITE_SCAN_TASK
from memwarden.portability import run as import_run
from memwarden.portability.service import QUEUE as IMPORT_QUEUE
from memwarden.portability.service import RUN_TASK as IMPORT_TASK
from memwarden.retrieval import indexing
from memwarden.services import Services
from memwarden.webhooks import delivery as webhooks

NAMESPACE = "memwarden"


def register(app: App, services: Services) -> None:
    """The tasks and periodic jobs, each bound to `services`."""

    async def retention_purge(timestamp: int) -> dict[str, int]:
        report = await purge_expired(services.db)
        return {
            "contexts": report.contexts,
            "judgements": report.judgements,
            "retained_inputs": report.retained_inputs,
        }

    async def vector_indexes(timestamp: int) -> int:
        threshold = services.settings.vector_index_threshold
        return len(await indexing.index_large_contexts(services.db, threshold))

    async def vector_index_build(context_id: str) -> bool:
        """One Context's indexes, queued by the recall that found it past the threshold."""
        return await indexing.index_context(services.db, uuid.UUID(context_id))

    async def process_one_document(context_id: str, document_id: str) -> str:
        return await process_document(services, uuid.UUID(context_id), uuid.UUID(document_id))

    async def requeue_documents(timestamp: int) -> int:
        """Jobs of dead workers are retried (their documents back to pending, or failed past
        the attempts), the hygiene and pass runs they left open end `interrupted`, and
        documents whose job was lost (a crash between commit and enqueue) are queued again
        (jobs/recovery.py)."""
        return (await recover(services)).total

    async def run_pass(context_id: str, run_id: str) -> str:
        return await execute_pass(services, uuid.UUID(context_id), uuid.UUID(run_id))

    async def passes_settled(timestamp: int) -> int:
        """A run of each enabled pass for Contexts whose writes have settled."""
        return await pass_schedule.settled(services)

    async def passes_scheduled(timestamp: int) -> int:
        return await pass_schedule.scheduled(services)

    async def hygiene_run(context_id: str, run_id: str) -> str:
        return await hygiene_runs.run_job(services, uuid.UUID(context_id), uuid.UUID(run_id))

    async def hygiene_write_scan(context_id: str, record_ids: list[str]) -> str:
        ids = [uuid.UUID(i) for i in record_ids]
        return await hygiene_runs.scan_written(services, uuid.UUID(context_id), ids)

    async def hygiene_nightly(timestamp: int) -> dict[str, int]:
        return await hygiene_runs.nightly(services)

    async def webhooks_deliver(context_id: str) -> int:
        """A Context's due deliveries; the migration's triggers queue this job."""
        return await webhooks.deliver_due(services, uuid.UUID(context_id))

    async def webhooks_sweep(timestamp: int) -> int:
        """Every Context's due deliveries (retries, and any a job missed); old ones go."""
        return await webhooks.sweep(services)

    async def erasure(context_id: str, erasure_id: str) -> str:
        return await erasure_run.execute(services, uuid.UUID(context_id), uuid.UUID(erasure_id))

    async def erasures_resume(timestamp: int) -> int:
        """Erasures whose job was lost are queued again (erasure/run.py)."""
        return await erasure_run.resume_open(services)

    async def import_items(context_id: str, import_id: str) -> str:
        return await import_run.execute(services, uuid.UUID(context_id), uuid.UUID(import_id))

    async def imports_resume(timestamp: int) -> int:
        """Imports whose job was lost are queued again (portability/run.py)."""
        return await import_run.resume_open(services)

    app.task(name=IMPORT_TASK, queue=IMPORT_QUEUE)(import_items)
    resume_imports = app.task(
        name=f"{NAMESPACE}:imports_resume", queue="maintenance", queueing_lock="imports_resume"
    )(imports_resume)
    app.periodic(cron="* * * * *", periodic_id="imports_resume")(resume_imports)
    app.task(name=ERASURE_TASK, queue=ERASURE_QUEUE)(erasure)
    resume = app.task(
        name=f"{NAMESPACE}:erasures_resume", queue="maintenance", queueing_lock="erasures_resume"
    )(erasures_resume)
    app.periodic(cron="* * * * *", periodic_id="erasures_resume")(resume)
    app.task(name=webhooks.DELIVER_TASK, queue=webhooks.QUEUE)(webhooks_deliver)
    sweep = app.task(name=webhooks.SWEEP_TASK, queue=webhooks.QUEUE, queueing_lock="webhooks")(
        webhooks_sweep
    )
    app.periodic(cron="* * * * *", periodic_id="webhooks_sweep")(sweep)
    app.task(name=hygiene_runs.RUN_TASK, queue="hygiene")(hygiene_run)
    app.task(name=WRITE_SCAN_TASK, queue="hygiene")(hygiene_write_scan)
    tick = app.task(
        name=f"{NAMESPACE}:hygiene_nightly", queue="maintenance", queueing_lock="hygiene_nightly"
    )(hygiene_nightly)
    app.periodic(cron="41 3 * * *", periodic_id="hygiene_nightly")(tick)
    purge = app.task(
        name=f"{NAMESPACE}:retention_purge", queue="maintenance", queueing_lock="retention_purge"
    )(retention_purge)
    app.periodic(cron="17 * * * *", periodic_id="retention_purge")(purge)
    app.task(name=PROCESS_TASK, queue="documents")(process_one_document)
    requeue = app.task(
        name=f"{NAMESPACE}:requeue_documents", queue="maintenance", queueing_lock="requeue_docs"
    )(requeue_documents)
    app.periodic(cron="* * * * *", periodic_id="requeue_documents")(requeue)
    app.task(name=PASS_TASK, queue=PASS_QUEUE)(run_pass)
    settle = app.task(
        name=f"{NAMESPACE}:passes_settled", queue="maintenance", queueing_lock="passes_settled"
    )(passes_settled)
    app.periodic(cron="* * * * *", periodic_id="passes_settled")(settle)
    schedule = app.task(
        name=f"{NAMESPACE}:passes_scheduled", queue="maintenance", queueing_lock="passes_sched"
    )(passes_scheduled)
    app.periodic(cron="41 * * * *", periodic_id="passes_scheduled")(schedule)
    index = app.task(  # one build at a time, across workers (lock), one waiting (queueing_lock)
        name=f"{NAMESPACE}:vector_indexes",
        queue="maintenance",
        lock=indexing.LOCK,
        queueing_lock="vector_indexes",
    )(vector_indexes)
    app.periodic(cron="*/5 * * * *", periodic_id="vector_indexes")(index)
    app.task(name=indexing.BUILD_TASK, queue=indexing.QUEUE, lock=indexing.LOCK)(vector_index_build)
