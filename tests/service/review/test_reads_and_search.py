"""Direct reads and text/filter search through the use cases: the serving gate, scope and
private ownership."""

from __future__ import annotations

import pytest

from tests.integration.review.helpers import PRIVATE, SCOPE
from tests.service.review.memory import Who, command, create, decide, read, search, search_ids
from tests.service.usecases import refused

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
    alice: Who, sql, reason: str
) -> None:
    rid, _ = create(alice, "the lighthouse keeper logs storms")
    keep, _ = create(alice, "the lighthouse has a red lamp")
    sql(f"UPDATE memory_record SET {BLOCKING_UPDATES[reason]} WHERE id = %s", (rid,))
    with refused(404):
        read(alice, rid)
    assert search_ids(alice, query="lighthouse") == [keep]
    assert search_ids(alice) == [keep]


def test_an_approved_record_stays_servable(alice: Who) -> None:
    rid, rev = create(alice, "approved fact")
    decide(alice, rid, rev, disposition="approved")
    assert search_ids(alice, query="approved fact") == [rid]


def test_reads_need_memory_read(alice: Who, who_for) -> None:
    rid, _ = create(alice, "x")
    writer = who_for(["memory_write", "memory_review"])
    with refused(403):
        read(writer, rid)
    with refused(403):
        search(writer, query="x")


def test_a_key_scoped_elsewhere_gets_403_and_a_narrower_key_sees_only_its_part(
    alice: Who, who_for
) -> None:
    a1, _ = create(alice, "agent one remembers tea")
    a2, _ = create(alice, "agent two remembers tea", scope={**SCOPE, "agent_id": "a2"})
    project = {**SCOPE, "agent_id": None}
    elsewhere = who_for(["memory_read"], scope="project/p2")
    with refused(403):
        read(elsewhere, a1, scope=project)
    narrow = who_for(["memory_read"], subject="carol", scope="project/p1/agent/a1")
    assert read(narrow, a1, scope=project)["record"]["id"] == a1
    with refused(404):
        read(narrow, a2, scope=project)
    assert search_ids(narrow, scope=project, query="tea") == [a1]
    assert sorted(search_ids(alice, scope=project, query="tea")) == sorted([a1, a2])


def test_a_record_is_404_when_read_through_another_scope(alice: Who) -> None:
    rid, _ = create(alice, "x")
    with refused(404):
        read(alice, rid, scope={**SCOPE, "agent_id": "a2"})
    with refused(404):
        read(alice, rid, scope=PRIVATE)


def test_private_records_are_served_only_to_their_owner(alice: Who, who_for) -> None:
    mine, _ = create(alice, "my private diary entry", scope=PRIVATE)
    shared, _ = create(alice, "a shared diary entry")
    bob = who_for(["memory_read", "memory_write", "memory_review"])
    with refused(404):
        read(bob, mine, scope=PRIVATE)
    assert search_ids(bob, scope=PRIVATE, query="diary") == []
    assert search_ids(bob, query="diary") == [shared]
    assert search_ids(alice, scope=PRIVATE, query="diary") == [mine]
    assert read(alice, mine, scope=PRIVATE)["record"]["scope"]["visibility"] == "private"


def test_text_search_ranks_by_relevance_and_honours_the_limit(alice: Who) -> None:
    strong, _ = create(alice, "rust compiler rust borrow checker rust")
    weak, _ = create(alice, "a note that mentions rust once among many other words here")
    create(alice, "nothing relevant")
    body = search(alice, query="rust")
    assert body["mode"] == "lexical"
    assert [h["record"]["id"] for h in body["hits"]] == [strong, weak]
    assert body["hits"][0]["score"] > body["hits"][1]["score"] > 0
    assert body["hits"][0]["lexical_rank"] == 1
    assert search_ids(alice, query="rust", limit=1) == [strong]


def test_websearch_syntax_is_supported(alice: Who) -> None:
    both, _ = create(alice, "green tea and black coffee")
    tea, _ = create(alice, "green tea only")
    assert search_ids(alice, query='"black coffee"') == [both]
    assert search_ids(alice, query="tea -coffee") == [tea]
    assert search_ids(alice, query="the and of") == []


def test_filter_only_search_lists_the_newest_records_of_the_given_kinds(alice: Who, sql) -> None:
    first, _ = create(alice, "first")
    second, _ = create(alice, "second")
    assert search_ids(alice) == [second, first]
    assert search_ids(alice, filter={"kinds": ["note"]}) == [second, first]
    assert search_ids(alice, filter={"kinds": ["entity"]}) == []
    sql("UPDATE memory_record SET memory_category = 'identity' WHERE id = %s", (first,))
    assert search_ids(alice, filter={"categories": ["identity"]}) == [first]


def test_a_rejected_records_terms_do_not_change_other_records_ranking(
    alice: Who,
) -> None:
    others = [
        create(alice, "alpha beta gamma")[0],
        create(alice, "alpha alpha delta")[0],
        create(alice, "alpha quokka epsilon")[0],
    ]
    rid, rev = create(alice, "quokka quokka quokka alpha alpha alpha quokka")

    def ranking(query: str) -> list[tuple[str, float]]:
        return [(h["record"]["id"], h["score"]) for h in search(alice, query=query)["hits"]]

    before_alpha, before_quokka = ranking("alpha"), ranking("quokka")
    assert rid in dict(before_alpha) and rid in dict(before_quokka)
    decide(alice, rid, rev, disposition="rejected")
    assert ranking("alpha") == [(i, s) for i, s in before_alpha if i != rid]
    assert ranking("quokka") == [(others[2], dict(before_quokka)[others[2]])]
    assert [i for i, _ in ranking("alpha quokka")] == [others[2]]


def test_a_deleted_record_is_gone_from_search_at_once(alice: Who) -> None:
    rid, rev = create(alice, "ephemeral penguin")
    assert search_ids(alice, query="penguin") == [rid]
    command(alice, "delete", record_id=rid, expected_revision=rev)
    assert search_ids(alice, query="penguin") == []
