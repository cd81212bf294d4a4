"""Request builders and scripted extraction replies for the write-path tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from tests.support.replies import EMPTY_EXTRACTION as EMPTY
from tests.support.replies import attr, extraction, person

Sql = Callable[..., list[tuple]]
__all__ = ["EMPTY", "attr", "extraction", "person"]


def facts(client: httpx.Client, cid: str, text: str, **body: Any) -> httpx.Response:
    return client.post(f"/api/v1/{cid}/facts", json={"text": text, **body})


def written(resp: httpx.Response) -> dict[str, Any]:
    assert resp.status_code == 201, resp.text
    return resp.json()


def query(client: httpx.Client, cid: str, text: str, **body: Any) -> list[dict[str, Any]]:
    resp = client.post(f"/api/v1/{cid}/query", json={"query": text, **body})
    assert resp.status_code == 200, resp.text
    return resp.json()["hits"]


def counts(sql: Sql) -> dict[str, int]:
    """Rows the write path creates, by table."""
    tables = (
        "session",
        "turn",
        "chunk",
        "memory_record",
        "memory_revision",
        "memory_embedding",
        "change_event",
    )
    return {t: sql(f"SELECT count(*) FROM {t}")[0][0] for t in tables}
