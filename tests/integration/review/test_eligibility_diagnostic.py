"""The eligibility diagnostic names the first transitive source that blocks serving."""

from __future__ import annotations

import httpx

from tests.integration.review.helpers import (
    PRIVATE,
    create,
    decide,
    ok,
    post,
    read,
    search_ids,
)


def diagnose(client: httpx.Client, rid: str, **kw) -> httpx.Response:
    return post(client, "reviews/eligibility", record_id=rid, **kw)


def link(sql, rid: str, *sources: str) -> None:
    sql("UPDATE memory_record SET derived_from = %s::uuid[] WHERE id = %s", (list(sources), rid))


def test_a_record_without_sources_reports_its_own_state(alice: httpx.Client) -> None:
    rid, rev = create(alice, "standalone")
    assert ok(diagnose(alice, rid)) == {
        "contract_version": 1,
        "record_id": rid,
        "servable": True,
        "blocking": None,
    }
    ok(decide(alice, rid, rev, disposition="rejected"))
    assert ok(diagnose(alice, rid))["blocking"] == {
        "record_id": rid,
        "reason": "rejected",
        "depth": 0,
    }


def test_the_first_blocking_source_is_found_breadth_first(alice: httpx.Client, sql) -> None:
    derived, _ = create(alice, "a summary of two notes")
    left, _ = create(alice, "left source")
    right, _ = create(alice, "right source")
    deep, deep_rev = create(alice, "a deep source")
    link(sql, derived, left, right)
    link(sql, left, deep)
    sql("UPDATE memory_record SET serving = 'held' WHERE id = %s", (right,))
    ok(decide(alice, deep, deep_rev, disposition="rejected"))
    body = ok(diagnose(alice, derived))
    assert body["servable"] is False
    assert body["blocking"] == {"record_id": right, "reason": "held", "depth": 1}
    sql("UPDATE memory_record SET serving = 'live' WHERE id = %s", (right,))
    assert ok(diagnose(alice, derived))["blocking"] == {
        "record_id": deep,
        "reason": "rejected",
        "depth": 2,
    }


def test_a_derived_record_with_a_blocked_source_is_not_served(alice: httpx.Client, sql) -> None:
    derived, _ = create(alice, "pelican summary")
    source, rev = create(alice, "pelican source")
    link(sql, derived, source)
    assert ok(read(alice, derived))["record"]["id"] == derived
    ok(decide(alice, source, rev, disposition="rejected"))
    assert read(alice, derived).status_code == 404
    assert search_ids(alice, query="pelican") == []


def test_cycles_of_sources_end_and_stay_servable(alice: httpx.Client, sql) -> None:
    a, _ = create(alice, "a")
    b, _ = create(alice, "b")
    link(sql, a, b)
    link(sql, b, a)
    assert ok(diagnose(alice, a))["servable"] is True
    assert ok(read(alice, a))["record"]["id"] == a


def test_a_blocking_source_the_reviewer_may_not_see_is_reported_as_restricted(
    alice: httpx.Client, client_for, sql
) -> None:
    derived, _ = create(alice, "shared summary")
    secret, rev = create(alice, "alice only", scope=PRIVATE)
    link(sql, derived, secret)
    ok(decide(alice, secret, rev, disposition="rejected", scope=PRIVATE))
    bob = client_for(["memory_review"])
    assert ok(diagnose(bob, derived))["blocking"] == {
        "record_id": secret,
        "reason": "restricted",
        "depth": 1,
    }
    assert ok(diagnose(alice, derived))["blocking"]["reason"] == "rejected"


def test_the_diagnostic_needs_memory_review(alice: httpx.Client, client_for) -> None:
    rid, _ = create(alice, "x")
    reader = client_for(["memory_read", "memory_write"])
    assert diagnose(reader, rid).status_code == 403
    assert diagnose(alice, "00000000-0000-4000-8000-000000000001").status_code == 404
