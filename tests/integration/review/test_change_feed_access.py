"""The change feed shows a key only the records its grants let it see (issue 10, item 13):
a narrowly scoped key must not learn the ids of records outside its scope, nor of another
subject's private records."""

from __future__ import annotations

from typing import Any

import httpx

from tests.integration.review.helpers import PRIVATE, SCOPE, create

OTHER: dict[str, Any] = {**SCOPE, "project_id": "p2"}


def feed_ids(client: httpx.Client) -> set[str]:
    resp = client.get("/api/v1/memory/changes", params={"limit": 1000})
    assert resp.status_code == 200, resp.text
    return {c["record_id"] for c in resp.json()["changes"]}


def test_a_scoped_key_sees_only_changes_inside_its_read_scope(alice, client_for) -> None:
    inside, _ = create(alice, "inside", SCOPE)
    outside, _ = create(alice, "outside", OTHER)
    narrow = client_for(["memory_read"], scope="project/p1")
    assert feed_ids(narrow) == {inside}
    assert feed_ids(alice) == {inside, outside}


def test_a_review_only_key_sees_changes_inside_its_review_scope(alice, client_for) -> None:
    inside, _ = create(alice, "inside", SCOPE)
    create(alice, "outside", OTHER)
    reviewer = client_for(["memory_review"], scope="project/p1")
    assert feed_ids(reviewer) == {inside}


def test_another_subjects_private_records_stay_out_of_the_feed(alice, client_for) -> None:
    shared, _ = create(alice, "shared", SCOPE)
    private, _ = create(alice, "mine", PRIVATE)
    bob = client_for(["memory_read", "memory_review"], subject="bob")
    assert feed_ids(bob) == {shared}
    assert feed_ids(alice) == {shared, private}
