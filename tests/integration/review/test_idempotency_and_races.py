"""Idempotent retries and competing decisions, against the real server and database: the
retries that depend on per-request authentication, the feed, and real concurrent
requests. The other retry rules are checked in tests/service/review/test_idempotency.py."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import httpx

from tests.integration.review.helpers import (
    create,
    decide,
    decide_body,
    error_code,
    ok,
    state,
)


def test_a_retry_with_the_same_key_returns_the_original_receipt(alice: httpx.Client) -> None:
    rid, rev = create(alice, "x")
    first = ok(decide(alice, rid, rev, idempotency_key="retry-1"))
    again = ok(decide(alice, rid, rev, idempotency_key="retry-1"))
    assert again == first
    changes = alice.get("/api/v1/memory/changes").json()["changes"]
    assert [c["entry_type"] for c in changes] == ["created", "reviewed"]


def test_a_retry_with_a_revoked_key_is_401(
    alice: httpx.Client, admin: httpx.Client, ctx: dict
) -> None:
    rid, rev = create(alice, "x")
    ok(decide(alice, rid, rev, idempotency_key="k"))
    ok(admin.delete(f"/api/v1/contexts/{ctx['id']}/keys/{ctx['key_id']}"))
    assert decide(alice, rid, rev, idempotency_key="k").status_code == 401


def test_a_retry_after_losing_the_review_grant_is_403(
    alice: httpx.Client, client_for, ctx: dict, sql
) -> None:
    rid, rev = create(alice, "x")
    bob = client_for(["memory_review"])
    ok(decide(bob, rid, rev, idempotency_key="k"))
    sql(
        "DELETE FROM principal_grant g USING principal p WHERE g.context_id = p.context_id"
        " AND g.principal_id = p.id AND p.subject = 'bob' AND g.capability = 'memory_review'"
    )
    resp = decide(bob, rid, rev, idempotency_key="k")
    assert resp.status_code == 403


def test_of_sixteen_competing_decisions_exactly_one_wins(live, ctx: dict) -> None:
    with live.client(ctx["key"]) as alice:
        rid, rev = create(alice, "contested")
    barrier = Barrier(16)

    def attempt(i: int) -> int:
        with live.client(ctx["key"]) as client:
            barrier.wait()
            body = decide_body(rid, rev, disposition=("approved", "rejected")[i % 2])
            return client.post("/api/v1/memory/reviews", json=body).status_code

    with ThreadPoolExecutor(16) as pool:
        codes = list(pool.map(attempt, range(16)))
    assert sorted(codes) == [200] + [409] * 15
    with live.client(ctx["key"]) as alice:
        changes = alice.get("/api/v1/memory/changes").json()["changes"]
    assert [c["entry_type"] for c in changes] == ["created", "reviewed"]


def test_concurrent_identical_retries_all_return_the_same_receipt(live, ctx: dict) -> None:
    with live.client(ctx["key"]) as alice:
        rid, rev = create(alice, "retried")
    barrier = Barrier(12)

    def attempt(_: int) -> httpx.Response:
        with live.client(ctx["key"]) as client:
            barrier.wait()
            return decide(client, rid, rev, idempotency_key="lost-response")

    with ThreadPoolExecutor(12) as pool:
        responses = list(pool.map(attempt, range(12)))
    assert {r.status_code for r in responses} == {200}
    assert len({r.json()["receipt"]["receipt_id"] for r in responses}) == 1


def test_concurrent_uses_of_one_key_on_two_records_give_one_receipt_and_one_conflict(
    live, ctx: dict
) -> None:
    with live.client(ctx["key"]) as alice:
        targets = [create(alice, "one"), create(alice, "two")]
    for round_no in range(3):
        barrier = Barrier(2)
        key = f"race-{round_no}"

        def attempt(
            target: tuple[str, int], key: str = key, barrier: Barrier = barrier
        ) -> httpx.Response:
            with live.client(ctx["key"]) as client:
                barrier.wait()
                return decide(client, target[0], target[1], idempotency_key=key)

        with ThreadPoolExecutor(2) as pool:
            responses = list(pool.map(attempt, targets))
        assert sorted(r.status_code for r in responses) == [200, 409]
        loser = next(r for r in responses if r.status_code == 409)
        assert error_code(loser) == "idempotency_conflict"
        with live.client(ctx["key"]) as alice:
            targets = [(rid, ok(state(alice, rid))["state"]["revision"]) for rid, _ in targets]
