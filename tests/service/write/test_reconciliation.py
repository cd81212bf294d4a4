"""Reconciliation through the facts use case: supersede with history, identical facts,
corrections, dedupe."""

from __future__ import annotations

import pytest

from tests.service.usecases import facts, profile
from tests.support.replies import attr, extraction, person
from tests.support.services import ContextKey, ServiceHarness


@pytest.fixture
def ctx(modelled: ServiceHarness) -> ContextKey:
    return modelled.make_context(subject="alice")


def _say(h, ctx, scripted, reply):
    scripted.script("extraction", reply)
    return facts(h, ctx, "a turn", scope=["org/acme"])["extraction"]


def test_a_new_value_supersedes_the_current_one_and_keeps_history(
    modelled, ctx, scripted, sql
) -> None:
    first = _say(
        modelled,
        ctx,
        scripted,
        extraction(entities=[person("Alice Chen")], attributes=[attr("Alice Chen", "role", "CTO")]),
    )
    second = _say(
        modelled, ctx, scripted, extraction(attributes=[attr("alice chen", "Role", "CEO")])
    )
    old_id, new_id = first["attributes"][0]["id"], second["attributes"][0]["id"]
    assert second["entities"] == [{**first["entities"][0], "isNew": False}]
    assert second["attributes"][0]["isNew"] and new_id != old_id
    row = sql(
        "SELECT serving, valid_to IS NOT NULL, superseded_by::text, revision "
        "FROM memory_record WHERE id = %s",
        (old_id,),
    )[0]
    assert row == ("superseded", True, new_id, 2)
    ops = sql("SELECT op FROM memory_revision WHERE record_id = %s ORDER BY revision", (old_id,))
    assert [o for (o,) in ops] == ["create", "supersede"]
    feed = sql("SELECT entry_type FROM change_event WHERE record_id = %s ORDER BY seq", (old_id,))
    assert [e for (e,) in feed] == ["created", "superseded"]
    now = profile(modelled, ctx, "Alice Chen")
    hist = profile(modelled, ctx, "ALICE CHEN.", history=True)
    assert [a["content"]["value"] for a in now["attributes"]] == ["CEO"]
    assert [(h["content"]["value"], h["validTo"] is not None) for h in hist["history"]] == [
        ("CTO", True)
    ]


def test_an_identical_fact_is_a_no_op(modelled, ctx, scripted, sql) -> None:
    reply = extraction(entities=[person("Bo")], attributes=[attr("Bo", "city", "Oslo")])
    first = _say(modelled, ctx, scripted, reply)
    before = sql("SELECT count(*), max(revision) FROM memory_record")[0]
    again = _say(
        modelled,
        ctx,
        scripted,
        extraction(entities=[person("bo")], attributes=[attr("Bo", "city", "oslo.")]),
    )
    assert again["attributes"][0]["id"] == first["attributes"][0]["id"]
    assert again["attributes"][0]["isNew"] is False and again["entities"][0]["isNew"] is False
    assert sql("SELECT count(*), max(revision) FROM memory_record")[0] == before


def test_a_correction_replaces_the_old_value(modelled, ctx, scripted, sql) -> None:
    first = _say(
        modelled,
        ctx,
        scripted,
        extraction(entities=[person("Sam")], attributes=[attr("Sam", "role", "intern")]),
    )
    fixed = _say(
        modelled,
        ctx,
        scripted,
        extraction(
            corrections=[
                {"entity": "Sam", "key": "role", "oldValue": "intern", "newValue": "engineer"}
            ]
        ),
    )
    correction = fixed["corrections"][0]
    assert correction["applied"] and correction["supersededIds"] == [first["attributes"][0]["id"]]
    live = sql(
        "SELECT content->>'value' FROM memory_record WHERE kind = 'attribute' AND serving = 'live'"
    )
    assert live == [("engineer",)]


def test_relations_and_actions_deduplicate(modelled, ctx, scripted, sql) -> None:
    reply = extraction(
        relations=[
            {"subject": "Ann", "label": "works_at", "object": "Acme", "memoryCategory": "identity"}
        ],
        actions=[
            {"actor": "Ann", "label": "booked", "object": "a flight", "memoryCategory": "context"}
        ],
    )
    first = _say(modelled, ctx, scripted, reply)
    second = _say(modelled, ctx, scripted, reply)
    assert second["relations"][0]["id"] == first["relations"][0]["id"]
    assert second["actions"][0]["isNew"] is False
    assert sql("SELECT kind, count(*) FROM memory_record GROUP BY kind ORDER BY kind") == [
        ("action", 1),
        ("entity", 2),
        ("relation", 1),
    ]


def test_a_different_scope_reconciles_separately(modelled, ctx, scripted, sql) -> None:
    reply = extraction(entities=[person("Cy")], attributes=[attr("Cy", "role", "chef")])
    _say(modelled, ctx, scripted, reply)
    scripted.script("extraction", reply)
    other = facts(modelled, ctx, "a turn", scope=["org/other"])["extraction"]
    assert other["entities"][0]["isNew"] is True
    assert sql("SELECT count(*) FROM memory_record WHERE kind = 'entity'")[0][0] == 2


def test_a_name_resolves_to_an_existing_entity_by_embedding_similarity(
    modelled, ctx, scripted
) -> None:
    place = {"entityType": "place", "memoryCategory": "knowledge"}
    first = _say(modelled, ctx, scripted, extraction(entities=[{"name": "New York", **place}]))
    again = _say(modelled, ctx, scripted, extraction(entities=[{"name": "NYC", **place}]))
    other = _say(modelled, ctx, scripted, extraction(entities=[{"name": "Alice Wong", **place}]))
    assert again["entities"][0] == {**first["entities"][0], "isNew": False}
    assert other["entities"][0]["isNew"] is True
