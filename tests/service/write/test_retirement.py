"""`retirement.retire` reads both records as its transaction sees them, asks the replacement
rule, and supersedes only when it allows (issue 23, item 2)."""

from __future__ import annotations

import uuid
from collections.abc import Callable

from memwarden.retirement import Retirement, retire
from tests.service.usecases import facts
from tests.support.services import ContextKey, ServiceHarness


def _attributes(sql: Callable[..., list[tuple]], context_id: uuid.UUID) -> dict[str, uuid.UUID]:
    rows = sql(
        "SELECT content->>'value', id FROM memory_record WHERE context_id = %s "
        "AND kind = 'attribute'",
        (context_id,),
    )
    return {value: rid for value, rid in rows}


def _retire(h: ServiceHarness, ctx: ContextKey, old: uuid.UUID, new: uuid.UUID) -> Retirement:
    async def go() -> Retirement:
        async with h.services.db.transaction() as conn:
            return await retire(conn, ctx.id, old, new, "test", cause="correction")

    return h.run(go())


def _serving(sql: Callable[..., list[tuple]], rid: uuid.UUID) -> str:
    return sql("SELECT serving::text FROM memory_record WHERE id = %s", (rid,))[0][0]


def test_a_record_in_the_same_scope_retires_another_with_history(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    facts(svc, ctx, "I love jazz. I love tea.", scope=["team/a"])
    ids = _attributes(sql, ctx.id)
    done = _retire(svc, ctx, ids["jazz"], ids["tea"])
    assert done.applied and done.refused is None
    assert _serving(sql, ids["jazz"]) == "superseded"
    last = sql(
        "SELECT op, cause, replaced_by FROM memory_revision WHERE record_id = %s"
        " ORDER BY revision DESC LIMIT 1",
        (ids["jazz"],),
    )
    assert last == [("supersede", "correction", ids["tea"])]


def test_a_replacement_outside_the_retired_scope_or_not_served_changes_nothing(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    facts(svc, ctx, "I love jazz.", scope=["team/a"])
    facts(svc, ctx, "I love tea.", scope=["team/b"])
    facts(svc, ctx, "I love rain.", scope=["team/a"], visibility="private")
    ids = _attributes(sql, ctx.id)
    assert _retire(svc, ctx, ids["jazz"], ids["tea"]).refused == "replacement_outside_scope"
    assert _retire(svc, ctx, ids["jazz"], ids["rain"]).refused == "replacement_other_visibility"
    sql("UPDATE memory_record SET serving = 'deleted' WHERE id = %s", (ids["tea"],))
    assert _retire(svc, ctx, ids["jazz"], ids["tea"]).refused == "replacement_not_served"
    assert _retire(svc, ctx, ids["jazz"], uuid.uuid4()).refused == "replacement_not_served"
    assert _serving(sql, ids["jazz"]) == "live"


def test_a_derived_record_never_retires_a_record_it_was_built_from(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    facts(svc, ctx, "I love jazz. I love tea.", scope=["team/a"])
    ids = _attributes(sql, ctx.id)
    # tea becomes a summary built from jazz.
    sql(
        "UPDATE memory_record SET source_kind = 'rollup', derived_from = %s WHERE id = %s",
        ([ids["jazz"]], ids["tea"]),
    )
    assert _retire(svc, ctx, ids["jazz"], ids["tea"]).refused == "replacement_derived_from_it"
    assert _serving(sql, ids["jazz"]) == "live"
