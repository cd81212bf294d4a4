"""memwarden on a Citus coordinator: the write path and recall, over HTTP."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.support.live import LiveServer


def test_facts_written_on_citus_are_recalled_by_query(
    live: LiveServer, make_context: Callable[..., dict[str, Any]]
) -> None:
    ctx = make_context(subject="alice")
    with live.client(ctx["key"]) as alice:
        resp = alice.post(
            f"/api/v1/{ctx['id']}/facts",
            json={"text": "I'm Alice, CTO at Acme. I love jazz."},
        )
        assert resp.status_code == 201, resp.text
        hits = alice.get(f"/api/v1/{ctx['id']}/query", params={"query": "jazz"}).json()["hits"]
    assert any("jazz" in hit["text"].lower() for hit in hits), hits
