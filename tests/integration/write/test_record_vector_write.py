"""Reconciliation keeps the record row's vector on the current revision (0005_record_vector)."""

from __future__ import annotations

from tests.integration.write.helpers import attr, extraction, facts, person, written
from tests.support.record_vectors import record_vector_offenders, record_vectors


def _say(server, ctx, scripted, reply):
    scripted.script("extraction", reply)
    with server.client(ctx["key"]) as c:
        return written(facts(c, ctx["id"], "a turn", scope=["org/acme"]))["extraction"]


def test_new_records_carry_their_vector_and_a_superseded_one_drops_it(
    modelled, ctx, scripted, sql
) -> None:
    first = _say(
        modelled,
        ctx,
        scripted,
        extraction(entities=[person("Alice Chen")], attributes=[attr("Alice Chen", "role", "CTO")]),
    )
    old_id = first["attributes"][0]["id"]
    assert record_vectors(sql, old_id) == (1, 1, True)
    second = _say(
        modelled, ctx, scripted, extraction(attributes=[attr("alice chen", "role", "CEO")])
    )
    new_id = second["attributes"][0]["id"]
    assert record_vectors(sql, old_id) == (2, None, False)
    assert record_vectors(sql, new_id) == (1, 1, True)
    history = sql("SELECT revision FROM memory_embedding WHERE record_id = %s", (old_id,))
    assert history == [(1,)]
    assert record_vector_offenders(sql) == []
