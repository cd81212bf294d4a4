"""elaboration: facts that follow from several stored facts, each naming exactly the facts it
follows from; off by default, and nothing at all without a model."""

from __future__ import annotations

import re

from tests.service.passes.helpers import run_pass
from tests.service.usecases import facts
from tests.support.scripted_model import Reply, scripted_models

ON = {"passes": {"elaboration": {"enabled": True}}}
IDS = re.compile(r"\[([0-9a-f-]{36})\]")


def _reply(request) -> Reply:
    ids = IDS.findall(request.user)
    row = {
        "entity": "Alice",
        "key": "works_in_city",
        "value": "Berlin",
        "memoryCategory": "knowledge",
    }
    return Reply.json(
        {
            "entities": [],
            "attributes": [
                {**row, "derivedFrom": ids[:2]},
                {**row, "key": "guess", "value": "x", "derivedFrom": ids[:1]},  # one source
                {**row, "key": "made_up", "value": "y", "derivedFrom": ["not-shown"] * 2},
            ],
            "relations": [],
            "actions": [],
            "instructions": [],
            "uncertainties": [],
            "corrections": [],
        }
    )


def test_an_elaborated_fact_names_the_facts_it_follows_from(services_with, scripted, sql) -> None:
    h = services_with(**scripted_models(scripted, model_elaboration="openai:elab"))
    ctx = h.make_context(config=ON)
    scripted.respond_with("elaboration", _reply)
    facts(h, ctx, "My name is Alice. I work at Acme. I live in Berlin.")
    run = run_pass(h, ctx, "elaboration")
    assert run["status"] == "done" and run["counts"]["inputs"] == 1
    rows = sql(
        "SELECT attr_key, memory_category, derived_from::text[] FROM memory_record"
        " WHERE source_kind = 'elaboration' AND kind = 'attribute'"
    )
    assert [(k, c) for k, c, _d in rows] == [("works_in_city", "knowledge")]
    shown = IDS.findall(scripted.requests_for("elaboration")[0].user)
    assert sorted(rows[0][2]) == sorted(shown[:2])
    assert "<<<TEXT" in scripted.requests_for("elaboration")[0].user
    again = run_pass(h, ctx, "elaboration")
    assert again["counts"]["written"] == 0 and len(scripted.requests_for("elaboration")) == 1


def test_elaboration_is_off_by_default_and_does_nothing_without_a_model(svc, sql) -> None:
    from tests.service.usecases import refused

    ctx = svc.make_context()
    with refused(409, "pass_disabled"):
        run_pass(svc, ctx, "elaboration")
    svc.configure(ctx.id, ON)
    facts(svc, ctx, "My name is Alice. I work at Acme. I live in Berlin.")
    run = run_pass(svc, ctx, "elaboration")
    assert run["status"] == "done" and run["counts"]["inputs"] == 0
    assert sql("SELECT count(*) FROM memory_record WHERE source_kind = 'elaboration'")[0][0] == 0
