"""Recall through the use cases (/query, /profile, /state): scope, visibility and grants;
recall traffic."""

from __future__ import annotations

import asyncio
import uuid

import psycopg
import pytest

from memwarden.retrieval import traffic
from tests.service.usecases import facts, profile, query, refused, state


def test_private_memories_are_seen_only_by_their_owner(svc, ctx) -> None:
    facts(svc, ctx, "My favourite food is durian.", visibility="private")
    facts(svc, ctx, "My favourite drink is mate.")
    mine = query(svc, ctx, "favourite durian mate", limit=50)
    bob = svc.add_key(ctx.id, ["memory_read"], subject="bob")
    theirs = query(svc, bob, "favourite durian mate", limit=50)
    seen = profile(svc, bob, "alice")  # alice's speaker entity, by the name it carries
    assert any("durian" in h["text"] for h in mine)
    assert theirs and not any("durian" in h["text"] for h in theirs)
    assert [a["content"]["value"] for a in seen["attributes"]] == ["mate"]


def test_a_key_reads_only_inside_its_scope(svc, ctx) -> None:
    facts(svc, ctx, "I live in Lisbon.", scope=["org/a"])
    facts(svc, ctx, "I live in Quito.", scope=["org/b"])
    dora = svc.add_key(ctx.id, ["memory_read"], subject="dora", scope="org/a")
    hits = query(svc, dora, "where does the user live", limit=50)
    assert hits and all(h["scope"]["path"] == "org/a" for h in hits)
    with refused(403):
        query(svc, dora, "live", scope=["org/b"])
    narrowed = query(svc, dora, "live", scope=["org/a"])
    assert all(h["scope"]["path"] == "org/a" for h in narrowed)


def test_superseded_memories_appear_only_when_asked_for(svc, ctx) -> None:
    facts(svc, ctx, "I live in Lisbon.")
    facts(svc, ctx, "I live in Quito.")
    body = {"kinds": ["relation"], "limit": 10}
    now = query(svc, ctx, "user lives in", **body)
    both = query(svc, ctx, "user lives in", include_superseded=True, **body)
    assert [h["text"] for h in now] == ["alice lives in Quito"]
    assert {h["text"] for h in both} == {"alice lives in Quito", "alice lives in Lisbon"}
    assert [h.get("superseded", False) for h in both if "Lisbon" in h["text"]] == [True]


def test_profile_of_an_unknown_entity_is_404(svc, ctx) -> None:
    with refused(404):
        profile(svc, ctx, "Nobody")


def test_state_lists_instructions_uncertainties_and_actions(svc, ctx) -> None:
    facts(svc, ctx, "Always answer in French. Never use emoji.")
    found = state(svc, ctx)
    assert {i["content"]["description"] for i in found["instructions"]} == {
        "Always answer in French",
        "Never use emoji",
    }
    assert found["uncertainties"] == [] and found["actions"] == []


def test_every_returned_memory_is_counted_once_per_request_and_day(svc, ctx, sql) -> None:
    facts(svc, ctx, "I'm Alice, CTO at Acme.")
    first = [h["id"] for h in query(svc, ctx, "Alice CTO Acme") if h["kind"] != "chunk"]
    query(svc, ctx, "Alice CTO Acme")
    counted = dict(sql("SELECT record_id::text, hits FROM recall_event WHERE day = current_date"))
    assert first and all(counted[i] == 2 for i in first)
    seen = profile(svc, ctx, "Alice")
    assert dict(sql("SELECT record_id::text, hits FROM recall_event"))[seen["entity"]["id"]] >= 1
    chunk_ids = {h["id"] for h in query(svc, ctx, "Alice") if h["kind"] == "chunk"}
    assert not chunk_ids & set(dict(sql("SELECT record_id::text, hits FROM recall_event")))


def test_traffic_is_counted_in_its_own_transaction_never_inside_a_callers(db_url, sql) -> None:
    async def count_inside_a_transaction() -> None:
        conn = await psycopg.AsyncConnection.connect(db_url, autocommit=True)
        async with conn, conn.transaction():
            await traffic.count(conn, uuid.uuid4(), [uuid.uuid4()])

    with pytest.raises(RuntimeError, match="own transaction"):
        asyncio.run(count_inside_a_transaction())
    assert sql("SELECT count(*) FROM recall_event") == [(0,)]
