"""Search over HTTP: a malformed body is 400. What reads and search serve is checked
through the use cases in tests/service/review/test_reads_and_search.py."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest

from tests.integration.review.helpers import create, decide, ok, read, search

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
BLOCKING_UPDATES = {
    "expired": "expires_at = now() - interval '1 minute'",
    "held": "serving = 'held'",
    "superseded": "serving = 'superseded'",
    "invalidated": "valid_to = now() - interval '1 minute'",
    "rejected": "review_disposition = 'rejected'",
    "deleted": "serving = 'deleted', deleted_at = now()",
}


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
