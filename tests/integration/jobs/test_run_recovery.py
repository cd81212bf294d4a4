"""Recovery's rules, one at a time, on real PostgreSQL (issue 23, item 5): which worker is
dead (its lock and its heartbeat), what becomes of the hygiene and pass runs its jobs had
open, and that a job is taken back once however many processes look at it. The real kill
is tests/integration/jobs/test_worker_crash.py."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest

from memwarden.errors import Conflict
from memwarden.hygiene import runs as hygiene_runs
from memwarden.jobs.recovery import (
    LOCKLESS_GRACE_S,
    recover,
    recover_jobs,
)
from memwarden.passes.runs import RUN_TASK as PASS_TASK
from memwarden.passes.runs import get_run as get_pass_run
from memwarden.passes.runs import request_run
from memwarden.pipeline.commit import WRITE_SCAN_TASK
from memwarden.store import recovery as recovery_store
from memwarden.store.recovery import WorkerSession
from tests.service.hygiene.helpers import note
from tests.support.services import ContextKey, ServiceHarness

Sql = Callable[..., list[tuple]]


def _dead_worker(sql: Sql, age_s: float = 3600) -> int:
    """A worker row as a killed process leaves it: no lock, its last beat `age_s` ago."""
    ((worker_id,),) = sql(
        "INSERT INTO procrastinate_workers (last_heartbeat) "
        "VALUES (now() - make_interval(secs => %s)) RETURNING id",
        (age_s,),
    )
    return int(worker_id)


def _take(sql: Sql, task: str, worker_id: int) -> int:
    """The task's waiting job taken by `worker_id`, as a worker's fetch leaves it."""
    ((job_id,),) = sql(
        "UPDATE procrastinate_jobs SET status = 'doing', worker_id = %s "
        "WHERE task_name = %s AND status = 'todo' RETURNING id",
        (worker_id, task),
    )
    return int(job_id)


def _running_scan(h: ServiceHarness, ctx: ContextKey, sql: Sql, worker_id: int) -> str:
    """POST hygiene/scan, its job taken by `worker_id` and its run started."""
    run_id = h.run(hygiene_runs.start_scan(h.services, ctx.caller, ctx.id)).runId
    _take(sql, hygiene_runs.RUN_TASK, worker_id)
    sql("UPDATE hygiene_run SET status = 'running', started_at = now() WHERE id = %s", (run_id,))
    return str(run_id)


def _run(sql: Sql, run_id: str) -> tuple[str, str | None]:
    [(status, error)] = sql("SELECT status, error FROM hygiene_run WHERE id = %s", (run_id,))
    return status, error


def _scan_accepted(h: ServiceHarness, ctx: ContextKey) -> bool:
    try:
        h.run(hygiene_runs.start_scan(h.services, ctx.caller, ctx.id))
    except Conflict:
        return False
    return True


@pytest.fixture
def h(services_with: Callable[..., ServiceHarness], sql: Sql) -> ServiceHarness:
    harness = services_with()
    sql("DELETE FROM procrastinate_jobs")
    return harness


def test_a_scan_left_running_by_a_dead_worker_ends_interrupted_and_the_next_is_accepted(
    h: ServiceHarness, sql: Sql
) -> None:
    ctx = h.make_context()
    run_id = _running_scan(h, ctx, sql, _dead_worker(sql))
    assert not _scan_accepted(h, ctx)  # 409 run_in_progress, as the issue found it
    report = h.run(recover(h.services))
    assert (report.jobs, report.runs) == (1, 1)
    assert _run(sql, run_id) == ("failed", "interrupted")
    assert _scan_accepted(h, ctx)


def test_the_nightly_tick_runs_again_for_a_context_whose_cycle_was_interrupted(
    h: ServiceHarness, sql: Sql
) -> None:
    ctx = h.make_context()
    _running_scan(h, ctx, sql, _dead_worker(sql))
    assert h.run(hygiene_runs.nightly(h.services))["started"] == 0
    h.run(recover(h.services))
    assert h.run(hygiene_runs.nightly(h.services))["started"] == 1


def test_a_scan_whose_job_is_gone_ends_interrupted(h: ServiceHarness, sql: Sql) -> None:
    """A run stuck from before recovery knew runs: its job was retried (or failed) long ago."""
    ctx = h.make_context()
    run_id = _running_scan(h, ctx, sql, _dead_worker(sql))
    sql("UPDATE procrastinate_jobs SET status = 'failed'")
    assert h.run(recover(h.services)).runs == 1
    assert _run(sql, run_id) == ("failed", "interrupted")


def test_a_scan_on_a_worker_that_holds_its_lock_is_left_alone_however_late_it_beats(
    h: ServiceHarness, sql: Sql
) -> None:
    ctx = h.make_context()
    session = WorkerSession(h.settings.database_url or "")
    worker_id = h.run(session.register())
    try:
        run_id = _running_scan(h, ctx, sql, worker_id)
        sql(
            "UPDATE procrastinate_workers SET last_heartbeat = now() - interval '100 seconds' "
            "WHERE id = %s",
            (worker_id,),
        )
        report = h.run(recover(h.services))
        assert (report.jobs, report.runs, report.suspects) == (0, 0, 0)
        assert _run(sql, run_id) == ("running", None)
        assert not _scan_accepted(h, ctx)
    finally:
        h.run(session.close())


def test_a_worker_whose_session_ended_is_dead_once_its_heartbeat_passes_the_grace(
    h: ServiceHarness, sql: Sql
) -> None:
    ctx = h.make_context()
    session = WorkerSession(h.settings.database_url or "")
    worker_id = h.run(session.register())
    run_id = _running_scan(h, ctx, sql, worker_id)
    h.run(session.close())  # the lock goes with the session, as with a killed process
    sql("UPDATE procrastinate_workers SET last_heartbeat = now() - interval '5 seconds'")
    inside = h.run(recover(h.services))
    assert (inside.jobs, inside.runs, inside.suspects) == (0, 0, 1)
    assert inside.look_again_s is not None
    assert LOCKLESS_GRACE_S - 5 < inside.look_again_s <= LOCKLESS_GRACE_S - 5 + 1
    assert _run(sql, run_id) == ("running", None)
    sql("UPDATE procrastinate_workers SET last_heartbeat = now() - interval '16 seconds'")
    past = h.run(recover(h.services))
    assert (past.jobs, past.runs, past.suspects) == (1, 1, 0)
    assert _run(sql, run_id) == ("failed", "interrupted")


def test_a_worker_session_that_is_lost_takes_its_lock_again_at_the_next_heartbeat(
    h: ServiceHarness, sql: Sql
) -> None:
    session = WorkerSession(h.settings.database_url or "")
    worker_id = h.run(session.register())
    try:
        sql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = 'memwarden-worker' AND datname = current_database()"
        )
        sql("UPDATE procrastinate_workers SET last_heartbeat = now() - interval '1 hour'")
        h.run(session.heartbeat(worker_id))
        locked = sql(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
            "AND classid = %s AND objid = %s AND objsubid = 2",
            (recovery_store.LOCK_CLASS, worker_id),
        )
        assert locked == [(1,)]
        beat = sql(
            "SELECT now() - last_heartbeat < interval '5 seconds' FROM procrastinate_workers "
            "WHERE id = %s",
            (worker_id,),
        )
        assert beat == [(True,)]
    finally:
        h.run(session.close())


def test_a_dead_workers_job_is_taken_back_once_by_processes_recovering_together(
    h: ServiceHarness, sql: Sql
) -> None:
    """Two processes that read the same picture: the second finds the job moved on (here
    retried and taken by a live worker) and changes nothing."""
    ctx = h.make_context()
    _running_scan(h, ctx, sql, _dead_worker(sql))
    seen = h.run(_doing(h))
    assert h.run(recover_jobs(h.services, seen)) == 1
    live = _dead_worker(sql, age_s=0)
    sql("UPDATE procrastinate_jobs SET status = 'doing', worker_id = %s", (live,))
    assert h.run(recover_jobs(h.services, seen)) == 0
    assert sql("SELECT status, worker_id, attempts FROM procrastinate_jobs") == [("doing", live, 1)]


async def _doing(h: ServiceHarness) -> list[recovery_store.DoingJob]:
    async with h.services.db.connection() as conn:
        return await recovery_store.doing_jobs(conn, stale_s=120, grace_s=LOCKLESS_GRACE_S)


def test_a_full_cycle_queued_a_minute_with_no_job_ends_interrupted(
    h: ServiceHarness, sql: Sql
) -> None:
    """A crash between the scan's commit and its enqueue: the run would wait forever."""
    ctx = h.make_context()
    other = h.make_context("other")
    lost = h.run(hygiene_runs.start_scan(h.services, ctx.caller, ctx.id)).runId
    waiting = h.run(hygiene_runs.start_scan(h.services, other.caller, other.id)).runId
    sql("DELETE FROM procrastinate_jobs WHERE args->>'run_id' = %s", (lost,))
    sql("UPDATE hygiene_run SET created_at = now() - interval '2 minutes'")
    assert h.run(recover(h.services)).runs == 1
    assert _run(sql, lost) == ("failed", "interrupted")
    assert _run(sql, waiting) == ("queued", None)


