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
