"""GET /query: parameters as filters and their limits. What recall returns is checked
through the use cases in tests/service/write/test_recall.py."""

from __future__ import annotations

from tests.integration.write.helpers import facts, written


def test_query_by_get_filters_kinds_and_limits(alice, ctx) -> None:
    written(facts(alice, ctx["id"], "I'm Alice, CTO at Acme. I love jazz."))
    resp = alice.get(
        f"/api/v1/{ctx['id']}/query",
        params={"query": "Alice jazz", "kinds": ["attribute"], "limit": 1},
    )
    hits = resp.json()["hits"]
    assert resp.status_code == 200 and len(hits) == 1 and hits[0]["kind"] == "attribute"
    assert (
        alice.get(f"/api/v1/{ctx['id']}/query", params={"query": "x", "limit": 101}).status_code
        == 400
    )
