"""The eligibility diagnostic (its use case) names the first transitive source that blocks
serving."""

from __future__ import annotations

from tests.integration.review.helpers import PRIVATE
from tests.service.review.memory import Who, create, decide, eligibility, read, search_ids
from tests.service.usecases import refused


def diagnose(who: Who, rid: str, **kw):
    return eligibility(who, rid, **kw)


def link(sql, rid: str, *sources: str) -> None:
    sql("UPDATE memory_record SET derived_from = %s::uuid[] WHERE id = %s", (list(sources), rid))


def test_a_record_without_sources_reports_its_own_state(alice: Who) -> None:
    rid, rev = create(alice, "standalone")
    assert diagnose(alice, rid) == {
        "contract_version": 1,
        "record_id": rid,
        "servable": True,
        "blocking": None,
    }
    decide(alice, rid, rev, disposition="rejected")
    assert diagnose(alice, rid)["blocking"] == {
        "record_id": rid,
        "reason": "rejected",
        "depth": 0,
    }


def test_the_first_blocking_source_is_found_breadth_first(alice: Who, sql) -> None:
    derived, _ = create(alice, "a summary of two notes")
    left, _ = create(alice, "left source")
    right, _ = create(alice, "right source")
    deep, deep_rev = create(alice, "a deep source")
    link(sql, derived, left, right)
    link(sql, left, deep)
    sql("UPDATE memory_record SET serving = 'held' WHERE id = %s", (right,))
    decide(alice, deep, deep_rev, disposition="rejected")
    body = diagnose(alice, derived)
    assert body["servable"] is False
    assert body["blocking"] == {"record_id": right, "reason": "held", "depth": 1}
    sql("UPDATE memory_record SET serving = 'live' WHERE id = %s", (right,))
    assert diagnose(alice, derived)["blocking"] == {
        "record_id": deep,
        "reason": "rejected",
        "depth": 2,
    }


def test_a_derived_record_with_a_blocked_source_is_not_served(alice: Who, sql) -> None:
    derived, _ = create(alice, "pelican summary")
    source, rev = create(alice, "pelican source")
    link(sql, derived, source)
    assert read(alice, derived)["record"]["id"] == derived
    decide(alice, source, rev, disposition="rejected")
    with refused(404):
        read(alice, derived)
    assert search_ids(alice, query="pelican") == []


def test_cycles_of_sources_end_and_stay_servable(alice: Who, sql) -> None:
    a, _ = create(alice, "a")
    b, _ = create(alice, "b")
    link(sql, a, b)
    link(sql, b, a)
    assert diagnose(alice, a)["servable"] is True
    assert read(alice, a)["record"]["id"] == a


def test_a_blocking_source_the_reviewer_may_not_see_is_reported_as_restricted(
    alice: Who, who_for, sql
) -> None:
    derived, _ = create(alice, "shared summary")
    secret, rev = create(alice, "alice only", scope=PRIVATE)
    link(sql, derived, secret)
    decide(alice, secret, rev, disposition="rejected", scope=PRIVATE)
    bob = who_for(["memory_review"])
    assert diagnose(bob, derived)["blocking"] == {
        "record_id": secret,
        "reason": "restricted",
        "depth": 1,
    }
    assert diagnose(alice, derived)["blocking"]["reason"] == "rejected"


def test_the_diagnostic_needs_memory_review(alice: Who, who_for) -> None:
    rid, _ = create(alice, "x")
    reader = who_for(["memory_read", "memory_write"])
    with refused(403):
        diagnose(reader, rid)
    with refused(404):
        diagnose(alice, "00000000-0000-4000-8000-000000000001")
