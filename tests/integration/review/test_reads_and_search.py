"""Direct reads and text/filter search: the serving gate, scope and private ownership."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest

from tests.integration.review.helpers import (
    PRIVATE,
    SCOPE,
    command,
    create,
    decide,
    ok,
    read,
    search,
    search_ids,
)

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
BLOCKING_UPDATES = {
    "expired": "expires_at = now() - interval '1 minute'",
    "held": "serving = 'held'",
    "superseded": "serving = 'superseded'",
    "invalidated": "valid_to = now() - interval '1 minute'",
    "rejected": "review_disposition = 'rejected'",
    "deleted": "serving = 'deleted', deleted_at = now()",
}


@pytest.mark.parametrize("reason", sorted(BLOCKING_UPDATES))
def test_an_unservable_record_is_404_to_reads_and_absent_from_search(
    alice: httpx.Client, sql, reason: str
) -> None:
    rid, _ = create(alice, "the lighthouse keeper logs storms")
    keep, _ = create(alice, "the lighthouse has a red lamp")
    sql(f"UPDATE memory_record SET {BLOCKING_UPDATES[reason]} WHERE id = %s", (rid,))
    assert read(alice, rid).status_code == 404
    assert search_ids(alice, query="lighthouse") == [keep]
    assert search_ids(alice) == [keep]


def test_an_approved_record_stays_servable(alice: httpx.Client) -> None:
    rid, rev = create(alice, "approved fact")
    ok(decide(alice, rid, rev, disposition="approved"))
    assert search_ids(alice, query="approved fact") == [rid]


def test_reads_need_memory_read(alice: httpx.Client, client_for) -> None:
    rid, _ = create(alice, "x")
    writer = client_for(["memory_write", "memory_review"])
    assert read(writer, rid).status_code == 403
    assert search(writer, query="x").status_code == 403


def test_a_key_scoped_elsewhere_gets_403_and_a_narrower_key_sees_only_its_part(
    alice: httpx.Client, client_for
) -> None:
    a1, _ = create(alice, "agent one remembers tea")
    a2, _ = create(alice, "agent two remembers tea", scope={**SCOPE, "agent_id": "a2"})
    project = {**SCOPE, "agent_id": None}
    elsewhere = client_for(["memory_read"], scope="project/p2")
    assert read(elsewhere, a1, scope=project).status_code == 403
    narrow = client_for(["memory_read"], subject="carol", scope="project/p1/agent/a1")
    assert ok(read(narrow, a1, scope=project))["record"]["id"] == a1
    assert read(narrow, a2, scope=project).status_code == 404
    assert search_ids(narrow, scope=project, query="tea") == [a1]
    assert sorted(search_ids(alice, scope=project, query="tea")) == sorted([a1, a2])


def test_a_record_is_404_when_read_through_another_scope(alice: httpx.Client) -> None:
    rid, _ = create(alice, "x")
    assert read(alice, rid, scope={**SCOPE, "agent_id": "a2"}).status_code == 404
    assert read(alice, rid, scope=PRIVATE).status_code == 404


def test_private_records_are_served_only_to_their_owner(alice: httpx.Client, client_for) -> None:
    mine, _ = create(alice, "my private diary entry", scope=PRIVATE)
    shared, _ = create(alice, "a shared diary entry")
    bob = client_for(["memory_read", "memory_write", "memory_review"])
    assert read(bob, mine, scope=PRIVATE).status_code == 404
    assert search_ids(bob, scope=PRIVATE, query="diary") == []
    assert search_ids(bob, query="diary") == [shared]
    assert search_ids(alice, scope=PRIVATE, query="diary") == [mine]
    assert ok(read(alice, mine, scope=PRIVATE))["record"]["scope"]["visibility"] == "private"


def test_text_search_ranks_by_relevance_and_honours_the_limit(alice: httpx.Client) -> None:
    strong, _ = create(alice, "rust compiler rust borrow checker rust")
    weak, _ = create(alice, "a note that mentions rust once among many other words here")
    create(alice, "nothing relevant")
    body = ok(search(alice, query="rust"))
    assert body["mode"] == "lexical"
    assert [h["record"]["id"] for h in body["hits"]] == [strong, weak]
    assert body["hits"][0]["score"] > body["hits"][1]["score"] > 0
    assert body["hits"][0]["lexical_rank"] == 1
    assert search_ids(alice, query="rust", limit=1) == [strong]


def test_websearch_syntax_is_supported(alice: httpx.Client) -> None:
    both, _ = create(alice, "green tea and black coffee")
    tea, _ = create(alice, "green tea only")
    assert search_ids(alice, query='"black coffee"') == [both]
    assert search_ids(alice, query="tea -coffee") == [tea]
    assert search_ids(alice, query="the and of") == []


def test_filter_only_search_lists_the_newest_records_of_the_given_kinds(
    alice: httpx.Client, sql
) -> None:
    first, _ = create(alice, "first")
    second, _ = create(alice, "second")
    assert search_ids(alice) == [second, first]
    assert search_ids(alice, filter={"kinds": ["note"]}) == [second, first]
    assert search_ids(alice, filter={"kinds": ["entity"]}) == []
    sql("UPDATE memory_record SET memory_category = 'identity' WHERE id = %s", (first,))
    assert search_ids(alice, filter={"categories": ["identity"]}) == [first]


def test_a_rejected_records_terms_do_not_change_other_records_ranking(
    alice: httpx.Client,
) -> None:
    others = [
        create(alice, "alpha beta gamma")[0],
        create(alice, "alpha alpha delta")[0],
        create(alice, "alpha quokka epsilon")[0],
    ]
    rid, rev = create(alice, "quokka quokka quokka alpha alpha alpha quokka")

    def ranking(query: str) -> list[tuple[str, float]]:
        return [(h["record"]["id"], h["score"]) for h in ok(search(alice, query=query))["hits"]]

    before_alpha, before_quokka = ranking("alpha"), ranking("quokka")
    assert rid in dict(before_alpha) and rid in dict(before_quokka)
    ok(decide(alice, rid, rev, disposition="rejected"))
    assert ranking("alpha") == [(i, s) for i, s in before_alpha if i != rid]
    assert ranking("quokka") == [(others[2], dict(before_quokka)[others[2]])]
    assert [i for i, _ in ranking("alpha quokka")] == [others[2]]


def test_a_deleted_record_is_gone_from_search_at_once(alice: httpx.Client) -> None:
    rid, rev = create(alice, "ephemeral penguin")
    assert search_ids(alice, query="penguin") == [rid]
    ok(command(alice, "delete", record_id=rid, expected_revision=rev))
    assert search_ids(alice, query="penguin") == []


@pytest.mark.parametrize(
    "fields",
    [
        {"limit": 0},
        {"limit": 101},
        {"filter": {"kinds": ["mystery"]}},
        {"filter": {"colour": "red"}},
        {"vector": [0.1, 0.2]},
        {"sort": "newest"},
    ],
)
def test_malformed_searches_are_400(alice: httpx.Client, fields: dict) -> None:
    assert search(alice, **fields).status_code == 400


def millis(iso: str) -> int:
    return (datetime.fromisoformat(iso) - EPOCH) // timedelta(milliseconds=1)


def test_a_record_carries_modified_at_millis_that_a_decision_advances(alice) -> None:
    """Spec 3: "the record's modified_at_millis ... reflect the decision"."""
    rid, rev = create(alice, "millis")
    before = ok(read(alice, rid))["record"]
    assert before["modified_at_millis"] == millis(before["modified_at"])
    ok(decide(alice, rid, rev, disposition="approved"))
    after = ok(read(alice, rid))["record"]
    assert after["modified_at_millis"] == millis(after["modified_at"])
    assert after["modified_at_millis"] > before["modified_at_millis"]
