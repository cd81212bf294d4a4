"""What every pass run does around its units: the budget, holds, audit."""

from __future__ import annotations

import json

from tests.service.passes.helpers import run_pass
from tests.service.usecases import facts
from tests.support.scripted_model import Reply, scripted_models

TEXT = "My name is Alice. I work at Acme. I like hiking on weekends."


def test_a_spent_token_budget_stops_the_pass_and_the_run_says_so(
    services_with, scripted, sql
) -> None:
    h = services_with(**scripted_models(scripted, model_rollup="openai:rollup-model"))
    ctx = h.make_context()
    scripted.respond_with("rollup", Reply.json({"summary": "A summary."}))
    facts(h, ctx, TEXT)
    h.configure(ctx.id, {"token_budget": {"limit": 0}})
    run = run_pass(h, ctx, "rollup")
    assert run["status"] == "failed" and run["errorCode"] == "token_budget_exhausted"
    assert scripted.requests_for("rollup") == []
    assert sql("SELECT count(*) FROM memory_record WHERE source_kind = 'rollup'")[0][0] == 0
    actions = [a for (a,) in sql("SELECT action FROM audit_event WHERE target_kind = 'pass_run'")]
    assert actions == ["pass.requested", "pass.failed"]


def test_warned_rows_of_a_pass_are_held_under_on_warn_hold(services_with, scripted, sql) -> None:
    h = services_with(
        **scripted_models(scripted, model_rollup="openai:rollup-model", model_judge="openai:j")
    )
    ctx = h.make_context()
    scripted.respond_with("rollup", Reply.json({"summary": "Alice may be unwell lately."}))
    scripted.respond_with("judge", Reply.json({"verdict": "pass", "reasons": []}))
    facts(h, ctx, TEXT)
    h.configure(ctx.id, {"judge": {"enabled": True, "input": False, "on_warn": "hold"}})

    def rows(request) -> Reply:
        items = json.loads(request.user)
        return Reply.json(
            {
                "rows": [
                    {
                        "id": i["id"],
                        "verdict": "warn" if "unwell" in json.dumps(i) else "pass",
                        "reasons": ["sensitive_inference"] if "unwell" in json.dumps(i) else [],
                    }
                    for i in items
                ]
            }
        )

    scripted.respond_with("row_judge", rows)
    run = run_pass(h, ctx, "rollup")
    assert run["status"] == "done" and run["counts"]["held"] >= 1
    held = sql(
        "SELECT serving::text FROM memory_record WHERE source_kind = 'rollup'"
        " AND content->>'value' LIKE '%%unwell%%'"
    )
    assert held and all(s == "held" for (s,) in held)


def test_every_run_and_every_unit_it_writes_is_audited_without_content(svc, ctx, sql) -> None:
    facts(svc, ctx, TEXT)
    run = run_pass(svc, ctx, "rollup")
    rows = sql(
        "SELECT action, target_kind, target_id::text FROM audit_event WHERE action LIKE 'pass.%%'"
    )
    actions = [a for a, _k, _t in rows]
    assert actions[0] == "pass.requested" and actions[-1] == "pass.done"
    assert "pass.rollup.write" in actions
    assert all(k == "pass_run" and t == run["runId"] for _a, k, t in rows)


def test_a_run_whose_job_was_lost_is_queued_again_and_a_dead_workers_run_ends(
    svc, ctx, sql
) -> None:
    from memwarden.passes.runs import create_run
    from memwarden.passes.schedule import recover

    async def two_runs():
        async with svc.services.db.transaction() as conn:
            lost = await create_run(conn, ctx.id, "rollup", "manual", "alice")
            dead = await create_run(conn, ctx.id, "gist", "manual", "alice")
        return lost, dead

    lost, dead = svc.run(two_runs())  # committed, never enqueued: a crash in between
    sql("UPDATE pass_run SET created_at = now() - interval '10 minutes'")
    sql(
        "UPDATE pass_run SET status = 'running', started_at = now() - interval '2 hours'"
        " WHERE id = %s",
        (dead,),
    )
    assert svc.run(recover(svc.services)) == 2
    jobs = sql(
        "SELECT args->>'run_id' FROM procrastinate_jobs WHERE task_name = 'memwarden:run_pass'"
    )
    assert jobs == [(str(lost),)]
    assert sql("SELECT status, error_code FROM pass_run WHERE id = %s", (dead,)) == [
        ("failed", "interrupted")
    ]
    assert svc.run(recover(svc.services)) == 1  # queued again, but never twice in the queue
    assert len(sql("SELECT id FROM procrastinate_jobs WHERE task_name = 'memwarden:run_pass'")) == 1


def test_a_run_that_stops_midway_is_finished_by_the_next_without_duplicates(
    services_with, scripted, sql
) -> None:
    h = services_with(
        **scripted_models(scripted, model_rollup="openai:rollup-model", model_max_retries=0)
    )
    ctx = h.make_context()
    for topic in ("hiking", "chess", "opera"):
        facts(h, ctx, f"I like {topic} on weekends. {topic.title()} clears my head.")
    scripted.script("rollup", Reply.json({"summary": "First."}), Reply.error(500))
    broken = run_pass(h, ctx, "rollup")
    assert broken["status"] == "failed" and broken["errorCode"] == "model_provider_error"
    assert broken["counts"]["inputs"] == 2  # the first unit committed, the second failed
    done_first = sql("SELECT count(*) FROM pass_watermark WHERE stage = 'rollup'")[0][0]
    assert done_first == 1

    scripted.respond_with("rollup", Reply.json({"summary": "Later."}))
    calls = len(scripted.requests_for("rollup"))
    finished = run_pass(h, ctx, "rollup")
    assert finished["status"] == "done"
    units = sql("SELECT count(*) FROM pass_watermark WHERE stage = 'rollup'")[0][0]
    assert finished["counts"]["inputs"] == units - done_first  # only what was left
    assert len(scripted.requests_for("rollup")) - calls == units - done_first
    summaries = sql(
        "SELECT content->>'value', count(*) FROM memory_record"
        " WHERE source_kind = 'rollup' AND serving = 'live' GROUP BY 1"
    )
    assert dict(summaries)["First."] == 1  # the committed unit is not written again


def test_the_schedule_queues_each_enabled_pass_once(svc, ctx, sql) -> None:
    from memwarden.passes.schedule import scheduled

    svc.configure(ctx.id, {"passes": {"gist": {"scheduled": False}}})
    assert svc.run(scheduled(svc.services)) >= 2
    again = svc.run(scheduled(svc.services))  # the first runs are still queued
    rows = sql("SELECT stage, trigger FROM pass_run WHERE context_id = %s", (ctx.id,))
    assert sorted(rows) == [("consolidation", "schedule"), ("rollup", "schedule")]
    assert again == 0
