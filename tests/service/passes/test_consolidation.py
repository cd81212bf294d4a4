"""consolidation: one thing under two names becomes one survivor (reversibly), and pairs it is
unsure of go to the reviewer queue instead."""

from __future__ import annotations

from typing import Any

import pytest

from tests.service.passes.helpers import run_pass
from tests.service.usecases import facts
from tests.support.scripted_model import Reply, scripted_models

EMPTY: dict[str, list[Any]] = {
    k: []
    for k in (
        "entities",
        "attributes",
        "relations",
        "actions",
        "instructions",
        "uncertainties",
        "corrections",
    )
}


def _person(name: str, key: str, value: str) -> dict[str, Any]:
    return {
        **EMPTY,
        "entities": [{"name": name, "entityType": "person", "memoryCategory": "identity"}],
        "attributes": [{"entity": name, "key": key, "value": value, "memoryCategory": "identity"}],
    }


@pytest.fixture
def people(services_with, scripted):
    def build(*names: tuple[str, str, str], **models: str):
        h = services_with(**scripted_models(scripted, model_extraction="openai:x", **models))
        ctx = h.make_context()
        for name, key, value in names:
            scripted.script("extraction", Reply.json(_person(name, key, value)))
            facts(h, ctx, f"About {name}: {key} is {value}.")
        return h, ctx

    return build


def _entities(sql) -> dict[str, tuple[str, Any]]:
    rows = sql(
        "SELECT content->>'name', serving::text, superseded_by FROM memory_record"
        " WHERE kind = 'entity' AND source_kind = 'turn'"
    )
    return {name: (serving, by) for name, serving, by in rows}


def test_offline_a_name_and_its_only_longer_form_merge_into_one_survivor(people, sql) -> None:
    h, ctx = people(("Alice", "role", "engineer"), ("Alice Chen", "employer", "Acme"))
    run = run_pass(h, ctx, "consolidation")
    assert run["status"] == "done" and run["counts"]["inputs"] == 1
    found = _entities(sql)
    survivor = sql(
        "SELECT id FROM memory_record WHERE content->>'name' = 'Alice Chen' AND kind = 'entity'"
    )[0][0]
    assert found["Alice"] == ("superseded", survivor)
    assert found["Alice Chen"][0] == "live"
    alias = sql(
        "SELECT content->>'value', derived_from FROM memory_record"
        " WHERE source_kind = 'consolidation' AND attr_key = 'also_known_as'"
    )
    assert alias == [("Alice", [survivor])]
    ops = sql(
        "SELECT op FROM memory_revision r JOIN memory_record m ON m.id = r.record_id"
        " WHERE m.content->>'name' = 'Alice' AND m.kind = 'entity' ORDER BY r.revision"
    )
    assert [o for (o,) in ops] == ["create", "supersede"]  # history kept: restorable
    again = run_pass(h, ctx, "consolidation")
    assert again["counts"] == {"inputs": 0, "written": 0, "dropped": 0, "held": 0}


def test_offline_an_ambiguous_name_goes_to_the_reviewer_queue_unmerged(people, sql) -> None:
    h, ctx = people(
        ("Alice", "role", "engineer"),
        ("Alice Chen", "employer", "Acme"),
        ("Alice Smith", "city", "Leeds"),
    )
    run = run_pass(h, ctx, "consolidation")
    assert run["counts"]["inputs"] == 2 and run["counts"]["written"] == 0
    assert all(s == "live" for s, _ in _entities(sql).values())
    queued = sql("SELECT verdict, status FROM conflict")
    assert queued == [("duplicate", "pending"), ("duplicate", "pending")]


def test_a_model_unsure_of_a_pair_queues_it_and_a_sure_one_merges(people, scripted, sql) -> None:
    scripted.respond_with(
        "consolidation", Reply.json({"same": True, "survivor": "b", "confidence": 0.55})
    )
    h, ctx = people(
        ("Alice", "role", "engineer"),
        ("Alice Chen", "employer", "Acme"),
        model_consolidation="openai:cons",
    )
    run = run_pass(h, ctx, "consolidation")
    assert run["status"] == "done" and run["counts"]["written"] == 0
    assert sql("SELECT status, confidence FROM conflict") == [("pending", 0.55)]
    asked = scripted.requests_for("consolidation")
    assert asked and "<<<TEXT" in asked[0].user
    assert sql("SELECT sum(prompt_tokens) > 0 FROM usage WHERE stage = 'consolidation'")[0][0]


def test_offline_one_attribute_under_two_keys_keeps_the_older(services_with, scripted, sql) -> None:
    h = services_with(**scripted_models(scripted, model_extraction="openai:x"))
    ctx = h.make_context()
    scripted.script("extraction", Reply.json(_person("Alice", "job", "engineer")))
    facts(h, ctx, "Alice's job: engineer.")
    scripted.script("extraction", Reply.json(_person("Alice", "occupation", "Engineer")))
    facts(h, ctx, "Alice's occupation: Engineer.")
    run = run_pass(h, ctx, "consolidation")
    assert run["status"] == "done" and run["counts"]["inputs"] == 1
    rows = dict(sql("SELECT attr_key, serving::text FROM memory_record WHERE kind = 'attribute'"))
    assert rows == {"job": "live", "occupation": "superseded"}
