"""Hygiene on the job queue: the nightly tick on a real worker (stale sweep first, one
cycle per Context, none overlapping), and write-triggered scans after a write commits."""

from __future__ import annotations

from collections.abc import Callable

from tests.service.hygiene.helpers import STRONG, items, note
from tests.service.usecases import facts
from tests.support.scripted_model import ScriptedModelServer, scripted_models
from tests.support.services import ServiceHarness

SUPERSEDES_B = {"verdict": "supersedes", "superseding": "b", "confidence": 0.95}


def _worker(h: ServiceHarness, *queues: str) -> None:
    """A real worker that runs what is queued, then stops."""
    h.run(
        h.services.jobs.run_worker_async(
            queues=list(queues), wait=False, install_signal_handlers=False
        )
    )


def _tick(h: ServiceHarness) -> None:
    """The periodic task as the scheduler defers it, then workers for both queues."""
    h.run(h.services.jobs.tasks["memwarden:hygiene_nightly"].defer_async(timestamp=0))
    _worker(h, "maintenance")
    _worker(h, "hygiene")


def test_the_nightly_tick_runs_a_full_cycle_per_context_on_a_real_worker(
    services_with: Callable[..., ServiceHarness],
    scripted: ScriptedModelServer,
    sql: Callable[..., list[tuple]],
) -> None:
    h = services_with(**scripted_models(scripted, model_adjudication=STRONG))
    on = h.make_context("on")
    off = h.make_context("off", config={"hygiene": {"nightly": False}})
    note(h, on, "The deploy key rotates every month.")
    b = note(h, on, "The deploy key rotates every week.")
    note(h, off, "The deploy key rotates every month.")
    note(h, off, "The deploy key rotates every week.")
    scripted.respond_with("adjudication", SUPERSEDES_B)
    sql("DELETE FROM procrastinate_jobs")  # the writes' own scans are not under test here
    _tick(h)
    runs = sql("SELECT context_id, kind, status FROM hygiene_run ORDER BY created_at")
    assert runs == [(on.id, "nightly", "done")]
    assert len(items(h, on)) == 1 and items(h, off) == []
    # The next night starts with the stale sweep: the pair whose side left is dismissed.
    sql("UPDATE memory_record SET serving = 'deleted', deleted_at = now() WHERE id = %s", (b,))
    _tick(h)
    assert items(h, on) == []
    [item] = items(h, on, "dismissed")
    assert item["dismissed_because"] == "stale"
    jobs = sql(
        "SELECT task_name, status FROM procrastinate_jobs WHERE task_name LIKE %s",
        ("memwarden:hygiene%",),
    )
    assert {status for _t, status in jobs} == {"succeeded"}


def test_the_nightly_tick_never_overlaps_a_running_cycle(
    services_with: Callable[..., ServiceHarness], sql: Callable[..., list[tuple]]
) -> None:
    h = services_with()
    ctx = h.make_context()
    sql(
        "INSERT INTO hygiene_run (context_id, id, kind, status, requested_by) "
        "VALUES (%s, gen_random_uuid(), 'scan', 'running', 'alice')",
        (ctx.id,),
    )
    _tick(h)
    assert sql("SELECT count(*) FROM hygiene_run WHERE context_id = %s", (ctx.id,)) == [(1,)]


def test_a_write_defers_a_narrow_scan_of_its_new_records(
    services_with: Callable[..., ServiceHarness], sql: Callable[..., list[tuple]]
) -> None:
    h = services_with()
    ctx = h.make_context()
    facts(h, ctx, "I'm Alice, CTO at Acme.", scope=["team/a"])
    facts(h, ctx, "I'm Alice, CEO at Acme.", scope=["team/b"])
    queued = sql(
        "SELECT count(*) FROM procrastinate_jobs WHERE task_name = 'memwarden:hygiene_write_scan'"
    )
    assert queued == [(2,)]
    assert sql("SELECT count(*) FROM hygiene_run") == [(0,)]  # nothing ran in the write
    _worker(h, "hygiene")
    runs = sql("SELECT kind, status, counts->>'reexamined' FROM hygiene_run")
    assert runs and {r for r in runs} == {("write", "done", "0")}
    judged = sql("SELECT count(*) FROM hygiene_judged")[0][0]
    assert judged >= 1


def test_a_context_with_hygiene_off_gets_no_write_triggered_run(
    services_with: Callable[..., ServiceHarness], sql: Callable[..., list[tuple]]
) -> None:
    h = services_with()
    ctx = h.make_context(config={"hygiene": {"enabled": False}})
    facts(h, ctx, "I'm Alice, CTO at Acme.")
    _worker(h, "hygiene")
    assert sql("SELECT count(*) FROM hygiene_run") == [(0,)]
