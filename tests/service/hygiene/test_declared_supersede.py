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
    out = facts(svc, ctx, "I love jazz.", scope=["team/a/sub"], supersedes=[uuid.UUID(old)])
    assert out["supersedes"] == [{"id": old, "applied": True, "reason": None}]
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
    out = facts(svc, ctx, "I'm Alice, CEO at Acme.", scope=["team/a/sub"])
    offered = {c["id"] for entry in out["supersedeCandidates"] for c in entry["candidates"]}
    assert old in offered
    # Beside it, the same record is no candidate: the write's records could not replace it.
    beside = facts(svc, ctx, "I'm Alice, CFO at Acme.", scope=["team/b"])
    assert old not in {c["id"] for e in beside["supersedeCandidates"] for c in e["candidates"]}
    entry = out["supersedeCandidates"][0]
    assert entry["recordId"] and {"id", "kind", "text", "similarity"} <= set(entry["candidates"][0])


def test_supersede_candidates_never_cross_a_provable_project_boundary(
    svc: ServiceHarness, ctx: ContextKey
) -> None:
    facts(svc, ctx, "I'm Alice, CTO at Acme.", scope=["project/falcon"])
    out = facts(svc, ctx, "I'm Alice, CEO at Acme.", scope=["project/osprey"])
    assert out["supersedeCandidates"] == []


def _live(sql: Callable[..., list[tuple]], record_id: str) -> bool:
    return sql("SELECT serving::text FROM memory_record WHERE id = %s", (record_id,)) == [("live",)]


def test_a_declared_supersede_the_write_could_not_replace_is_refused_before_it_is_judged(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    facts(svc, ctx, "I love jazz.", scope=["team/a"])
    old = _attribute(sql, ctx.id)
    turns = sql("SELECT count(*) FROM turn")
    with refused(409, "replacement_refused", "supersedes") as raised:
        facts(svc, ctx, "I love tea.", scope=["team/b"], supersedes=[uuid.UUID(old)])
    assert raised.value.extra["reason"] == "replacement_outside_scope"
    with refused(409, "replacement_refused", "supersedes") as raised:
        facts(
            svc,
            ctx,
            "I love tea.",
            scope=["team/a"],
            visibility="private",
            supersedes=[uuid.UUID(old)],
        )
    assert raised.value.extra["reason"] == "replacement_other_visibility"
    with refused(409, "replacement_refused", "supersedes"):
        facts(svc, ctx, "I love tea.", supersedes=[uuid.UUID(old)])  # the root is above it
    assert sql("SELECT count(*) FROM turn") == turns
    assert _live(sql, old)


def test_a_held_write_replaces_nothing_it_declares_and_a_rejection_leaves_it_served(
    services_with: Callable[..., ServiceHarness], sql: Callable[..., list[tuple]]
) -> None:
    from tests.service.usecases import decide_hold
    from tests.service.write.gatekeepers import HoldEverything

    plain = services_with()
    ctx = plain.make_context(subject="alice")
    facts(plain, ctx, "I love jazz.")
    old = _attribute(sql, ctx.id)
    held = services_with(gatekeeper=HoldEverything())
    out = facts(held, ctx, "I love tea.", supersedes=[uuid.UUID(old)])
    assert out["held"] is True
    assert out["supersedes"] == [{"id": old, "applied": False, "reason": "held"}]
    assert _live(sql, old)
    (jid,) = sql("SELECT id::text FROM judgement WHERE held")[0]
    decide_hold(plain, ctx, jid, approve=False)
    assert _live(sql, old)


def test_an_approved_hold_leaves_the_declared_record_served_beside_it(
    services_with: Callable[..., ServiceHarness], sql: Callable[..., list[tuple]]
) -> None:
    from tests.service.usecases import decide_hold
    from tests.service.write.gatekeepers import HoldEverything

    plain = services_with()
    ctx = plain.make_context(subject="alice")
    facts(plain, ctx, "I love jazz.")
    old = _attribute(sql, ctx.id)
    held = services_with(gatekeeper=HoldEverything())
    facts(held, ctx, "I love tea.", supersedes=[uuid.UUID(old)])
    (jid,) = sql("SELECT id::text FROM judgement WHERE held")[0]
    decide_hold(plain, ctx, jid, approve=True)
    assert _live(sql, old)
    assert sql("SELECT count(*) FROM memory_record WHERE serving = 'superseded'") == [(0,)]


def test_a_write_that_stores_nothing_new_keeps_the_record_it_declares(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    facts(svc, ctx, "I love jazz.")
    old = _attribute(sql, ctx.id)
    out = facts(svc, ctx, "I love jazz.", supersedes=[uuid.UUID(old)])
    assert out["supersedes"] == [{"id": old, "applied": False, "reason": "no_replacement"}]
    assert _live(sql, old)


def test_a_declared_record_is_replaced_by_the_writes_record_of_its_own_kind(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    facts(svc, ctx, "I live in Oslo.")
    [(old,)] = sql("SELECT id::text FROM memory_record WHERE kind = 'relation'")
    facts(svc, ctx, "I love tea. I work at Acme.", supersedes=[uuid.UUID(old)])
    [(kind,)] = sql(
        "SELECT n.kind FROM memory_record o JOIN memory_record n ON n.id = o.superseded_by "
        "WHERE o.id = %s",
        (old,),
    )
    assert kind == "relation"


def test_a_declared_record_the_write_itself_replaces_is_reported_replaced_not_refused(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    facts(svc, ctx, "I live in Lisbon.")
    [(old,)] = sql(
        "SELECT id::text FROM memory_record WHERE context_id = %s AND kind = 'relation' "
        "AND serving = 'live'",
        (ctx.id,),
    )
    out = facts(svc, ctx, "I live in Porto.", supersedes=[uuid.UUID(old)])
    [(serving, by)] = sql(
        "SELECT serving::text, superseded_by::text FROM memory_record WHERE id = %s", (old,)
    )
    assert serving == "superseded"
    [(new_body,)] = sql("SELECT body FROM memory_record WHERE id = %s", (by,))
    assert "Porto" in new_body
    assert out["supersedes"] == [{"id": old, "applied": True, "reason": None}]
    audit = sql("SELECT count(*) FROM audit_event WHERE action = 'memory.declared_supersede'")
    assert audit == [(1,)]