def test_a_write_scan_of_a_dead_worker_ends_interrupted_and_its_records_are_scanned_again(
    services_with: Callable[..., ServiceHarness], sql: Sql
) -> None:
    h = services_with()
    ctx = h.make_context()
    record = note(h, ctx, "The deploy key rotates every month.")
    subjects = [uuid.UUID(record)]
    # What pipeline/commit.py defers after a write with new live records.
    deferrer = h.services.jobs.configure_task(WRITE_SCAN_TASK, queue="hygiene")
    job_id = h.run(deferrer.defer_async(context_id=str(ctx.id), record_ids=[record]))
    sql(
        "INSERT INTO hygiene_run (context_id, id, kind, status, subjects, requested_by, "
        "started_at) VALUES (%s, %s, 'write', 'running', %s, 'hygiene', now())",
        (ctx.id, uuid.uuid4(), subjects),
    )
    _take(sql, WRITE_SCAN_TASK, _dead_worker(sql))
    assert h.run(recover(h.services)).jobs == 1
    assert sql("SELECT status, error FROM hygiene_run") == [("failed", "interrupted")]
    assert sql("SELECT status FROM procrastinate_jobs WHERE id = %s", (job_id,)) == [("todo",)]
    h.run(
        h.services.jobs.run_worker_async(
            queues=["hygiene"], wait=False, install_signal_handlers=False
        )
    )
    statuses = sql("SELECT status FROM hygiene_run ORDER BY created_at")
    assert statuses == [("failed",), ("done",)]


def test_a_pass_run_left_running_by_a_dead_worker_ends_interrupted(
    h: ServiceHarness, sql: Sql
) -> None:
    ctx = h.make_context()
    run_id = h.run(request_run(h.services, ctx.caller, ctx.id, "consolidation")).runId
    _take(sql, PASS_TASK, _dead_worker(sql))
    sql("UPDATE pass_run SET status = 'running', started_at = now() WHERE id = %s", (run_id,))
    assert h.run(recover(h.services)).runs == 1
    run = h.run(get_pass_run(h.services, ctx.caller, ctx.id, uuid.UUID(run_id)))
    assert (run.status, run.errorCode) == ("failed", "interrupted")
