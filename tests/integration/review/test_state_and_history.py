"""The change feed's reviewed entries. State and receipts are checked through the use
cases in tests/service/review/test_state_and_history.py."""

from __future__ import annotations

import httpx

from tests.integration.review.helpers import (
    create,
    decide,
    ok,
    post,
)


def receipt_at(client: httpx.Client, rid: str, revision: int, **kw) -> httpx.Response:
    return post(client, "reviews/read", record_id=rid, revision=revision, **kw)


def test_the_change_feed_marks_decision_revisions_as_reviewed(alice: httpx.Client) -> None:
    rid, rev = create(alice, "x")
    decisions = []
    for disposition in ("approved", "rejected", "unreviewed"):
        rev = ok(decide(alice, rid, rev, disposition=disposition))["receipt"]["revision"]
        decisions.append(rev)
    changes = alice.get("/api/v1/memory/changes", params={"after": 1}).json()["changes"]
    assert [(c["entry_type"], c["revision"]) for c in changes] == [
        ("reviewed", r) for r in decisions
    ]
