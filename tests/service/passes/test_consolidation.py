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


def test_a_merge_carries_the_merged_away_entitys_facts_to_the_survivor_reversibly(
    people, scripted, sql
) -> None:
    from tests.service.usecases import profile

    h, ctx = people(("Alice", "role", "engineer"), ("Alice Chen", "employer", "Acme"))
    # Alice also has a relation and an action naming her, stated before the merge.
    scripted.script(
        "extraction",
        Reply.json(
            {
                **EMPTY,
                "entities": [
                    {"name": "Alice", "entityType": "person", "memoryCategory": "identity"},
                    {"name": "Bob", "entityType": "person", "memoryCategory": "identity"},
                ],
                "relations": [
                    {"subject": "Bob", "label": "mentors", "object": "Alice"},
                ],
                "actions": [{"actor": "Alice", "label": "shipped", "object": "the pipeline"}],
            }
        ),
    )
    facts(h, ctx, "Bob mentors Alice. Alice shipped the pipeline.")
    old = sql(
        "SELECT f.id, f.kind FROM memory_record f JOIN memory_record e"
        " ON e.id IN (f.entity_id, f.object_entity_id)"
        " WHERE e.content->>'name' = 'Alice' AND e.kind = 'entity' AND f.kind <> 'entity'"
    )
    assert {k for _, k in old} == {"attribute", "relation", "action"}

    run = run_pass(h, ctx, "consolidation")
    assert run["status"] == "done"
    seen = profile(h, ctx, "Alice Chen")
    assert {(a["content"]["key"], a["content"]["value"]) for a in seen["attributes"]} >= {
        ("role", "engineer"),
        ("employer", "Acme"),
        ("also_known_as", "Alice"),
    }
    assert any("mentors" in str(r) and "Bob" in str(r) for r in seen["relations"])
    assert any("shipped" in str(a) for a in seen["actions"])
    # The originals are superseded by their carried copies, with history: restorable.
    survivor = sql("SELECT id FROM memory_record WHERE content->>'name' = 'Alice Chen'")[0][0]
    for record_id, _kind in old:
        serving, by = sql(
            "SELECT serving::text, superseded_by FROM memory_record WHERE id = %s", (record_id,)
        )[0]
        assert serving == "superseded" and by is not None
        (new_entity, new_object) = sql(
            "SELECT entity_id, object_entity_id FROM memory_record WHERE id = %s", (by,)
        )[0]
        assert survivor in (new_entity, new_object)
        ops = sql(
            "SELECT op FROM memory_revision WHERE record_id = %s ORDER BY revision", (record_id,)
        )
        assert [o for (o,) in ops] == ["create", "supersede"]


def test_a_fact_the_survivor_already_holds_is_retired_without_a_second_copy(people, sql) -> None:
    from tests.service.usecases import profile

    h, ctx = people(("Alice", "role", "engineer"), ("Alice Chen", "role", "engineer"))
    assert run_pass(h, ctx, "consolidation")["status"] == "done"
    seen = profile(h, ctx, "Alice Chen")
    roles = [a for a in seen["attributes"] if a["content"]["key"] == "role"]
    assert len(roles) == 1 and roles[0]["content"]["value"] == "engineer"
    (serving,) = sql(
        "SELECT f.serving::text FROM memory_record f JOIN memory_record e ON e.id = f.entity_id"
        " WHERE e.content->>'name' = 'Alice' AND f.kind = 'attribute'"
    )[0]
    assert serving == "superseded"


def test_a_merge_onto_a_speakers_own_entity_carries_the_facts_to_it(
    services_with, scripted, sql
) -> None:
    from tests.service.write.test_speaker import own_profile, values

    h = services_with(**scripted_models(scripted, model_extraction="openai:x"))
    ctx = h.make_context(subject="olga")
    scripted.script(
        "extraction",
        Reply.json(
            {
                **EMPTY,
                "attributes": [
                    {
                        "entity": "user",
                        "key": "name",
                        "value": "Maria",
                        "memoryCategory": "identity",
                    }
                ],
            }
        ),
        Reply.json(_person("Maria Lopez", "pet", "cat")),  # third person: its own entity
    )
    facts(h, ctx, "I'm Maria.")
    facts(h, ctx, "Maria Lopez has a cat.")
    assert values(own_profile(h, ctx), "pet") == []
    run = run_pass(h, ctx, "consolidation")
    assert run["status"] == "done"
    mine = own_profile(h, ctx)
    # The speaker's entity survived and holds the carried fact and the alias.
    assert values(mine, "pet") == ["cat"] and values(mine, "also_known_as") == ["Maria Lopez"]
    assert _entities(sql)["Maria Lopez"][0] == "superseded"
    [(speaker_live,)] = sql(
        "SELECT count(*) FROM memory_record WHERE kind = 'entity' AND serving = 'live' "
        "AND norm_name LIKE 'speaker:%%'"
    )
    assert speaker_live == 1
