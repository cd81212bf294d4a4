"""Recall: /query, /profile and /state under scope, visibility and grants; recall traffic."""

from __future__ import annotations

import asyncio
import uuid

import psycopg
import pytest

from memwarden.retrieval import traffic
from tests.integration.write.helpers import facts, query, written


def test_private_memories_are_seen_only_by_their_owner(live, ctx, make_key) -> None:
    with live.client(ctx["key"]) as alice:
        written(facts(alice, ctx["id"], "My favourite food is durian.", visibility="private"))
        written(facts(alice, ctx["id"], "My favourite drink is mate."))
        mine = query(alice, ctx["id"], "favourite durian mate", limit=50)
    bob_key = make_key(ctx["id"], ["memory_read"], subject="bob")
    with live.client(bob_key) as bob:
        theirs = query(bob, ctx["id"], "favourite durian mate", limit=50)
        profile = bob.get(f"/api/v1/{ctx['id']}/profile", params={"entity": "user"}).json()
    assert any("durian" in h["text"] for h in mine)
    assert theirs and not any("durian" in h["text"] for h in theirs)
    assert [a["content"]["value"] for a in profile["attributes"]] == ["mate"]


def test_a_key_reads_only_inside_its_scope(live, ctx, make_key) -> None:
    with live.client(ctx["key"]) as alice:
        written(facts(alice, ctx["id"], "I live in Lisbon.", scope=["org/a"]))
        written(facts(alice, ctx["id"], "I live in Quito.", scope=["org/b"]))
    key = make_key(ctx["id"], ["memory_read"], subject="dora", scope="org/a")
    with live.client(key) as dora:
        hits = query(dora, ctx["id"], "where does the user live", limit=50)
        assert hits and all(h["scope"]["path"] == "org/a" for h in hits)
        assert (
            dora.post(
                f"/api/v1/{ctx['id']}/query", json={"query": "live", "scope": ["org/b"]}
            ).status_code
            == 403
        )
        narrowed = query(dora, ctx["id"], "live", scope=["org/a"])
        assert all(h["scope"]["path"] == "org/a" for h in narrowed)


def test_query_by_get_filters_kinds_and_limits(alice, ctx) -> None:
    written(facts(alice, ctx["id"], "I'm Alice, CTO at Acme. I love jazz."))
    resp = alice.get(
        f"/api/v1/{ctx['id']}/query",
        params={"query": "Alice jazz", "kinds": ["attribute"], "limit": 1},
    )
    hits = resp.json()["hits"]
    assert resp.status_code == 200 and len(hits) == 1 and hits[0]["kind"] == "attribute"
    assert (
        alice.get(f"/api/v1/{ctx['id']}/query", params={"query": "x", "limit": 101}).status_code
        == 400
    )


def test_superseded_memories_appear_only_when_asked_for(alice, ctx) -> None:
    written(facts(alice, ctx["id"], "I live in Lisbon."))
    written(facts(alice, ctx["id"], "I live in Quito."))
    body = {"kinds": ["relation"], "limit": 10}
    now = query(alice, ctx["id"], "user lives in", **body)
    both = query(alice, ctx["id"], "user lives in", includeSuperseded=True, **body)
    assert [h["text"] for h in now] == ["user lives in Quito"]
    assert {h["text"] for h in both} == {"user lives in Quito", "user lives in Lisbon"}
    assert [h.get("superseded", False) for h in both if "Lisbon" in h["text"]] == [True]


def test_profile_of_an_unknown_entity_is_404(alice, ctx) -> None:
    resp = alice.get(f"/api/v1/{ctx['id']}/profile", params={"entity": "Nobody"})
    assert resp.status_code == 404


def test_state_lists_instructions_uncertainties_and_actions(alice, ctx) -> None:
    written(facts(alice, ctx["id"], "Always answer in French. Never use emoji."))
    state = alice.get(f"/api/v1/{ctx['id']}/state").json()
    assert {i["content"]["description"] for i in state["instructions"]} == {
        "Always answer in French",
        "Never use emoji",
    }
    assert state["uncertainties"] == [] and state["actions"] == []


def test_every_returned_memory_is_counted_once_per_request_and_day(alice, ctx, sql) -> None:
    written(facts(alice, ctx["id"], "I'm Alice, CTO at Acme."))
    first = [h["id"] for h in query(alice, ctx["id"], "Alice CTO Acme") if h["kind"] != "chunk"]
    query(alice, ctx["id"], "Alice CTO Acme")
    counted = dict(sql("SELECT record_id::text, hits FROM recall_event WHERE day = current_date"))
    assert first and all(counted[i] == 2 for i in first)
    profile = alice.get(f"/api/v1/{ctx['id']}/profile", params={"entity": "Alice"}).json()
    assert dict(sql("SELECT record_id::text, hits FROM recall_event"))[profile["entity"]["id"]] >= 1
    chunk_ids = {h["id"] for h in query(alice, ctx["id"], "Alice") if h["kind"] == "chunk"}
    assert not chunk_ids & set(dict(sql("SELECT record_id::text, hits FROM recall_event")))


def test_traffic_is_counted_in_its_own_transaction_never_inside_a_callers(db_url, sql) -> None:
    async def count_inside_a_transaction() -> None:
        conn = await psycopg.AsyncConnection.connect(db_url, autocommit=True)
        async with conn, conn.transaction():
            await traffic.count(conn, uuid.uuid4(), [uuid.uuid4()])

    with pytest.raises(RuntimeError, match="own transaction"):
        asyncio.run(count_inside_a_transaction())
    assert sql("SELECT count(*) FROM recall_event") == [(0,)]
