"""One page convention on every list route: `cursor` + `limit` in, `next_cursor` out, null
exactly when there is no more (never an empty last page)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.integration.review.helpers import create


def walk(client: httpx.Client, url: str, key: str, limit: int, **params: Any) -> list[list[str]]:
    """Every page's ids, following next_cursor until it is null."""
    pages: list[list[str]] = []
    cursor: str | None = None
    while True:
        query = {**params, "limit": limit, **({"cursor": cursor} if cursor else {})}
        resp = client.get(url, params=query)
        assert resp.status_code == 200, resp.text
        body = resp.json()
        assert set(body) >= {key, "next_cursor"} and "has_more" not in body
        pages.append([str(e.get("id", e.get("seq"))) for e in body[key]])
        cursor = body["next_cursor"]
        if cursor is None:
            return pages
        assert isinstance(cursor, str)


def test_contexts_page_with_a_cursor(admin: httpx.Client) -> None:
    made = [admin.post("/api/v1/contexts", json={"name": f"c{i}"}).json()["id"] for i in range(5)]
    pages = walk(admin, "/api/v1/contexts", "contexts", 2)
    assert [len(p) for p in pages] == [2, 2, 1]
    assert [i for p in pages for i in p] == made


def test_keys_page_with_a_cursor(admin: httpx.Client, make_context) -> None:
    ctx = make_context()
    url = f"/api/v1/contexts/{ctx['id']}/keys"
    for i in range(3):
        admin.post(url, json={"subject": f"s{i}", "grants": ["memory_read"]})
    pages = walk(admin, url, "keys", 2)
    assert [len(p) for p in pages] == [2, 2]
    assert pages[0][0] == ctx["key_id"] and len({i for p in pages for i in p}) == 4


def test_the_audit_log_pages_to_a_null_cursor(admin: httpx.Client) -> None:
    cid = admin.post("/api/v1/contexts", json={"name": "paged"}).json()["id"]
    for i in range(3):
        admin.post(
            f"/api/v1/contexts/{cid}/keys", json={"subject": f"s{i}", "grants": ["memory_read"]}
        )
    pages = walk(admin, f"/api/v1/{cid}/audit", "events", 2)
    assert [len(p) for p in pages] == [2, 2]


def test_the_change_feed_pages_to_a_null_cursor(live, make_context) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        for i in range(3):
            create(client, f"note {i}")
        pages = walk(client, "/api/v1/memory/changes", "changes", 2)
        assert [len(p) for p in pages] == [2, 1]
        seqs = [int(s) for p in pages for s in p]
        assert seqs == sorted(seqs) and len(set(seqs)) == 3
        # A follower resumes after the last seq it processed; the old `after=` still works.
        tail = client.get("/api/v1/memory/changes", params={"cursor": str(seqs[0])}).json()
        assert [c["seq"] for c in tail["changes"]] == seqs[1:] and tail["next_cursor"] is None
        old = client.get("/api/v1/memory/changes", params={"after": seqs[0]}).json()
        assert old == tail


@pytest.mark.parametrize(
    "path",
    ["/api/v1/contexts", "/api/v1/contexts/{cid}/keys", "/api/v1/{cid}/audit"],
)
def test_a_malformed_cursor_is_a_400(
    admin: httpx.Client, make_context: Callable[..., dict[str, Any]], path: str
) -> None:
    ctx = make_context()
    resp = admin.get(path.format(cid=ctx["id"]), params={"cursor": "nope"})
    assert resp.status_code == 400 and resp.json()["error"]["field"] == "cursor"


def test_a_malformed_feed_cursor_is_a_400(live, make_context) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as client:
        resp = client.get("/api/v1/memory/changes", params={"cursor": "-1"})
    assert resp.status_code == 400 and resp.json()["error"]["field"] == "cursor"
