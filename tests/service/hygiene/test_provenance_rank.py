"""Every record carries its provenance rank from the moment it is written (issue 11, item 3)."""

from __future__ import annotations

from collections.abc import Callable

from tests.service.review.memory import Who, create, decide
from tests.service.usecases import facts
from tests.support.services import ContextKey, ServiceHarness


def _ranks(sql: Callable[..., list[tuple]], context_id: object) -> dict[str, set[int]]:
    rows = sql(
        "SELECT source_kind, provenance_rank FROM memory_record WHERE context_id = %s",
        (context_id,),
    )
    found: dict[str, set[int]] = {}
    for kind, rank in rows:
        found.setdefault(kind, set()).add(rank)
    return found


def test_agent_captures_are_provisional_and_application_commands_authoritative(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    facts(svc, ctx, "I'm Alice, CTO at Acme.")
    create(Who.of(svc, ctx), "the deploy key rotates monthly")
    assert _ranks(sql, ctx.id) == {"turn": {1}, "command": {2}}


def test_a_reviewer_approval_makes_a_capture_authoritative(
    svc: ServiceHarness, ctx: ContextKey, sql: Callable[..., list[tuple]]
) -> None:
    facts(svc, ctx, "I'm Alice, CTO at Acme.", scope=["project/p1/agent/a1"])
    rid, revision = sql(
        "SELECT id, revision FROM memory_record WHERE context_id = %s AND kind = 'attribute'",
        (ctx.id,),
    )[0]
    decide(Who.of(svc, ctx), str(rid), revision, disposition="approved")
    assert sql("SELECT provenance_rank FROM memory_record WHERE id = %s", (rid,)) == [(2,)]
