"""Consolidation and the review queue (issue 23, items 6 to 8): its rows say they come from
the pass and re-judge leaves them to a person, an entity's new revision never breaks later
runs, a person's decision stands, and restoring a merged-away entity undoes the merge."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.service.hygiene.helpers import items, restore, scan
from tests.service.passes.helpers import run_pass
from tests.service.review.memory import Who, decide
from tests.service.usecases import facts, profile
from tests.support.scripted_model import Reply, ScriptedModelServer, scripted_models
from tests.support.services import ContextKey, ServiceHarness

PATH = "project/p1/agent/a1"  # the memory contract's SCOPE, so a reviewer can address it
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


def _thing(name: str, entity_type: str, key: str, value: str) -> dict[str, Any]:
    return {
        **EMPTY,
        "entities": [{"name": name, "entityType": entity_type, "memoryCategory": "identity"}],
        "attributes": [{"entity": name, "key": key, "value": value, "memoryCategory": "identity"}],
    }


Build = Callable[..., tuple[ServiceHarness, ContextKey]]


@pytest.fixture
def things(services_with: Callable[..., ServiceHarness], scripted: ScriptedModelServer) -> Build:
    def build(*rows: tuple[str, str, str, str]) -> tuple[ServiceHarness, ContextKey]:
        h = services_with(**scripted_models(scripted, model_extraction="openai:x"))
        ctx = h.make_context()
        for name, entity_type, key, value in rows:
            scripted.script("extraction", Reply.json(_thing(name, entity_type, key, value)))
            facts(h, ctx, f"About {name}: {key} is {value}.", scope=[PATH])
        return h, ctx

    return build


def _entity(sql: Callable[..., list[tuple]], name: str) -> tuple[str, int, str]:
    [(rid, revision, serving)] = sql(
        "SELECT id::text, revision, serving::text FROM memory_record"
        " WHERE kind = 'entity' AND content->>'name' = %s",
        (name,),
    )
    return rid, revision, serving


UNSURE = (  # "Alice" begins two longer names: unsure, queued offline
    ("Alice", "person", "role", "engineer"),
    ("Alice Chen", "person", "employer", "Acme"),
    ("Alice Smith", "person", "city", "Leeds"),
)


def test_consolidations_queue_rows_say_pass_and_rejudge_leaves_them_to_a_person(
    things: Build, sql: Callable[..., list[tuple]]
) -> None:
    h, ctx = things(*UNSURE)
    assert run_pass(h, ctx, "consolidation")["status"] == "done"
    queued = items(h, ctx)
    assert len(queued) == 2 and {i["origin"] for i in queued} == {"pass"}
    scan(h, ctx, rejudge=True)  # the offline judge would call "Alice" / "Alice Chen" unrelated
    assert {i["id"] for i in items(h, ctx)} == {i["id"] for i in queued}


def test_a_new_revision_of_a_queued_pairs_entity_never_breaks_later_runs(
    things: Build, sql: Callable[..., list[tuple]]
) -> None:
    h, ctx = things(*UNSURE)
    assert run_pass(h, ctx, "consolidation")["status"] == "done"
    alice, revision, _ = _entity(sql, "Alice")
    decide(Who.of(h, ctx), alice, revision, disposition="approved")  # a new revision
    again = run_pass(h, ctx, "consolidation")
    assert again["status"] == "done", again
    assert again["counts"]["inputs"] >= 1  # the changed pairs were looked at again
    assert run_pass(h, ctx, "consolidation")["status"] == "done"
    assert len(items(h, ctx)) == 2  # still waiting for a person, once each


def test_a_pair_a_person_decided_is_never_queued_or_merged_again(
    things: Build, sql: Callable[..., list[tuple]]
) -> None:
    from tests.service.hygiene.helpers import resolve

    h, ctx = things(*UNSURE)
    run_pass(h, ctx, "consolidation")
    for item in items(h, ctx):
        resolve(h, ctx, item["id"], "keep_both")
    alice, revision, _ = _entity(sql, "Alice")
    decide(Who.of(h, ctx), alice, revision, disposition="approved")
    assert run_pass(h, ctx, "consolidation")["status"] == "done"
    assert items(h, ctx) == []
    assert {s for (s,) in sql("SELECT serving::text FROM memory_record WHERE kind = 'entity'")} == {
        "live"
    }


def test_restoring_a_merged_away_entity_undoes_the_merge_and_its_carried_facts(
    things: Build, sql: Callable[..., list[tuple]]
) -> None:
    h, ctx = things(
        ("Alice", "person", "role", "engineer"),
        ("Alice Chen", "person", "employer", "Acme"),
    )
    assert run_pass(h, ctx, "consolidation")["status"] == "done"
    alice, _, serving = _entity(sql, "Alice")
    assert serving == "superseded"
    [(role, role_serving)] = sql(
        "SELECT f.id::text, f.serving::text FROM memory_record f"
        " WHERE f.kind = 'attribute' AND f.attr_key = 'role' AND f.entity_id = %s",
        (alice,),
    )
    assert role_serving == "superseded"
    seen = {
        (a["content"]["key"], a["content"]["value"])
        for a in profile(h, ctx, "Alice Chen")["attributes"]
    }
    assert ("role", "engineer") in seen and ("also_known_as", "Alice") in seen

    restored = restore(h, ctx, alice)
    assert restored["serving"] == "live"
    assert _entity(sql, "Alice")[2] == "live"
    assert sql("SELECT serving::text FROM memory_record WHERE id = %s", (role,)) == [("live",)]
    survivor = {
        (a["content"]["key"], a["content"]["value"])
        for a in profile(h, ctx, "Alice Chen")["attributes"]
    }
    assert survivor == {("employer", "Acme")}  # the copy and the alias retired
    carried = sql("SELECT serving::text FROM memory_record WHERE source_kind = 'consolidation'")
    assert carried and {s for (s,) in carried} == {"superseded"}
    [(vector_revision, revision)] = sql(
        "SELECT embedding_revision, revision FROM memory_record WHERE id = %s", (role,)
    )
    assert vector_revision == revision  # searchable again
    # The undo is a person's decision: the next run merges nothing.
    again = run_pass(h, ctx, "consolidation")
    assert again["status"] == "done" and _entity(sql, "Alice")[2] == "live"
    [merge] = items(h, ctx, "resolved")
    assert merge["origin"] == "pass" and merge["restored_at"] is not None
