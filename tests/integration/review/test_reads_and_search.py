"""Search over HTTP: a malformed body is 400. What reads and search serve is checked
through the use cases in tests/service/review/test_reads_and_search.py."""

from __future__ import annotations

import httpx
import pytest

from tests.integration.review.helpers import (
    search,
)

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
