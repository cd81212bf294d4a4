"""Jobs a dead worker left `doing` are retried, and their documents end processed or failed
(a `kill -9` mid-document used to leave both stuck forever)."""

from __future__ import annotations

import uuid

from memwarden.documents.service import PROCESS_TASK, get, upload
from memwarden.jobs.recovery import MAX_STALLED_ATTEMPTS, recover_stalled_jobs

TEXT = b"Marguerite keeps bees on the roof of the library."


def _upload_and_kill_its_worker(harness, ctx, sql, *, attempts: int = 0) -> uuid.UUID:
    """The document's job taken by a worker whose heartbeat stopped an hour ago, the
    document left `processing`, as a `kill -9` mid-document leaves them."""
    doc = harness.run(
        upload(
            harness.services,
            ctx.caller,
            ctx.id,
            filename="bees.txt",
            declared_type="text/plain",
            data=TEXT,
            scope=None,
            visibility="shared",
        )
    )
    ((worker_id,),) = sql(
        "INSERT INTO procrastinate_workers (last_heartbeat) "
        "VALUES (now() - interval '1 hour') RETURNING id"
    )
    sql(
        "UPDATE procrastinate_jobs SET status = 'doing', worker_id = %s, attempts = %s "
        "WHERE task_name = %s",
        (worker_id, attempts, PROCESS_TASK),
    )
    sql("UPDATE document SET status = 'processing' WHERE id = %s", (doc.id,))
    return uuid.UUID(doc.id)


def _run_worker(harness) -> None:
    harness.run(
        harness.services.jobs.run_worker_async(
            queues=["documents"], wait=False, install_signal_handlers=False
        )
    )


def test_a_job_left_doing_by_a_dead_worker_is_retried_and_its_document_ends_processed(
    services_with, sql
) -> None:
    harness = services_with()
    ctx = harness.make_context()
    doc_id = _upload_and_kill_its_worker(harness, ctx, sql)
    assert harness.run(recover_stalled_jobs(harness.services)) == 1
    assert sql("SELECT status FROM procrastinate_jobs WHERE task_name = %s", (PROCESS_TASK,)) == [
        ("todo",)
    ]
    _run_worker(harness)
    done = harness.run(get(harness.services, ctx.caller, ctx.id, doc_id))
    assert done.status == "processed", done


def test_a_job_of_a_live_worker_is_left_alone(services_with, sql) -> None:
    harness = services_with()
    ctx = harness.make_context()
    doc_id = _upload_and_kill_its_worker(harness, ctx, sql)
    sql("UPDATE procrastinate_workers SET last_heartbeat = now()")
    assert harness.run(recover_stalled_jobs(harness.services)) == 0
    row = harness.run(get(harness.services, ctx.caller, ctx.id, doc_id))
    assert row.status == "processing"


def test_a_document_whose_job_keeps_stalling_ends_failed(services_with, sql) -> None:
    harness = services_with()
    ctx = harness.make_context()
    doc_id = _upload_and_kill_its_worker(harness, ctx, sql, attempts=MAX_STALLED_ATTEMPTS)
    assert harness.run(recover_stalled_jobs(harness.services)) == 1
    done = harness.run(get(harness.services, ctx.caller, ctx.id, doc_id))
    assert done.status == "failed" and done.failureCode == "processing_interrupted"
    assert sql("SELECT status FROM procrastinate_jobs WHERE task_name = %s", (PROCESS_TASK,)) == [
        ("failed",)
    ]
