"""Declared supersede at write time: a writer replaces its own earlier records, no judge
involved; anything else is refused with 403 naming the field (issue 11, item 10)."""

from __future__ import annotations

import uuid
from collections.abc import Callable

from tests.service.usecases import facts, refused
from tests.support.services import ContextKey, ServiceHarness


def _attribute(sql: Callable[..., list[tuple]], context_id: uuid.UUID) -> str:
    rows = sql(
        "SELECT id::text FROM memory_record WHERE context_id = %s AND kind = 'attribute' "
        "AND serving = 'live' ORDER BY id LIMIT 1",
        (context_id,),
    )
    return rows[0][0]


def test_a_write_supersedes_the_writers_own_record_it_declares(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    facts(svc, ctx, "I'm Alice, CTO at Acme.", scope=["team/a"])
    old = _attribute(sql, ctx.id)
    facts(svc, ctx, "I love jazz.", scope=["team/b"], supersedes=[uuid.UUID(old)])
    [(serving, by)] = sql(
        "SELECT serving::text, superseded_by FROM memory_record WHERE id = %s", (old,)
    )
    assert serving == "superseded" and by is not None
    ops = sql("SELECT op FROM memory_revision WHERE record_id = %s ORDER BY revision", (old,))
    assert ops == [("create",), ("supersede",)]
    audit = sql("SELECT count(*) FROM audit_event WHERE action = 'memory.declared_supersede'")
    assert audit == [(1,)]


def test_another_principals_record_is_refused_naming_the_field_and_nothing_is_written(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    facts(svc, ctx, "I'm Alice, CTO at Acme.")
    old = _attribute(sql, ctx.id)
    bob = svc.add_key(ctx.id, ["memory_read", "memory_write"], "bob")
    turns = sql("SELECT count(*) FROM turn")
    with refused(403, field="supersedes"):
        facts(svc, bob, "I love jazz.", supersedes=[uuid.UUID(old)])
    with refused(403, field="supersedes"):
        facts(svc, ctx, "I love jazz.", supersedes=[uuid.uuid4()])
    assert sql("SELECT count(*) FROM turn") == turns
    assert sql("SELECT serving::text FROM memory_record WHERE id = %s", (old,)) == [("live",)]


def test_a_record_outside_the_keys_write_scope_is_refused(
    svc: ServiceHarness, sql: Callable[..., list[tuple]]
) -> None:
    ctx = svc.make_context()
    facts(svc, ctx, "I'm Alice, CTO at Acme.", scope=["org/acme"])
    old = _attribute(sql, ctx.id)
    narrow = svc.add_key(ctx.id, ["memory_read", "memory_write"], "alice", scope="org/globex")
    with refused(403, field="supersedes"):
        facts(svc, narrow, "I love jazz.", scope=["org/globex"], supersedes=[uuid.UUID(old)])


def test_a_write_hands_back_near_records_it_might_supersede(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    facts(svc, ctx, "I'm Alice, CTO at Acme.", scope=["team/a"])
    old = _attribute(sql, ctx.id)
    out = facts(svc, ctx, "I'm Alice, CEO at Acme.", scope=["team/b"])
    offered = {c["id"] for entry in out["supersedeCandidates"] for c in entry["candidates"]}
    assert old in offered
    entry = out["supersedeCandidates"][0]
    assert entry["recordId"] and {"id", "kind", "text", "similarity"} <= set(entry["candidates"][0])


def test_supersede_candidates_never_cross_a_provable_project_boundary(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    facts(svc, ctx, "I'm Alice, CTO at Acme.", scope=["project/falcon"])
    out = facts(svc, ctx, "I'm Alice, CEO at Acme.", scope=["project/osprey"])
    assert out["supersedeCandidates"] == []
